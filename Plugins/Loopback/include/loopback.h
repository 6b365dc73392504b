/* The C example driver uses only MeshDriverABI's header. */

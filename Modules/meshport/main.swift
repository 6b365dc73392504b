import MeshportCLI

await Meshport.start()

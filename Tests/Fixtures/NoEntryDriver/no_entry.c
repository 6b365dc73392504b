/* Test fixture: a shared object without the driver entry symbol. */
int meshport_not_a_driver(void) { return 42; }

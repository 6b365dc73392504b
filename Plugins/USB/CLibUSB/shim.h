// libusb-1.0 (libusb-1.0-0-dev). The header lives in a versioned folder; pkg-config names it.
#include <libusb-1.0/libusb.h>

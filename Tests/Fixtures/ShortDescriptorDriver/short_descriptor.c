/* Test fixture: a descriptor whose descriptor_size is smaller than the ABI 1.0 layout (a driver
 * built against some other header), which the loader must refuse. */
#include "meshport_driver.h"

static const char *const schemes[] = {"short"};
static const meshport_driver_descriptor descriptor = {
    .abi_major = MESHPORT_DRIVER_ABI_MAJOR,
    .abi_minor = 0,
    .descriptor_size = 8,
    .name = "short",
    .schemes = schemes,
    .scheme_count = 1,
    .link_kind = MESHPORT_LINK_STREAM,
};

const meshport_driver_descriptor *meshport_driver_entry(void) { return &descriptor; }

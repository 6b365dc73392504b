/* Test fixture: a driver built for a future ABI major, which the loader must refuse. */
#include "meshport_driver.h"

static const char *const schemes[] = {"future"};
static const meshport_driver_descriptor descriptor = {
    .abi_major = MESHPORT_DRIVER_ABI_MAJOR + 1,
    .descriptor_size = sizeof(meshport_driver_descriptor),
    .name = "future",
    .schemes = schemes,
    .scheme_count = 1,
    .link_kind = MESHPORT_LINK_STREAM,
};

const meshport_driver_descriptor *meshport_driver_entry(void) { return &descriptor; }

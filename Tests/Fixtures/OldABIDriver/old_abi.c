/* Test fixture: a driver built for ABI 1.0, which the host must load with the 1.1 fields at
 * their defaults. Its descriptor_size ends where 1.0 ended; what lies beyond it here (a validate
 * that refuses everything, every flag set) must never be read. */
#include "meshport_driver.h"

static int refuse_all(const char *url, meshport_error *error) {
    (void)url;
    meshport_error_set(error, MESHPORT_ERR_INVALID_URL, "the host read past descriptor_size");
    return -1;
}

static void *open_nothing(const char *url, const meshport_callbacks *callbacks, meshport_error *error) {
    (void)url;
    (void)callbacks;
    meshport_error_set(error, MESHPORT_ERR_NOT_FOUND, "the ABI 1.0 fixture has no devices");
    return NULL;
}

static int send_nothing(void *handle, const uint8_t *bytes, size_t length, meshport_error *error) {
    (void)handle;
    (void)bytes;
    (void)length;
    meshport_error_set(error, MESHPORT_ERR_OTHER, "the ABI 1.0 fixture has no links");
    return -1;
}

static void close_nothing(void *handle) { (void)handle; }

static const char *const schemes[] = {"old"};
static const meshport_driver_descriptor descriptor = {
    .abi_major = MESHPORT_DRIVER_ABI_MAJOR,
    .abi_minor = 0,
    .descriptor_size = MESHPORT_DRIVER_DESCRIPTOR_SIZE_1_0,
    .name = "old",
    .version = "1.0.0",
    .schemes = schemes,
    .scheme_count = 1,
    .link_kind = MESHPORT_LINK_STREAM,
    .max_frame_size = 176,
    .open = open_nothing,
    .send = send_nothing,
    .close = close_nothing,
    .validate = refuse_all,
    .flags = 0xFFFFFFFFu,
};

const meshport_driver_descriptor *meshport_driver_entry(void) { return &descriptor; }

/*
 * Meshport transport driver ABI.
 *
 * A driver is a shared library exporting one symbol, MESHPORT_DRIVER_ENTRY_SYMBOL, that returns
 * a pointer to a static descriptor. Only C types cross this boundary, so a driver can be written
 * in C, in Swift (through MeshDriverKit) or in any language with a C FFI, and built by another
 * compiler version than the host.
 *
 * Versioning: the host refuses a driver whose abi_major differs from its own. A minor bump only
 * appends fields at the end of the descriptor; a driver with a lower minor leaves them out and
 * the host does not read past `descriptor_size`: a field the size does not cover reads as zero
 * (NULL, no flags). The host refuses a descriptor_size smaller than the 1.0 layout
 * (MESHPORT_DRIVER_DESCRIPTOR_SIZE_1_0).
 *
 * 1.0: everything up to and including `close`.
 * 1.1: `validate` (each driver checks its own URLs) and `flags` (what a front end needs to know
 *      about the link) in the descriptor; `fix` at the end of meshport_error. The host passes
 *      drivers zeroed errors of the full size, so a 1.0 driver leaves `fix` empty; it reads
 *      `fix` of an error a driver hands it (link_lost) only when the driver's minor is 1 or more.
 * 1.2: `set_log` in the descriptor: the host hands the driver its log. A 1.1 driver has none
 *      and logs nothing through the host; a 1.2 driver loaded by a 1.1 host is never given a
 *      log (its `set_log` is past what that host reads), so a driver works without one.
 *
 * Threading and re-entrancy:
 *  - discover, validate, open, send and close may be called from any thread. The host never
 *    calls send concurrently for one handle, and never calls close concurrently with send for
 *    one handle.
 *  - received and link_lost may be called on any driver thread, but never concurrently for one
 *    handle, never after close has returned, and never from inside send or close.
 *  - After link_lost, the driver calls neither callback again for that handle; the host still
 *    calls close.
 *  - close releases everything and waits for the driver's own threads to stop using the handle.
 *    The host never calls it from inside a callback.
 *  - Callbacks must not block for long: the host copies the bytes and returns.
 *  - Strings passed in are UTF-8 and valid only for the call; strings returned in the descriptor
 *    live as long as the library is loaded.
 */
#ifndef MESHPORT_DRIVER_H
#define MESHPORT_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MESHPORT_DRIVER_ABI_MAJOR 1
#define MESHPORT_DRIVER_ABI_MINOR 2
#define MESHPORT_DRIVER_ENTRY_SYMBOL "meshport_driver_entry"

/* How frames travel on the link. */
typedef enum meshport_link_kind {
    /* A byte stream: the host adds and strips the '<'/'>' + u16 length framing. */
    MESHPORT_LINK_STREAM = 1,
    /* One companion frame per write and per received packet (BLE). */
    MESHPORT_LINK_PACKET = 2
} meshport_link_kind;

/* Bits of the descriptor's `flags`: what a front end needs to know about the link. */
typedef enum meshport_link_flag {
    /* Opening may pair, and pairing may wait for a person to type the radio's passkey: the
       first command gets minutes, not seconds (BLE). */
    MESHPORT_LINK_NEEDS_PAIRING = 1u << 0,
    /* The radio's own serial port (over USB): repeater and room server firmware talk there
       too, so a radio that never answers may be running other firmware. */
    MESHPORT_LINK_SERIAL_CONSOLE = 1u << 1
} meshport_link_flag;

/* What went wrong; the error's message says the details and its fix, where there is one, what to do. */
typedef enum meshport_error_kind {
    MESHPORT_OK = 0,
    MESHPORT_ERR_LINK_LOST = 1,
    MESHPORT_ERR_TIMEOUT = 2,
    MESHPORT_ERR_REFUSED = 3,
    MESHPORT_ERR_NOT_FOUND = 4,
    MESHPORT_ERR_PERMISSION_DENIED = 5,
    MESHPORT_ERR_BUSY = 6,
    MESHPORT_ERR_INVALID_URL = 7,
    MESHPORT_ERR_OTHER = 8
} meshport_error_kind;

/* An error written by the driver: `message` says what happened and where, `fix` what the user
   can do about it (empty when the driver knows nothing to suggest). Both NUL-terminated,
   truncated to fit. */
typedef struct meshport_error {
    meshport_error_kind kind;
    char message[512];
    char fix[256];
} meshport_error;

/* Called by the driver for every chunk received (stream) or every frame (packet). */
typedef void (*meshport_received_fn)(void *context, const uint8_t *bytes, size_t length);
/* Called once when the link is lost (peer closed, device unplugged, I/O error). */
typedef void (*meshport_link_lost_fn)(void *context, const meshport_error *error);
/* Called by discover for each radio found. */
typedef void (*meshport_found_fn)(void *context, const char *url, const char *label, const char *details);

/* How much a driver's log line matters (syslog's numbers, as journald files them). */
typedef enum meshport_log_level {
    MESHPORT_LOG_ERROR = 3,
    MESHPORT_LOG_WARNING = 4,
    MESHPORT_LOG_NOTICE = 5,
    MESHPORT_LOG_INFO = 6,
    MESHPORT_LOG_DEBUG = 7
} meshport_log_level;

/* The host's log: one sentence per call, UTF-8, NUL-terminated, valid only for the call. A
   driver may call it from any thread, at any time once set_log has given it, and must not
   hold a lock the host could need (the call writes a line and returns). */
typedef void (*meshport_log_fn)(void *context, meshport_log_level level, const char *message);

typedef struct meshport_callbacks {
    void *context;
    meshport_received_fn received;
    meshport_link_lost_fn link_lost;
} meshport_callbacks;

typedef struct meshport_driver_descriptor {
    uint16_t abi_major;
    uint16_t abi_minor;
    /* sizeof(meshport_driver_descriptor) as the driver was compiled. */
    uint32_t descriptor_size;
    const char *name;
    const char *version;
    /* URL schemes this driver opens, e.g. {"tcp"}. */
    const char *const *schemes;
    uint32_t scheme_count;
    meshport_link_kind link_kind;
    /* Largest companion frame the link carries (176 for current firmware). */
    uint32_t max_frame_size;

    /* Lists radios this driver can reach now, calling `found` once per radio (on any thread,
       but only before discover returns); returns 0, or -1 with `error` filled. May be NULL. */
    int (*discover)(meshport_found_fn found, void *context, meshport_error *error);
    /* Opens `url`; returns a handle, or NULL with `error` filled. */
    void *(*open)(const char *url, const meshport_callbacks *callbacks, meshport_error *error);
    /* Writes all bytes (stream: already framed; packet: one frame); 0, or -1 with `error`. */
    int (*send)(void *handle, const uint8_t *bytes, size_t length, meshport_error *error);
    /* Closes the link and frees the handle. */
    void (*close)(void *handle);

    /* ABI 1.1. */
    /* Checks `url` as open would, without touching any device: 0, or -1 with `error` filled
       (MESHPORT_ERR_INVALID_URL, the message quoting the bad part and saying the fix). The host
       asks before it opens and wherever it takes a URL from a person. May be NULL: then a bad
       URL shows only when open fails with MESHPORT_ERR_INVALID_URL. */
    int (*validate)(const char *url, meshport_error *error);
    /* meshport_link_flag bits; unknown bits are ignored. */
    uint32_t flags;

    /* ABI 1.2. */
    /* Called by the host once the driver is loaded, before any other call (and again if the
       library is loaded again: the last log given counts), with the log to write to and its
       context. May be NULL: the driver then logs nothing through the host. */
    void (*set_log)(meshport_log_fn log, void *context);
} meshport_driver_descriptor;

/* The size of the 1.0 descriptor: the least descriptor_size the host accepts. */
#define MESHPORT_DRIVER_DESCRIPTOR_SIZE_1_0 offsetof(meshport_driver_descriptor, validate)

typedef const meshport_driver_descriptor *(*meshport_driver_entry_fn)(void);

/* The one exported symbol of a driver. */
const meshport_driver_descriptor *meshport_driver_entry(void);

/* Copies at most size-1 bytes of `from` and ends `to` with NUL (a helper of the two below). */
static inline void meshport_copy_text(char *to, size_t size, const char *from) {
    size_t n = 0;
    if (from != NULL) {
        while (n + 1 < size && from[n] != '\0') { to[n] = from[n]; n++; }
    }
    to[n] = '\0';
}

/* Copies `message` into `error` and empties its fix (NULL-safe). Inline, so a driver needs
   nothing but this header. */
static inline void meshport_error_set(meshport_error *error, meshport_error_kind kind, const char *message) {
    if (error == NULL) return;
    error->kind = kind;
    meshport_copy_text(error->message, sizeof(error->message), message);
    error->fix[0] = '\0';
}

/* Copies `fix` into `error`, after meshport_error_set (NULL-safe). */
static inline void meshport_error_set_fix(meshport_error *error, const char *fix) {
    if (error == NULL) return;
    meshport_copy_text(error->fix, sizeof(error->fix), fix);
}

#ifdef __cplusplus
}
#endif

#endif

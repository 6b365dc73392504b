/*
 * Example Meshport driver in plain C: `loopback://NAME` is a packet link that sends every
 * frame straight back. It shows that drivers need nothing but the C header, and it passes
 * the link-level part of the conformance suite.
 *
 * The ABI forbids callbacks from inside send(), so a worker thread delivers the echoes.
 * A frame starting with 0x7C (the conformance "drop" hook) makes it behave as if unplugged.
 */
#include "meshport_driver.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAME 176
#define QUEUE_SLOTS 1024

typedef struct frame { size_t length; uint8_t bytes[MAX_FRAME]; } frame;

typedef struct link {
    meshport_callbacks callbacks;
    pthread_mutex_t lock;
    pthread_cond_t ready;
    pthread_t worker;
    frame queue[QUEUE_SLOTS];
    size_t head, count;
    int closing;
} link;

static void *worker_main(void *arg) {
    link *l = arg;
    frame f;
    for (;;) {
        pthread_mutex_lock(&l->lock);
        while (l->count == 0 && !l->closing) pthread_cond_wait(&l->ready, &l->lock);
        if (l->closing) { pthread_mutex_unlock(&l->lock); return NULL; }
        f = l->queue[l->head];
        l->head = (l->head + 1) % QUEUE_SLOTS;
        l->count--;
        pthread_cond_broadcast(&l->ready);
        pthread_mutex_unlock(&l->lock);
        if (f.bytes[0] == 0x7C) {
            /* Conformance hook "drop mid-frame": behave like an unplugged device. */
            meshport_error lost;
            meshport_error_set(&lost, MESHPORT_ERR_LINK_LOST, "loopback device unplugged (conformance hook)");
            l->callbacks.link_lost(l->callbacks.context, &lost);
            return NULL;
        }
        l->callbacks.received(l->callbacks.context, f.bytes, f.length);
    }
}

static int loopback_discover(meshport_found_fn found, void *context, meshport_error *error) {
    (void)error;
    found(context, "loopback://example", "Loopback (echo)", "example driver written in C");
    return 0;
}

/* loopback://NAME, NAME of letters, digits, '-' and '_'. Open checks the same way. */
static int loopback_validate(const char *url, meshport_error *error) {
    if (strncmp(url, "loopback://", 11) != 0 || url[11] == '\0') {
        meshport_error_set(error, MESHPORT_ERR_INVALID_URL, "expected loopback://NAME, e.g. loopback://example");
        return -1;
    }
    for (const char *c = url + 11; *c != '\0'; c++) {
        int ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_';
        if (!ok) {
            meshport_error_set(error, MESHPORT_ERR_INVALID_URL, "a loopback NAME holds only letters, digits, '-' and '_'");
            return -1;
        }
    }
    return 0;
}

/* The host's log (ABI 1.2), given before any other call; NULL under a host that gives none. */
static meshport_log_fn host_log;
static void *host_log_context;

static void loopback_set_log(meshport_log_fn log, void *context) {
    host_log = log;
    host_log_context = context;
}

static void *loopback_open(const char *url, const meshport_callbacks *callbacks, meshport_error *error) {
    if (loopback_validate(url, error) != 0) return NULL;
    if (strcmp(url + 11, "missing") == 0) {
        meshport_error_set(error, MESHPORT_ERR_NOT_FOUND, "no loopback device named \"missing\"");
        return NULL;
    }
    link *l = calloc(1, sizeof(link));
    if (l == NULL) {
        meshport_error_set(error, MESHPORT_ERR_OTHER, "out of memory");
        return NULL;
    }
    l->callbacks = *callbacks;
    pthread_mutex_init(&l->lock, NULL);
    pthread_cond_init(&l->ready, NULL);
    if (pthread_create(&l->worker, NULL, worker_main, l) != 0) {
        meshport_error_set(error, MESHPORT_ERR_OTHER, "cannot start worker thread");
        free(l);
        return NULL;
    }
    if (host_log != NULL) host_log(host_log_context, MESHPORT_LOG_NOTICE, "The loopback link echoes every frame it is sent.");
    return l;
}

static int loopback_send(void *handle, const uint8_t *bytes, size_t length, meshport_error *error) {
    link *l = handle;
    if (length == 0 || length > MAX_FRAME) {
        meshport_error_set(error, MESHPORT_ERR_OTHER, "frame length outside 1-176");
        return -1;
    }
    pthread_mutex_lock(&l->lock);
    while (l->count == QUEUE_SLOTS && !l->closing) pthread_cond_wait(&l->ready, &l->lock);
    size_t tail = (l->head + l->count) % QUEUE_SLOTS;
    l->queue[tail].length = length;
    memcpy(l->queue[tail].bytes, bytes, length);
    l->count++;
    pthread_cond_broadcast(&l->ready);
    pthread_mutex_unlock(&l->lock);
    return 0;
}

static void loopback_close(void *handle) {
    link *l = handle;
    pthread_mutex_lock(&l->lock);
    l->closing = 1;
    pthread_cond_broadcast(&l->ready);
    pthread_mutex_unlock(&l->lock);
    pthread_join(l->worker, NULL);
    pthread_mutex_destroy(&l->lock);
    pthread_cond_destroy(&l->ready);
    free(l);
}

static const char *const schemes[] = {"loopback"};

static const meshport_driver_descriptor descriptor = {
    .abi_major = MESHPORT_DRIVER_ABI_MAJOR,
    .abi_minor = MESHPORT_DRIVER_ABI_MINOR,
    .descriptor_size = sizeof(meshport_driver_descriptor),
    .name = "loopback",
    .version = "1.0.0",
    .schemes = schemes,
    .scheme_count = 1,
    .link_kind = MESHPORT_LINK_PACKET,
    .max_frame_size = MAX_FRAME,
    .discover = loopback_discover,
    .open = loopback_open,
    .send = loopback_send,
    .close = loopback_close,
    .validate = loopback_validate,
    .set_log = loopback_set_log,
};

const meshport_driver_descriptor *meshport_driver_entry(void) { return &descriptor; }

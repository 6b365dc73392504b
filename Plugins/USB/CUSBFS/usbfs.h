// Linux usbfs (linux-libc-dev): the URB calls libusb makes on Linux, for the bulk data path.
// ioctl is variadic and its request numbers are function-like macros, so neither reaches
// Swift directly; these wrappers do.
#include <errno.h>
#include <linux/usbdevice_fs.h>
#include <sys/ioctl.h>

static inline int meshport_usbfs_submit(int fd, struct usbdevfs_urb *urb) {
    return ioctl(fd, USBDEVFS_SUBMITURB, urb);
}

/// Blocks until one of this descriptor's URBs completes; ENODEV once the device is gone and
/// every URB was reaped.
static inline int meshport_usbfs_reap(int fd, struct usbdevfs_urb **urb) {
    return ioctl(fd, USBDEVFS_REAPURB, urb);
}

/// EAGAIN when no URB has completed.
static inline int meshport_usbfs_reap_nodelay(int fd, struct usbdevfs_urb **urb) {
    return ioctl(fd, USBDEVFS_REAPURBNDELAY, urb);
}

/// Cancels a URB; it still completes (status -ENOENT or -ECONNRESET) and must be reaped.
static inline int meshport_usbfs_discard(int fd, struct usbdevfs_urb *urb) {
    return ioctl(fd, USBDEVFS_DISCARDURB, urb);
}

static inline int meshport_errno(void) { return errno; }

enum {
    MESHPORT_URB_TYPE_BULK = USBDEVFS_URB_TYPE_BULK,
    MESHPORT_URB_TYPE_CONTROL = USBDEVFS_URB_TYPE_CONTROL,
    MESHPORT_URB_ZERO_PACKET = USBDEVFS_URB_ZERO_PACKET,
};

/*
 * vhci-bridge: makes a Bluetooth controller on the host the guest kernel's own adapter.
 *
 *   vhci-bridge PORT      (PORT: a virtio serial port, e.g. /dev/vport0p1)
 *
 * Runs in the QEMU guest of Tools/USB/run-in-vm.sh (mode -b). The port's host side is the
 * emulated controller of Tools/BLE/world.py (H4 over TCP). Opening /dev/vhci (hci_vhci) and
 * writing the vendor packet {0xff, 0x00} registers a primary controller, hciN; the kernel then
 * talks HCI to it through this descriptor, as it talks to a USB adapter through btusb. The
 * kernel names the index in a vendor packet {0xff, opcode, index (u16 LE)}, which is never
 * passed on to the controller.
 *
 * Why a program and not `cat`: /dev/vhci moves whole packets (one H4 packet, type byte first,
 * per read and per write; a write holding less or more than one packet is refused or
 * misread), while the virtio port is a byte stream. Packets from the port are cut at their H4
 * boundaries here (header lengths per type, Core Vol 4 Part A); busybox has nothing that can.
 * Static C: the guest has busybox and no libc.
 *
 * A registered controller is not ready at once: the kernel powers it on, runs its own init
 * over the bridge and powers it off 2 s later (no bluetoothd keeps it up); meanwhile the HCI
 * user channel is refused (EBUSY). So a child process bridges, and this process brings the
 * adapter up (HCIDEVUP waits for that setup to finish) and down again, as `hciconfig hci0 up`
 * and `down` would, then exits: status 0 and "hciN ready" once the adapter is down and free,
 * 1 when the kernel could not bring it up. The bridge runs on until either side ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <bluetooth/bluetooth.h>   /* constants only (libbluetooth-dev); nothing is linked */
#include <bluetooth/hci.h>

/* The largest H4 packet: an ACL packet with a u16 length, plus its 5-byte header. */
#define MAX_PACKET (5 + 65535)

static void die(const char *what)
{
    fprintf(stderr, "vhci-bridge: %s: %s\n", what, errno ? strerror(errno) : "ended");
    exit(1);
}

static void write_all(int fd, const unsigned char *p, size_t n, const char *what)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            die(what);
        p += w;
        n -= (size_t)w;
    }
}

/* The length of the H4 packet at p (type byte included) once its header is there; 0 while
 * the header is incomplete, -1 for a type that is not H4. */
static long h4_length(const unsigned char *p, size_t have)
{
    size_t header;
    switch (p[0]) {
    case 0x01: header = 4; break;   /* command: opcode u16, length u8 */
    case 0x02: header = 5; break;   /* ACL: handle u16, length u16 */
    case 0x03: header = 4; break;   /* SCO: handle u16, length u8 */
    case 0x04: header = 3; break;   /* event: code u8, length u8 */
    case 0x05: header = 5; break;   /* ISO: handle u16, length u16 (14 bits) */
    default: return -1;
    }
    if (have < header)
        return 0;
    switch (p[0]) {
    case 0x01: case 0x03: return 4 + (long)p[3];
    case 0x04: return 3 + (long)p[2];
    case 0x02: return 5 + (long)(p[3] | p[4] << 8);
    default: return 5 + (long)((p[3] | p[4] << 8) & 0x3fff);
    }
}

/* Moves packets both ways until a side ends; the index goes to `announce` (then closed). */
static void bridge(int vhci, int port, const char *name, int announce)
{
    static unsigned char up[MAX_PACKET], down[2 * MAX_PACKET];
    size_t held = 0;   /* bytes from the port not yet passed on */
    struct pollfd fds[2] = {{.fd = vhci, .events = POLLIN}, {.fd = port, .events = POLLIN}};
    for (;;) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            die("poll");
        }
        if (fds[0].revents & (POLLIN | POLLERR)) {   /* the kernel's host: one packet per read */
            ssize_t n = read(vhci, up, sizeof up);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                die("/dev/vhci");
            if (up[0] == 0xff) {   /* the kernel's vendor packet, for us */
                if (n == 4 && announce >= 0) {
                    write_all(announce, up + 2, 2, "announce");
                    close(announce);
                    announce = -1;
                }
            } else {
                write_all(port, up, (size_t)n, name);
            }
        }
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {   /* the controller: a byte stream */
            ssize_t n = read(port, down + held, sizeof down - held);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                die(name);
            held += (size_t)n;
            size_t at = 0;
            while (at < held) {
                long len = h4_length(down + at, held - at);
                if (len < 0) {
                    fprintf(stderr, "vhci-bridge: 0x%02x from the controller is no H4 packet type\n", down[at]);
                    exit(1);
                }
                if (len == 0 || (size_t)len > held - at)
                    break;   /* the rest of the packet is still on its way */
                write_all(vhci, down + at, (size_t)len, "/dev/vhci");
                at += (size_t)len;
            }
            memmove(down, down + at, held - at);
            held -= at;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: vhci-bridge /dev/vportNpM\n");
        return 2;
    }
    int port = open(argv[1], O_RDWR | O_CLOEXEC);
    if (port < 0)
        die(argv[1]);
    int vhci = open("/dev/vhci", O_RDWR | O_CLOEXEC);
    if (vhci < 0)
        die("/dev/vhci");
    int announce[2];
    if (pipe(announce) != 0)
        die("pipe");
    /* Without this write the kernel makes the same primary controller after 1 s. */
    const unsigned char create[2] = {0xff, 0x00};
    write_all(vhci, create, sizeof create, "/dev/vhci (create)");
    pid_t child = fork();
    if (child < 0)
        die("fork");
    if (child == 0) {
        close(announce[0]);
        dup2(STDERR_FILENO, STDOUT_FILENO);   /* a caller reading our stdout gets its EOF */
        bridge(vhci, port, argv[1], announce[1]);
    }
    close(announce[1]);
    close(vhci);   /* the child holds the device; it goes when the child ends */
    close(port);
    unsigned char index[2];
    ssize_t n = read(announce[0], index, 2);
    if (n != 2) {
        errno = 0;
        die("the bridge ended before the kernel named the adapter");
    }
    int dev = index[0] | index[1] << 8;
    int hci = socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI);
    if (hci < 0)
        die("HCI socket");
    /* EALREADY: the kernel's own power-on still holds it up (its 2 s are not over). */
    if (ioctl(hci, HCIDEVUP, dev) != 0 && errno != EALREADY) {
        fprintf(stderr, "vhci-bridge: the kernel could not bring hci%d up: %s\n", dev, strerror(errno));
        return 1;
    }
    if (ioctl(hci, HCIDEVDOWN, dev) != 0)
        die("HCIDEVDOWN");
    printf("hci%d\n", dev);
    fprintf(stderr, "vhci-bridge: hci%d ready on %s (bridge pid %d)\n", dev, argv[1], (int)child);
    return 0;
}

#!/bin/bash
# Run a Linux x86_64 executable inside a QEMU guest that has a USB serial device whose
# serial data goes to a TCP server on the host (127.0.0.1:PORT, must already listen).
# PORT,PORT2 gives the guest two identical devices, each with its own server.
# With -b the guest has a Bluetooth adapter instead: hci0, whose controller is an H4 server on
# the host (Tools/BLE/world.py), joined through a virtio port and /dev/vhci (vhci-bridge.c).
#
#   run-in-vm.sh [options] PORT[,PORT2] EXECUTABLE [ARGS...]
#     -a           CDC-ACM mode: in-guest gadget (dummy_hcd + configfs acm) instead of
#                  the emulated FTDI FT232 (0403:6001)
#     -r CHIP      a radio modelled on the host (Radio/radio.py: cdc-acm, cp210x or ch341),
#                  attached through QEMU's usb-redir, instead of the emulated FTDI FT232
#     -b           Bluetooth mode: PORT is a controller's H4 TCP port; the guest kernel gets it
#                  as hci0 (bluetooth, hci_vhci), down and free for the HCI user channel
#     -i VID:PID   USB ids of the CDC-ACM gadget (hex, default 0525:a4a7)
#     -f FILE      extra file copied next to the executable (repeatable; ELF deps too)
#     -e VAR=VAL   environment variable for the executable (repeatable)
#     -t SECONDS   wall-clock limit for the whole VM run (default 300)
#     -v           always print the full guest console (and the radio models' log) to stderr
# The executable runs as root in /opt/test; its stdout is returned on stdout, its stderr
# on stderr, and its exit status becomes ours (124 = timeout, 125 = VM/setup failure).
# Env: USBVM_CACHE (default ~/.cache/usb-vm), USBVM_MEM (MiB, default 1024),
#      USBVM_ACCEL (tcg default; kvm only where nested virtualisation works),
#      USBVM_CPUS (guest CPUs, default 1),
#      USBVM_KERNEL_PKG (default: what linux-image-amd64 depends on),
#      USBVM_QEMU_ARGS (extra QEMU options, e.g. "-trace usb_serial_set_baud").
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
MODE=ftdi CHIP= VIDPID=0525:a4a7 TIMEOUT=300 VERBOSE=0 FILES=() ENVS=()
while getopts "abr:i:f:e:t:v" o; do case $o in
    a) MODE=acm;; b) MODE=ble;; r) MODE=redir CHIP=$OPTARG;; i) VIDPID=$OPTARG;; f) FILES+=("$OPTARG");; e) ENVS+=("$OPTARG");;
    t) TIMEOUT=$OPTARG;; v) VERBOSE=1;; *) sed -n '2,28s/^# \{0,1\}//p' "$0" >&2; exit 2;;
esac; done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,28s/^# \{0,1\}//p' "$0" >&2; exit 2; }
case $MODE:$CHIP in redir:cdc-acm|redir:cp210x|redir:ch341|ftdi:|acm:|ble:) ;;
*) echo "usb-vm: -r takes cdc-acm, cp210x or ch341 (got '$CHIP')" >&2; exit 2;; esac
PORT=$1 EXE=$2; shift 2
CACHE=${USBVM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/usb-vm}
mkdir -p "$CACHE"

# --- kernel: Debian's linux-image-amd64 target, unpacked (not installed) into the cache
KPKG=${USBVM_KERNEL_PKG:-$(apt-cache depends linux-image-amd64 2>/dev/null |
                          awk '/Depends: linux-image-[0-9]/{print $2; exit}')}
[ -n "$KPKG" ] || { echo "usb-vm: run apt-get update or set USBVM_KERNEL_PKG" >&2; exit 125; }
KDIR=$CACHE/$KPKG
if [ ! -e "$KDIR/vmlinuz" ]; then
    rm -rf "$KDIR"; mkdir -p "$KDIR"
    (cd "$KDIR" && apt-get download "$KPKG" >/dev/null 2>&1 && dpkg -x ./*.deb root && rm ./*.deb) ||
        { echo "usb-vm: cannot fetch/unpack $KPKG" >&2; exit 125; }
    KVER=$(ls "$KDIR/root/lib/modules")
    depmod -b "$KDIR/root" "$KVER"
    cp "$KDIR/root/boot/vmlinuz-$KVER" "$KDIR/vmlinuz"
fi
KVER=$(ls "$KDIR/root/lib/modules")

# copy an ELF file plus the shared libraries ldd resolves (same paths in the guest)
copy_elf() {  # SRC DEST-IN-GUEST STAGE
    mkdir -p "$3$(dirname "$2")"; cp -L "$1" "$3$2"
    { ldd "$1" 2>/dev/null || true; } | awk '/=> \//{print $3} /^\t\//{print $1}' | while read -r lib; do
        mkdir -p "$3$(dirname "$lib")"; cp -Ln "$lib" "$3$lib"
    done
}
cpio_gz() { (cd "$1" && find . | cpio -o -H newc --quiet) | gzip -1; }

# --- base image (busybox, init, kernel modules), rebuilt when this harness changes
BASE=$KDIR/base.cpio.gz
if [ ! -e "$BASE" ] || [ "$HERE/guest-init.sh" -nt "$BASE" ] || [ "$0" -nt "$BASE" ]; then
    S=$(mktemp -d); trap 'rm -rf "$S"' EXIT
    mkdir -p "$S"/{bin,dev,proc,sys,tmp,opt/test,lib/modules/$KVER}
    cp /bin/busybox "$S/bin/"; install -m755 "$HERE/guest-init.sh" "$S/init"
    KM=$KDIR/root/lib/modules/$KVER
    for m in xhci_pci ftdi_sio cp210x ch341 cdc_acm dummy_hcd libcomposite usb_f_acm usb_f_fs \
             virtio_pci virtio_console bluetooth hci_vhci; do
        line=$(grep -E "/${m//_/[-_]}\.ko[^:]*:" "$KM/modules.dep")
        for f in ${line%%:*} ${line#*:}; do install -D -m644 "$KM/$f" "$S/lib/modules/$KVER/$f"; done
    done
    cp "$KM"/modules.{order,builtin,builtin.modinfo} "$S/lib/modules/$KVER/"
    depmod -b "$S" "$KVER"
    cpio_gz "$S" > "$BASE.$$"
    # pad to 4 bytes so an uncompressed archive can be appended
    head -c $(( (4 - $(stat -c%s "$BASE.$$") % 4) % 4 )) /dev/zero >> "$BASE.$$"
    mv "$BASE.$$" "$BASE"; rm -rf "$S"; trap - EXIT
fi

# --- per-run archive: executable, extra files, their libraries, the run script
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
A=$T/app; mkdir -p "$A/opt/test" "$A/lib64"
NAME=$(basename "$EXE")
copy_elf "$EXE" "/opt/test/$NAME" "$A"
for f in "${FILES[@]}"; do
    if head -c4 "$f" | grep -q ELF; then copy_elf "$f" "/opt/test/$(basename "$f")" "$A"
    else cp -L "$f" "$A/opt/test/"; fi
done
if [ $MODE = ble ]; then   # the guest's /dev/vhci <-> virtio port bridge: static, the guest has no libc
    BRIDGE=$CACHE/vhci-bridge
    if [ ! -x "$BRIDGE" ] || [ "$HERE/vhci-bridge.c" -nt "$BRIDGE" ]; then
        ${CC:-gcc} -static -O2 -Wall -o "$BRIDGE.$$" "$HERE/vhci-bridge.c" ||
            { echo "usb-vm: cannot build vhci-bridge.c (gcc and libc6-dev)" >&2; exit 125; }
        mv "$BRIDGE.$$" "$BRIDGE"
    fi
    mkdir -p "$A/bin"; cp "$BRIDGE" "$A/bin/vhci-bridge"
fi
{   for e in "${ENVS[@]}"; do printf 'export %q\n' "$e"; done
    printf 'exec ./%q' "$NAME"; printf ' %q' "$@"; echo
} > "$A/opt/test/.run"
(cd "$A" && find . | cpio -o -H newc --quiet) > "$T/app.cpio"   # uncompressed: fast to unpack
cat "$BASE" "$T/app.cpio" > "$T/initrd"

# --- boot
# reconnect=1: when the simulator drops the link (a radio that resets), QEMU connects again a
# second later; meanwhile the emulated FTDI adapter is detached, as an unplugged one is.
IFS=, read -r -a PORTS <<< "$PORT"
[ ${#PORTS[@]} -le 2 ] || { echo "usb-vm: at most two devices (PORT,PORT2)" >&2; exit 2; }
[ $MODE != ble ] || [ ${#PORTS[@]} -eq 1 ] || { echo "usb-vm: -b takes one controller port" >&2; exit 2; }
case $MODE in acm|ble) DEV=(-device virtio-serial-pci);; *) DEV=(-device qemu-xhci,id=xhci);; esac
RADIOS=()
trap 'for p in "${RADIOS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
for i in "${!PORTS[@]}"; do
    CPORT=${PORTS[$i]}
    if [ $MODE = redir ]; then   # the radio model connects to the server; QEMU connects to it
        # Made before the model starts: the wait below reads the file at once, and a missing
        # file would end this script (set -e) before the model's shell had opened it.
        : > "$T/radio$i.out"; : > "$T/radio$i.err"
        python3 "$HERE/Radio/radio.py" --chip "$CHIP" --server "$CPORT" --serial "TEST000$((i + 1))" \
            $([ $VERBOSE = 1 ] && echo -v) > "$T/radio$i.out" 2> "$T/radio$i.err" &
        RADIOS+=($!); CPORT=
        for _ in $(seq 100); do
            CPORT=$(sed -n 's/^radio: listening on \([0-9]*\)/\1/p' "$T/radio$i.out")
            [ -n "$CPORT" ] && break; sleep 0.1
        done
        [ -n "$CPORT" ] || { echo "usb-vm: Radio/radio.py did not start" >&2; cat "$T/radio$i.err" >&2; exit 125; }
    fi
    # nodelay: usbredir and HCI send many small packets; Nagle against the peer's delayed ACK
    # holds each one up to 40 ms.
    NODELAY=; case $MODE in redir|ble) NODELAY=,nodelay=on;; esac
    DEV+=(-chardev "socket,id=dev$i,host=127.0.0.1,port=$CPORT,reconnect=1$NODELAY")
    case $MODE in
    ftdi) DEV+=(-device usb-serial,bus=xhci.0,chardev=dev$i) ;;
    redir) DEV+=(-device usb-redir,bus=xhci.0,chardev=dev$i) ;;
    acm) DEV+=(-device virtserialport,chardev=dev$i,name=acm$i) ;;
    ble) DEV+=(-device virtserialport,chardev=dev$i,name=hci$i) ;;
    esac
done
: > "$T/console"; : > "$T/stdout"
set +e
timeout -k 5 "$TIMEOUT" qemu-system-x86_64 -accel "${USBVM_ACCEL:-tcg}" -m "${USBVM_MEM:-1024}" \
    -smp "${USBVM_CPUS:-1}" -nodefaults -no-user-config -display none -no-reboot \
    -kernel "$KDIR/vmlinuz" -initrd "$T/initrd" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1 usbvm.mode=$MODE usbvm.vidpid=$VIDPID usbvm.devices=${#PORTS[@]} usbvm.tty=$([ "$CHIP" = cdc-acm ] && echo ttyACM || echo ttyUSB)" \
    -chardev "file,id=con,path=$T/console" -serial chardev:con \
    -chardev "file,id=out,path=$T/stdout" -serial chardev:out \
    "${DEV[@]}" ${USBVM_QEMU_ARGS:-} 2> "$T/qemu.err"
qrc=$?
set -e
cat "$T/stdout"
rc=$(sed -n 's/^USBVM-EXIT \([0-9]*\).*/\1/p' "$T/console" | tail -1)
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then rc=124; echo "usb-vm: timed out after ${TIMEOUT}s" >&2
elif [ -z "$rc" ]; then rc=125; fi
tr -d '\r' < "$T/console" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' > "$T/console.txt"
cat "$T/qemu.err" >&2                                    # QEMU errors and trace output
for f in "$T"/radio*.err; do if [ -s "$f" ]; then cat "$f" >&2; fi; done   # the radio models' errors
if [ $VERBOSE = 1 ] || [ $rc -ge 124 ]; then cat "$T/console.txt" >&2
else sed '0,/^USBVM-RUN/d; /^USBVM-EXIT/,$d' "$T/console.txt" >&2   # the program's stderr
fi
exit "$rc"

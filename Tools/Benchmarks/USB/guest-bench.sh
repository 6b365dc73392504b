#!/bin/sh
# In the QEMU guest (busybox sh), with two identical USB serial devices: the same echo
# workload through the kernel's tty driver on one and through usb:// on the other, with
# round trips interleaved in one process (MeshportGuest bench), so both paths meet the
# same moments of a noisy host. The devices swap roles every round. One JSON line per path
# and round on stdout.
#   guest-bench.sh VID:PID [ROUNDS]
vidpid=$1 rounds=${2:-3}

# "TTY SERIAL" for each kernel tty of a device with these ids, ordered by serial number.
ttys() {
    for t in /sys/class/tty/ttyUSB* /sys/class/tty/ttyACM*; do
        [ -e "$t/device" ] || continue
        d=$(readlink -f "$t/device")
        while [ ! -e "$d/idVendor" ] && [ "$d" != / ]; do d=$(dirname "$d"); done
        [ "$(cat "$d/idVendor" 2>/dev/null):$(cat "$d/idProduct" 2>/dev/null)" = "$vidpid" ] || continue
        echo "$(basename "$t") $(cat "$d/serial")"
    done | sort -k2
}

i=0
while [ "$i" -lt "$rounds" ]; do
    # usb:// hands its device back to the kernel on close; its tty comes back a moment later.
    n=0
    while [ "$(ttys | wc -l)" -lt 2 ]; do
        n=$((n + 1))
        [ $n -le 100 ] || { echo "guest-bench: two $vidpid devices with ttys did not appear" >&2; ttys >&2; exit 1; }
        sleep 0.1
    done
    if [ $((i % 2)) = 0 ]; then pick='NR == 1'; other='NR == 2'; else pick='NR == 2'; other='NR == 1'; fi
    tty=$(ttys | awk "$pick { print \$1 }")
    serial=$(ttys | awk "$other { print \$2 }")
    ./MeshportGuest bench "serial:///dev/$tty" "usb://$vidpid?serial=$serial" || exit 1
    i=$((i + 1))
done

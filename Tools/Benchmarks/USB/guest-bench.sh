#!/bin/sh
# In the QEMU guest (busybox sh): the same echo workload on the kernel's tty driver and on
# usb:// for the same device, alternated ROUNDS times; one JSON line per run on stdout.
#   guest-bench.sh TTY USB-URL [ROUNDS]
tty=$1 usb=$2 rounds=${3:-3}
i=0
while [ "$i" -lt "$rounds" ]; do
    # usb:// hands the device back to the kernel on close; its tty comes back a moment later.
    n=0
    while [ ! -e "$tty" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
    ./MeshportUSBGuest bench "serial://$tty" || exit 1
    ./MeshportUSBGuest bench "$usb" || exit 1
    i=$((i + 1))
done

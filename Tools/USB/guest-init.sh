#!/bin/busybox sh
# /init of the test VM: set up the USB serial device(s) or the Bluetooth adapter, run
# /opt/test/.run, power off.
# Program stdout -> ttyS1 (raw), stderr and these messages -> console (ttyS0).
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin HOME=/tmp
mount -t proc proc /proc; mount -t sysfs sys /sys
mount -t devtmpfs dev /dev; mount -t tmpfs tmp /tmp
echo /bin/modprobe > /proc/sys/kernel/modprobe   # used by the kernel to autoload modules
ip link set lo up   # Foundation wants loopback (CFSocket's wakeup sockets, for Process)
arg() { sed -n "s/.*usbvm\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
finish() { echo "USBVM-EXIT $1"; poweroff -f; }
wait_for() { for _ in $(seq 100); do [ -e "$1" ] && return 0; sleep 0.1; done
             echo "USBVM-ERROR $1 did not appear"; finish 125; }
# Without a new process: the acm watch below runs 20 times a second per device, and forks
# (a command substitution, a `sleep`) cost the one-CPU guest the benchmark measures in.
host_connected() {  # VPORT: sets connected=1 while QEMU is connected to the port's host side
    connected=1
    while read -r key value; do [ "$key" = host_connected: ] && connected=$value; done \
        < /sys/kernel/debug/virtio-ports/$1
}
wait_host() {  # VPORT: QEMU connects to the host's server in the background: wait until it has
    for _ in $(seq 100); do host_connected $1; [ "$connected" = 1 ] && return 0; sleep 0.1; done
}

DEVICES=$(arg devices); DEVICES=${DEVICES:-1}
case $(arg mode) in
ftdi)   # QEMU usb-serial (FTDI FT232, 0403:6001) on an xHCI controller, one per device
    modprobe xhci_pci; modprobe ftdi_sio
    wait_for /dev/ttyUSB$((DEVICES - 1)) ;;
redir)  # radios modelled on the host (CDC-ACM, CP210x or CH340), attached through QEMU's usb-redir
    modprobe xhci_pci; modprobe cdc_acm; modprobe cp210x; modprobe ch341
    wait_for /dev/$(arg tty)$((DEVICES - 1)) ;;
acm)    # CDC-ACM gadgets on dummy_hcd (one UDC each); each tty side is bridged to a virtio
        # port (host socket). Gadget i has serial number TEST000<i+1>.
    VIDPID=$(arg vidpid)
    modprobe dummy_hcd num=$DEVICES; modprobe libcomposite; modprobe usb_f_acm; modprobe cdc_acm
    mount -t configfs none /sys/kernel/config
    modprobe virtio_pci; modprobe virtio_console
    mount -t debugfs none /sys/kernel/debug
    mkfifo /tmp/never; exec 9<>/tmp/never   # never written: `read -t` on it just waits (no fork)
    pause() { read -t "$1" _ <&9; }
    i=0
    while [ $i -lt "$DEVICES" ]; do
        G=/sys/kernel/config/usb_gadget/acm$i
        mkdir -p $G/strings/0x409 $G/configs/c.1 $G/functions/acm.0
        echo 0x${VIDPID%:*} > $G/idVendor; echo 0x${VIDPID#*:} > $G/idProduct
        echo 0x0200 > $G/bcdUSB
        echo "Meshport test" > $G/strings/0x409/manufacturer
        echo "CDC-ACM test radio" > $G/strings/0x409/product
        echo "TEST000$((i + 1))" > $G/strings/0x409/serialnumber
        ln -s $G/functions/acm.0 $G/configs/c.1/
        UDC=$(ls /sys/class/udc | sed -n "$((i + 1))p")
        echo "$UDC" > $G/UDC
        VPORT=vport0p$((i + 1))
        wait_for /dev/ttyGS$i; wait_for /dev/$VPORT
        wait_host $VPORT   # the test starts once QEMU is connected to the simulator
        # A radio that resets leaves the bus: while the simulator has dropped the link (the host
        # side of the virtio port is disconnected, until QEMU reconnects), the gadget is
        # unplugged, as QEMU detaches its emulated FTDI adapter in that mode.
        ( plugged=1
          while :; do
            host_connected $VPORT
            if [ "$connected" = 0 ] && [ $plugged = 1 ]; then echo > $G/UDC; plugged=0
            elif [ "$connected" = 1 ] && [ $plugged = 0 ]; then echo "$UDC" > $G/UDC; plugged=1
            fi
            pause 0.05
          done ) &
        # Bridge ttyGS<i> <-> its virtio port, one loop per direction: an unplug hangs up the
        # tty and a dropped simulator ends reads of the port, and each loop reopens what ended
        # (the port itself stays open on fd 6: it admits one opener).
        ( ( while :; do (stty raw -echo; exec cat <&6) <>/dev/ttyGS$i >&0; sleep 0.05; done ) &
          while :; do (stty raw -echo; exec cat >&6) <>/dev/ttyGS$i; sleep 0.05; done ) 6<>/dev/$VPORT &
        i=$((i + 1))
    done
    wait_for /dev/ttyACM$((DEVICES - 1)) ;;
ble)    # hci0: the controller is on the host (H4 over TCP) behind a virtio port; vhci-bridge
        # registers it with the kernel through /dev/vhci, waits until the kernel has set it up,
        # leaves it down (free for the HCI user channel) and bridges on in the background.
    modprobe virtio_pci; modprobe virtio_console; modprobe bluetooth; modprobe hci_vhci
    mount -t debugfs none /sys/kernel/debug
    wait_for /dev/vport0p1; wait_for /dev/vhci; wait_host vport0p1
    vhci-bridge /dev/vport0p1 > /dev/null || { echo "USBVM-ERROR no Bluetooth adapter"; finish 125; } ;;
esac

exec 7>/dev/ttyS1; stty -F /dev/ttyS1 raw -echo   # raw: no \n -> \r\n on stdout
cd /opt/test
echo "USBVM-RUN"
sh ./.run </dev/null >&7 9<&-
rc=$?
exec 7>&-                                      # last close waits until ttyS1 is drained
finish $rc

"""What every modelled USB device answers: descriptors, status and features (chapter 9)."""
import struct

TYPE_CONTROL, TYPE_BULK, TYPE_INTERRUPT = 0, 2, 3
SPEED_FULL = 1


def string_descriptor(text):
    data = text.encode("utf-16-le")
    return bytes([2 + len(data), 3]) + data


def endpoint_descriptor(address, kind, size, interval=0):
    return struct.pack("<BBBBHB", 7, 5, address, kind, size, interval)


class Device:
    """A chip model: subclasses set the fields below and answer their class or vendor requests.

    endpoints: address -> (type, interval, interface, max packet size); data_in and data_out
    are the serial data's bulk endpoints; interfaces: (number, class, subclass, protocol).
    """
    speed = SPEED_FULL
    usb_version = 0x0110
    control_packet = 64                        # endpoint 0's max packet size
    vid = pid = bcd = 0
    device_class = (0, 0, 0)
    interfaces = []
    endpoints = {}
    data_in = data_out = 0

    def __init__(self, serial, log):
        self.serial, self.log = serial, log
        self.reset()

    def reset(self):
        """Power-on state, at every plug-in and bus reset."""

    def descriptors(self):
        """(device descriptor, configuration descriptor, {string index: text})."""
        raise NotImplementedError

    def device_descriptor(self, manufacturer, product, serial):
        """String indexes (0: none) of the manufacturer, the product and the serial number."""
        return struct.pack("<BBHBBBBHHHBBBB", 18, 1, self.usb_version,
                           *self.device_class, self.control_packet, self.vid, self.pid, self.bcd,
                           manufacturer, product, serial, 1)

    @staticmethod
    def config_descriptor(interface_count, body):
        return struct.pack("<BBHBBBBB", 9, 2, 9 + len(body), interface_count, 1, 0, 0x80, 50) + body

    def uart_open(self):
        """Whether the chip passes serial data now (a CP210x drops it while disabled)."""
        return True

    def class_in(self, request, requesttype, value, index, length):
        """Data for a class or vendor IN request, or None to stall."""
        return None

    def class_out(self, request, requesttype, value, index, data):
        """True when a class or vendor OUT request is accepted."""
        return False

    def control_in(self, request, requesttype, value, index, length):
        if requesttype == 0x80 and request == 6:            # GET_DESCRIPTOR
            device, config, strings = self.descriptors()
            kind, n = value >> 8, value & 0xFF
            if kind == 1:
                return device
            if kind == 2 and n == 0:
                return config
            if kind == 3 and n == 0:
                return b"\x04\x03\x09\x04"                  # US English only
            if kind == 3 and n in strings:
                return string_descriptor(strings[n])
            return None                                     # no qualifier: full speed only
        if request == 0 and requesttype in (0x80, 0x81, 0x82):  # GET_STATUS
            return b"\x00\x00"
        if requesttype & 0x60:
            return self.class_in(request, requesttype, value, index, length)
        return None

    def control_out(self, request, requesttype, value, index, data):
        if requesttype & 0x60:
            return self.class_out(request, requesttype, value, index, data)
        # CLEAR_FEATURE / SET_FEATURE on the device or an endpoint (halt, remote wake-up)
        return requesttype in (0x00, 0x02) and request in (1, 3)

"""A native-USB board's CDC-ACM function (nRF52840, ESP32-S3, RP2040): 64-byte packets, an
interface association, and a vendor interface beside the CDC pair, as ESP32-S3 boards have."""
import struct

from device import Device, TYPE_BULK, TYPE_INTERRUPT, endpoint_descriptor

NOTIFY, DATA_OUT, DATA_IN, VENDOR_OUT, VENDOR_IN = 0x82, 0x01, 0x81, 0x02, 0x83


class CDCACM(Device):
    vid, pid, bcd, usb_version = 0x303A, 0x1001, 0x0100, 0x0200
    device_class = (0xEF, 0x02, 0x01)          # miscellaneous: interface associations
    interfaces = [(0, 0x02, 0x02, 0x00), (1, 0x0A, 0x00, 0x00), (2, 0xFF, 0xFF, 0x01)]
    # The vendor interface's pair is never answered: the drivers under test do not use it.
    endpoints = {NOTIFY: (TYPE_INTERRUPT, 1, 0, 64), DATA_OUT: (TYPE_BULK, 0, 1, 64),
                 DATA_IN: (TYPE_BULK, 0, 1, 64), VENDOR_OUT: (TYPE_BULK, 0, 2, 64),
                 VENDOR_IN: (TYPE_BULK, 0, 2, 64)}
    data_in, data_out = DATA_IN, DATA_OUT

    def reset(self):
        self.line_coding = struct.pack("<IBBB", 115200, 0, 0, 8)

    def descriptors(self):
        body = b"".join([
            bytes([8, 0x0B, 0, 2, 0x02, 0x02, 0x00, 0]),          # interfaces 0-1: one function
            bytes([9, 4, 0, 0, 1, 0x02, 0x02, 0x00, 4]),          # communications, ACM
            bytes([5, 0x24, 0x00, 0x10, 0x01]),                   # header, CDC 1.10
            bytes([5, 0x24, 0x01, 0x00, 1]),                      # call management
            bytes([4, 0x24, 0x02, 0x02]),                         # ACM: line coding and state
            bytes([5, 0x24, 0x06, 0, 1]),                         # union: 0 controls 1
            endpoint_descriptor(NOTIFY, TYPE_INTERRUPT, 64, 1),
            bytes([9, 4, 1, 0, 2, 0x0A, 0x00, 0x00, 5]),          # data
            endpoint_descriptor(DATA_OUT, TYPE_BULK, 64),
            endpoint_descriptor(DATA_IN, TYPE_BULK, 64),
            bytes([9, 4, 2, 0, 2, 0xFF, 0xFF, 0x01, 0]),          # vendor (a debug unit)
            endpoint_descriptor(VENDOR_OUT, TYPE_BULK, 64),
            endpoint_descriptor(VENDOR_IN, TYPE_BULK, 64),
        ])
        strings = {1: "Meshport test", 2: "CDC-ACM test radio (full speed)", 3: self.serial,
                   4: "Radio", 5: "Radio data"}
        return self.device_descriptor(1, 2, 3), self.config_descriptor(3, body), strings

    def class_in(self, request, requesttype, value, index, length):
        if requesttype == 0xA1 and request == 0x21 and index == 0:   # GET_LINE_CODING
            return self.line_coding
        return None

    def class_out(self, request, requesttype, value, index, data):
        if requesttype != 0x21 or index != 0:
            return False
        if request == 0x20 and len(data) == 7:                       # SET_LINE_CODING
            self.line_coding = data
            self.log("line coding %d baud, format %d, parity %d, %d bits" % struct.unpack("<IBBB", data))
            return True
        if request == 0x22:                                          # SET_CONTROL_LINE_STATE
            self.log(f"DTR {value & 1}, RTS {value >> 1 & 1}")
            return True
        return request == 0x23                                       # SEND_BREAK

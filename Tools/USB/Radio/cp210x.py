"""A Silicon Labs CP2102 (Heltec and LilyGO T-Beam boards): one vendor interface, 64-byte bulk
endpoints, and the interface requests of Silicon Labs' AN571. Serial data passes only while
the UART is enabled (IFC_ENABLE), as on the chip."""
import struct

from device import Device, TYPE_BULK, endpoint_descriptor

DATA_OUT, DATA_IN = 0x01, 0x81
IFC_ENABLE, SET_LINE_CTL, GET_LINE_CTL, SET_BREAK, SET_MHS, GET_MDMSTS = 0x00, 0x03, 0x04, 0x05, 0x07, 0x08
GET_COMM_STATUS, PURGE, SET_FLOW, GET_FLOW, EMBED_EVENTS = 0x10, 0x12, 0x13, 0x14, 0x15
SET_CHARS, GET_BAUDRATE, SET_BAUDRATE, VENDOR_SPECIFIC = 0x19, 0x1D, 0x1E, 0xFF
GET_PARTNUM, PARTNUM_CP2102 = 0x370B, 0x02


class CP210x(Device):
    vid, pid, bcd = 0x10C4, 0xEA60, 0x0100
    interfaces = [(0, 0xFF, 0x00, 0x00)]
    endpoints = {DATA_OUT: (TYPE_BULK, 0, 0, 64), DATA_IN: (TYPE_BULK, 0, 0, 64)}
    data_in, data_out = DATA_IN, DATA_OUT

    def reset(self):
        self.enabled = False
        self.baud = 9600
        self.line_ctl = 0x0800                 # 8 data bits, no parity, 1 stop bit
        self.mhs = 0
        self.flow = bytes(16)

    def uart_open(self):
        return self.enabled

    def descriptors(self):
        body = b"".join([bytes([9, 4, 0, 0, 2, 0xFF, 0x00, 0x00, 2]),
                         endpoint_descriptor(DATA_IN, TYPE_BULK, 64),
                         endpoint_descriptor(DATA_OUT, TYPE_BULK, 64)])
        strings = {1: "Silicon Labs", 2: "CP2102 USB to UART Bridge Controller", 3: self.serial}
        return self.device_descriptor(1, 2, 3), self.config_descriptor(1, body), strings

    def class_in(self, request, requesttype, value, index, length):
        if request == VENDOR_SPECIFIC and requesttype == 0xC0 and value == GET_PARTNUM:
            return bytes([PARTNUM_CP2102])         # a device request, unlike the others
        if requesttype != 0xC1 or index != 0:
            return None
        answers = {GET_LINE_CTL: struct.pack("<H", self.line_ctl),
                   GET_MDMSTS: bytes([self.mhs & 3 | 0x30]),         # DTR, RTS; CTS and DSR on
                   GET_COMM_STATUS: bytes(19),                      # no errors, queues empty
                   GET_FLOW: self.flow,
                   GET_BAUDRATE: struct.pack("<I", self.baud)}
        return answers.get(request)

    def class_out(self, request, requesttype, value, index, data):
        if requesttype != 0x41 or index != 0:
            return False
        if request == IFC_ENABLE:
            self.enabled = bool(value & 1)
            self.log(f"UART {'enabled' if self.enabled else 'disabled'}")
        elif request == SET_BAUDRATE and len(data) == 4:
            self.baud = struct.unpack("<I", data)[0]
            self.log(f"{self.baud} baud")
        elif request == SET_LINE_CTL:
            self.line_ctl = value
            self.log(f"line control {value:#06x}")
        elif request == SET_MHS:
            # the high byte masks which of DTR (bit 0) and RTS (bit 1) the low byte sets
            self.mhs = self.mhs & ~(value >> 8) | value & (value >> 8) & 3
            self.log(f"DTR {self.mhs & 1}, RTS {self.mhs >> 1 & 1}")
        elif request == SET_FLOW and len(data) == 16:
            self.flow = data
        elif request not in (SET_BREAK, PURGE, EMBED_EVENTS, SET_CHARS):
            return False
        return True

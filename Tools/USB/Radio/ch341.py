"""A WCH CH340 (LilyGO and ESP32 boards): one vendor interface, 32-byte bulk endpoints, an
interrupt endpoint for modem status, no serial number, and the vendor requests of the kernel's
ch341 driver (version, registers, serial init, modem control)."""
from device import Device, TYPE_BULK, TYPE_INTERRUPT, endpoint_descriptor

STATUS, DATA_IN, DATA_OUT = 0x81, 0x82, 0x02
READ_VERSION, READ_REGISTER, WRITE_REGISTER, SERIAL_INIT, MODEM_CONTROL = 0x5F, 0x95, 0x9A, 0xA1, 0xA4
VERSION = 0x31
PRESCALER, DIVISOR, LINE_CONTROL = 0x12, 0x13, 0x18


class CH341(Device):
    vid, pid, bcd = 0x1A86, 0x7523, 0x0263
    device_class = (0xFF, 0x00, 0x00)
    interfaces = [(0, 0xFF, 0x01, 0x02)]
    endpoints = {DATA_IN: (TYPE_BULK, 0, 0, 32), DATA_OUT: (TYPE_BULK, 0, 0, 32),
                 STATUS: (TYPE_INTERRUPT, 1, 0, 8)}
    data_in, data_out = DATA_IN, DATA_OUT
    control_packet = 8

    def reset(self):
        self.registers = {}
        self.modem = 0xFF                      # active low: DTR and RTS off

    def descriptors(self):
        body = b"".join([bytes([9, 4, 0, 0, 3, 0xFF, 0x01, 0x02, 0]),
                         endpoint_descriptor(DATA_IN, TYPE_BULK, 32),
                         endpoint_descriptor(DATA_OUT, TYPE_BULK, 32),
                         endpoint_descriptor(STATUS, TYPE_INTERRUPT, 8, 1)])
        return self.device_descriptor(0, 2, 0), self.config_descriptor(1, body), {2: "USB Serial"}

    def class_in(self, request, requesttype, value, index, length):
        if requesttype != 0xC0:
            return None
        if request == READ_VERSION:
            return bytes([VERSION, 0])
        if request == READ_REGISTER:             # two registers, named in value's two bytes
            return bytes([self.registers.get(value & 0xFF, 0), self.registers.get(value >> 8, 0)])
        return None

    def class_out(self, request, requesttype, value, index, data):
        if requesttype != 0x40:
            return False
        if request == WRITE_REGISTER:
            self.registers[value & 0xFF] = index & 0xFF
            self.registers[value >> 8] = index >> 8
            if value & 0xFF == PRESCALER:
                self.log(f"prescaler {index & 0xFF:#04x}, divisor {index >> 8:#04x}")
            elif value & 0xFF == LINE_CONTROL:
                self.log(f"line control {index & 0xFF:#04x}")
        elif request == MODEM_CONTROL:
            self.modem = value & 0xFF
            self.log(f"DTR {int(not self.modem & 0x20)}, RTS {int(not self.modem & 0x40)}")
        elif request != SERIAL_INIT:
            return False
        return True

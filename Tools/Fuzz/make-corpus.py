#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets that take binary inputs (Tools/Fuzz/README.md):
a few valid inputs each, laid out as each target reads its input. The codec's corpus, the
scenario files and the saved states have their own origins (README.md there).
Usage: Tools/Fuzz/make-corpus.py   (rewrites the seeds named here; regression seeds stay)
Needs `cryptography` (in .venv) to seal the group text as the firmware does.
"""
import hashlib
import hmac
import struct
from pathlib import Path

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

CORPUS = Path(__file__).resolve().parent / "corpus"
PUBLIC_CHANNEL = bytes.fromhex("8b3387e9c5cdea6ac9e5edbaa115cd72")
KEY = bytes(range(0x20, 0x40))
NUS = bytes.fromhex("6E400001B5A3F393E0A9E50E24DCCA9E")[::-1]
NUS_RX = bytes.fromhex("6E400002B5A3F393E0A9E50E24DCCA9E")[::-1]
NUS_TX = bytes.fromhex("6E400003B5A3F393E0A9E50E24DCCA9E")[::-1]


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.bin").write_bytes(data)


def header(route, payload_type):
    return bytes([payload_type << 2 | route])


def seal(plain, secret):
    """AES-128 (ECB, zero padded) under the secret's first 16 bytes, then a 2-byte HMAC-SHA256
    (keyed with the 32-byte secret, the 16-byte one zero padded) over the ciphertext."""
    plain += bytes(-len(plain) % 16)
    encryptor = Cipher(algorithms.AES(secret[:16]), modes.ECB()).encryptor()
    ciphertext = encryptor.update(plain) + encryptor.finalize()
    mac = hmac.new(secret.ljust(32, b"\0"), ciphertext, hashlib.sha256).digest()[:2]
    return mac + ciphertext


def air():
    app = bytes([0x91]) + struct.pack("<ii", 52_370_000, 4_890_000) + b"Fuzz Node"
    write("air", "advert-flood", header(1, 4) + b"\x00" + KEY + struct.pack("<I", 1_800_000_000) + bytes(64) + app)
    write("air", "advert-transport", header(0, 4) + b"\x01\x02\x03\x04" + b"\x02\xaa\xbb" + KEY + bytes(4) + bytes(64) + b"\x02")
    channel_hash = hashlib.sha256(PUBLIC_CHANNEL).digest()[:1]
    text = struct.pack("<I", 1_800_000_000) + b"\x00" + b"Alice: hello mesh"
    write("air", "group-text", header(1, 5) + b"\x00" + channel_hash + seal(text, PUBLIC_CHANNEL))
    write("air", "text-direct", header(2, 2) + b"\x02\x11\x22" + b"\x33\x44" + bytes(18))
    write("air", "path-return", header(1, 8) + b"\x01\x55" + b"\x33\x44" + bytes(34))
    write("air", "ack", header(1, 3) + b"\x00" + b"\xde\xad\xbe\xef")
    write("air", "trace", header(2, 9) + b"\x03\x10\x20\x30" + struct.pack("<II", 0x1234, 0) + b"\x00\x10\x20\x30")
    write("air", "anon-request", header(1, 7) + b"\x00" + b"\x7a" + KEY + bytes(18))
    write("air", "returned-path-plain", header(1, 8) + b"\x00" + b"\x02\x11\x22\x03\xde\xad\xbe\xef")


def chunks(*parts):
    """The H4, ATT and SMP targets read length-prefixed chunks."""
    return b"".join(bytes([len(p)]) + p for p in parts)


def acl(handle, boundary, data):
    return b"\x02" + struct.pack("<HH", handle | boundary << 12, len(data)) + data


def l2cap(cid, payload):
    return struct.pack("<HH", len(payload), cid) + payload


def event(code, parameters):
    return bytes([0x04, code, len(parameters)]) + parameters


def hci():
    address = bytes([1, 0, 0, 0, 0, 0xF0])
    connection = event(0x3E, bytes([0x01, 0x00, 0x40, 0x00, 0x00, 0x01]) + address + struct.pack("<HHH", 24, 0, 200))
    report = event(0x3E, bytes([0x02, 0x01, 0x00, 0x01]) + address + bytes([3, 2, 1, 6, 0xC4]))
    write("hci", "events", chunks(event(0x0E, b"\x01\x03\x0c\x00"), event(0x0F, b"\x00\x01\x05\x20"), connection, report,
                                  event(0x13, b"\x01\x40\x00\x02\x00"), event(0x05, b"\x00\x40\x00\x13"),
                                  event(0x08, b"\x00\x40\x00\x01")))
    update = l2cap(5, bytes([0x12, 0x01, 0x08, 0x00]) + struct.pack("<HHHH", 24, 40, 0, 400))
    att = l2cap(4, bytes([0x1B, 0x12, 0x00]) + b"\x3e\x05\x00hello")
    smp = l2cap(6, bytes([0x02, 0x00, 0x00, 0x0D, 0x10, 0x03, 0x03]))
    write("hci", "acl", chunks(acl(0x40, 2, update), acl(0x40, 2, att), acl(0x40, 2, smp)))
    # One ATT notification in three fragments, the L2CAP header itself split.
    frame = l2cap(4, bytes([0x1B, 0x12, 0x00]) + bytes(range(40)))
    write("hci", "acl-fragments", chunks(acl(0x40, 2, frame[:3]), acl(0x40, 1, frame[3:20]), acl(0x40, 1, frame[20:])))


def att():
    def characteristic(handle, properties, value, uuid):
        return struct.pack("<H", handle) + bytes([properties]) + struct.pack("<H", value) + uuid
    write("att", "discovery", chunks(
        b"\x03\xb9\x00",                                              # Exchange MTU Response, 185
        b"\x07\x0e\x00\x13\x00",                                      # Find By Type Value: NUS 0x0E-0x13
        b"\x09\x15" + characteristic(0x0F, 0x0C, 0x10, NUS_RX),       # Read By Type: RX
        b"\x09\x15" + characteristic(0x11, 0x12, 0x12, NUS_TX),       # Read By Type: TX
        b"\x01\x08\x13\x00\x0a",                                      # Error Response: Attribute Not Found
        b"\x01\x04\x11\x00\x0a",                                      # RX has no descriptors
        b"\x0b\x01\x02",                                              # Read Response
        b"\x13",                                                      # Write Response
        b"\x05\x01\x13\x00\x02\x29",                                  # Find Information: CCCD
        b"\x1b\x12\x00\x3e\x00",                                      # a notification
        b"\x0b\x00",
        b"\x13"))
    write("att", "server-requests", chunks(b"\x02\x17\x00", b"\x1d\x12\x00\x01", b"\x0a\x01\x00", b"\x03\x17\x00",
                                           b"\x01\x06\x01\x00\x0a", b"\x05\x02\x13\x00" + NUS))
    write("att", "errors", chunks(b"\x01\x02\x00\x00\x06", b"\x01\x06\x01\x00\x05"))


def smp():
    nonces = bytes(range(32))
    step = lambda pdu: b"\x00" + chunks(pdu)
    sc = step(bytes([0x02, 0x00, 0x00, 0x0D, 0x10, 0x02, 0x03])) + step(b"\x0c" + bytes(range(64))) + step(b"\x03" + bytes(16))
    write("smp", "secure-connections", b"\x00" + nonces + sc + step(b"\x04" + bytes(16)))
    legacy = (step(bytes([0x02, 0x00, 0x00, 0x05, 0x10, 0x03, 0x03])) + step(b"\x03" + bytes(16)) + step(b"\x04" + bytes(16))
              + b"\xe0" + step(b"\x06" + bytes(16)) + step(b"\x07" + bytes(10)) + step(b"\x08" + bytes(16))
              + step(b"\x09\x01" + bytes([1, 0, 0, 0, 0, 0xF0])))
    write("smp", "legacy", b"\x01" + nonces + legacy)
    write("smp", "refusals", b"\x00" + nonces + step(b"\x0b\x0d") + step(b"\x05\x04"))
    write("smp", "just-works", b"\x00" + nonces + step(bytes([0x02, 0x03, 0x00, 0x09, 0x10, 0x00, 0x00])))


def usb():
    def interface(number, cls, subclass, endpoints):
        return bytes([number, cls, subclass, len(endpoints)]) + b"".join(bytes([a, t]) + struct.pack("<H", m) for a, t, m in endpoints)
    vendor = b"\x01" + interface(0, 0xFF, 0, [(0x81, 2, 64), (0x02, 2, 64)])
    line = b"\x0f" + struct.pack("<I", 115200) + b"\x01"
    bulk = b"\x01\x60" + b">\x05\x00hello" + b"\x01\x60"
    write("usb", "ftdi", b"\x00" + vendor + b"\x00\x06\x00" + line + b"\x04\x05\x05\x05\x05" + bulk)
    write("usb", "ftdi-2232h", b"\x00" + b"\x02" + interface(0, 0xFF, 0, [(0x81, 2, 512), (0x02, 2, 512)])
          + interface(1, 0xFF, 0, [(0x83, 2, 512), (0x04, 2, 512)]) + b"\x00\x07\x01" + line + b"\x00" + bulk)
    write("usb", "cp210x", b"\x01" + vendor + line + b"\x06\x05\x05\x05\x05\x05\x00" + b"hello")
    write("usb", "ch34x", b"\x02" + vendor + line + b"\x04\x32\x00\x05\x05" + b"hello")
    acm = b"\x02" + interface(0, 0x02, 0x02, [(0x83, 3, 8)]) + interface(1, 0x0A, 0, [(0x81, 2, 64), (0x02, 2, 64)])
    write("usb", "cdc-acm", b"\x03" + acm + line + b"\x02\x00\x05" + b"hello")


def ingest():
    key = KEY.hex().upper()
    topic = f"meshcore/AMS/{key}/"
    packet = ('{"origin":"Roof","origin_id":"%s","timestamp":"2026-09-21T14:13:20Z","type":"PACKET","direction":"rx",'
              '"time":"14:13:20","date":"21/9/2026","len":"10","packet_type":"2","route":"D","payload_len":"6",'
              '"raw":"0A00112233445566","SNR":"7.5","RSSI":"-92","score":"1000","duration":"120","hash":"164D94FF1BF7EBC0"}') % key
    write("ingest", "packet", (topic + "packets\n" + packet).encode())
    status = ('{"status":"online","timestamp":"2026-09-21T14:13:20Z","origin":"Roof","origin_id":"%s","radio":"869.618,62.5,8,8",'
              '"model":"Heltec V3","firmware_version":"v1.17.1","client_version":"meshport","stats":{"battery_mv":4100,'
              '"uptime_secs":3600,"noise_floor":-110}}') % key
    write("ingest", "status", (topic + "status\n" + status).encode())
    write("ingest", "offline", (topic + "status\n" + '{"status":"offline","origin_id":"%s","timestamp":"2026-09-21T14:13:20Z"}' % key).encode())
    advert = (header(1, 4) + b"\x00" + KEY + struct.pack("<I", 1_800_000_000) + bytes(64) + b"\x81Node").hex()
    write("ingest", "advert", (topic + "packets\n" + '{"origin_id":"%s","timestamp":"2026-09-21T14:13:20Z","raw":"%s"}' % (key, advert)).encode())


if __name__ == "__main__":
    air()
    hci()
    att()
    smp()
    usb()
    ingest()

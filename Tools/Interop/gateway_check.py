#!/usr/bin/env python3
"""Checks Meshport's gateway output with the reference tools (Docs/gateway.md).

    .venv/bin/python Tools/Interop/gateway_check.py packets < cases.json
        cases.json: [{"frame": hex LOG_RX_DATA frame (0x88 ...), "epoch": seconds, "message": {...}}]
        The reference client `meshcore` parses each frame; its SNR, RSSI, bytes, type, route
        and path must be what the message says, the hash must follow the firmware's rule
        (computed here with hashlib) and the times must be Python's spellings of `epoch`.
    .venv/bin/python Tools/Interop/gateway_check.py token < "TOKEN PUBLIC_KEY_HEX"
        The JWT's header and claims, and its Ed25519 signature checked with `cryptography`.

Prints one line per problem and a last line "N checked, M failed"; exits 1 on any problem.
"""
import asyncio
import base64
import hashlib
import json
import sys
from datetime import datetime, timezone

ROUTE_LETTERS = {0: "F", 1: "F", 2: "D", 3: "T"}  # the companion tool's letters by route type


class Catcher:
    """Stands in for meshcore's dispatcher: keeps what the reader dispatches."""

    def __init__(self):
        self.events = []

    async def dispatch(self, event):
        self.events.append(event)


def firmware_hash(raw: bytes, payload_type: int, path_len_byte: int, payload: bytes) -> str:
    sha = hashlib.sha256(bytes([payload_type]))
    if payload_type == 9:
        sha.update(path_len_byte.to_bytes(2, "little"))
    sha.update(payload)
    return sha.hexdigest()[:16].upper()


async def check_packets(cases):
    from meshcore.events import EventType
    from meshcore.reader import MessageReader

    problems = []
    for n, case in enumerate(cases):
        catcher = Catcher()
        await MessageReader(catcher).handle_rx(bytearray(bytes.fromhex(case["frame"])))
        logs = [e.payload for e in catcher.events if e.type == EventType.RX_LOG_DATA]
        if len(logs) != 1:
            problems.append(f"case {n}: meshcore gave {len(logs)} RX_LOG_DATA events")
            continue
        log, msg = logs[0], case["message"]
        raw = bytes.fromhex(log["payload"])
        path_len_byte = raw[5 if log["route_type"] in (0, 3) else 1]
        hop = log["path_hash_size"] * 2
        hops = ",".join(log["path"][i:i + hop] for i in range(0, len(log["path"]), hop))
        when = datetime.fromtimestamp(case["epoch"], timezone.utc)
        expected = {
            "SNR": str(log["snr"]), "RSSI": str(log["rssi"]), "raw": log["payload"].upper(),
            "len": str(log["payload_length"]), "packet_type": str(log["payload_type"]),
            "route": ROUTE_LETTERS[log["route_type"]], "payload_len": str(len(log["pkt_payload"])),
            "hash": firmware_hash(raw, log["payload_type"], path_len_byte, log["pkt_payload"]),
            "timestamp": when.isoformat(), "time": when.strftime("%H:%M:%S"), "date": when.strftime("%d/%m/%Y"),
            "type": "PACKET", "direction": "rx",
        }
        if expected["route"] == "D":
            expected["path"] = hops
        for key, value in expected.items():
            if msg.get(key) != value:
                problems.append(f"case {n}: {key} is {msg.get(key)!r}, the reference gives {value!r}")
        extra = set(msg) - set(expected) - {"origin", "origin_id"}
        if extra:
            problems.append(f"case {n}: fields the tools do not send: {sorted(extra)}")
    return len(cases), problems


def unpadded(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def check_token(text: str):
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    token, key_hex = text.split()
    problems = []
    header_part, claims_part, signature_hex = token.split(".")
    header, claims = json.loads(unpadded(header_part)), json.loads(unpadded(claims_part))
    if header != {"alg": "Ed25519", "typ": "JWT"}:
        problems.append(f"header {header}")
    if list(claims) != ["publicKey", "iat", "exp", "aud"]:
        problems.append(f"claims {list(claims)}")
    if claims.get("publicKey") != key_hex.upper():
        problems.append(f"publicKey {claims.get('publicKey')} is not the radio's {key_hex.upper()}")
    if signature_hex != signature_hex.upper() or len(signature_hex) != 128:
        problems.append(f"signature {signature_hex!r} is not 64 bytes in upper-case hex")
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key_hex)).verify(
            bytes.fromhex(signature_hex), f"{header_part}.{claims_part}".encode())
    except InvalidSignature:
        problems.append("the signature does not verify against the radio's public key")
    return 1, problems


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "packets":
        checked, problems = asyncio.run(check_packets(json.load(sys.stdin)))
    elif mode == "token":
        checked, problems = check_token(sys.stdin.read())
    else:
        sys.exit(__doc__)
    for problem in problems:
        print(problem)
    print(f"{checked} checked, {len(problems)} failed")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A USB serial radio outside the QEMU guest, attached to it over usbredir.

QEMU's `usb-redir` device connects to this program, which plays the USB device (the role
`usbredirserver` plays for a real one) and carries the serial data to a TCP server
(`meshport sim`). Its work runs on the host, as a real radio's runs on the radio, so none of it
competes with the guest's CPU. When the server drops the link (a radio that resets), the device
is unplugged from the guest, and plugged in again once the server accepts a new connection
(retried every second).

    radio.py --chip cdc-acm|cp210x|ch341 --server PORT [--serial S] [--listen PORT] [-v]

Prints "radio: listening on PORT" once QEMU may connect. Standard library only.
"""
import argparse
import asyncio
import sys

from cdc_acm import CDCACM
from ch341 import CH341
from cp210x import CP210x
from usbredir import serve

CHIPS = {"cdc-acm": CDCACM, "cp210x": CP210x, "ch341": CH341}


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chip", choices=sorted(CHIPS), required=True)
    parser.add_argument("--server", type=int, required=True, help="TCP port of the server")
    parser.add_argument("--serial", default="TEST0001", help="serial number (not on a CH340)")
    parser.add_argument("--listen", type=int, default=0, help="port QEMU connects to (0: any)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log requests and state")
    args = parser.parse_args()

    def log(text):
        if args.verbose:
            print(f"radio {args.chip} {args.serial}: {text}", file=sys.stderr, flush=True)

    async def connected(reader, writer):
        await serve(CHIPS[args.chip](args.serial, log), args.server, reader, writer, log)

    server = await asyncio.start_server(connected, "127.0.0.1", args.listen)
    print(f"radio: listening on {server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass

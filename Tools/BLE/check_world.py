#!/usr/bin/env python3
"""
Self-check of the emulated BLE world (world.py) with Bumble's own host, bridged to a
real `meshport sim`: the world must carry companion frames both ways, honour the
sim's link-loss hook, and do what its controls say. A test peer that is wrong makes
every test built on it worthless; this checks the peer.

Usage: .venv/bin/python Tools/BLE/check_world.py PATH/TO/meshport
Prints PASS/FAIL per check and ends with "N passed, M failed" (exit status 1 on failures).
"""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

from bumble import hci

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nus_central import (APP_START, CURR_TIME, DEVICE_INFO, DEVICE_QUERY,  # noqa: E402
                         GET_DEVICE_TIME, SELF_INFO, Central)

HERE = os.path.dirname(os.path.abspath(__file__))
RADIO = 'F0:00:00:00:00:01'
# Conformance hooks the sim answers (Modules/MeshConformanceCommands/ConformanceCommand.swift).
ECHO, GARBAGE_THEN_ECHO, DROP_MID_FRAME = 0x7E, 0x7D, 0x7C
CONNECTION_TIMEOUT = hci.HCI_ErrorCode.CONNECTION_TIMEOUT_ERROR
PIN_OR_KEY_MISSING = hci.HCI_ErrorCode.PIN_OR_KEY_MISSING_ERROR


def start_line(process, what, seconds=30) -> str:
    """The first stdout line of a child, bounded."""
    deadline = time.monotonic() + seconds
    os.set_blocking(process.stdout.fileno(), False)
    buf = b''
    while b'\n' not in buf:
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            sys.exit(f'{what} did not start: {buf!r}')
        chunk = process.stdout.read()
        if chunk:
            buf += chunk
        else:
            time.sleep(0.02)
    os.set_blocking(process.stdout.fileno(), True)
    return buf.split(b'\n', 1)[0].decode()


class Sim:
    def __init__(self, meshport: str):
        self.process = subprocess.Popen([meshport, 'sim', '--listen', 'tcp://127.0.0.1:0'],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        # "meshport sim: listening on tcp://127.0.0.1:PORT"
        self.address = start_line(self.process, 'meshport sim').split()[4]
        self.port = int(self.address.rsplit(':', 1)[1])

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


class World:
    def __init__(self, *args: str):
        self.log = open(os.path.join(os.environ.get('TMPDIR', '/tmp'),
                                     f'meshport-ble-check-{os.getpid()}.log'), 'w+')
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, 'world.py'), '--port', '0',
             '--control', 'stdin', *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)
        ready = start_line(self.process, 'world.py')
        self.fields = dict(w.split('=', 1) for w in ready.split()[2:])
        self.hci = 'tcp-client:' + self.fields['transport'].split(':', 1)[1]

    async def control(self, command: str) -> str:
        """One command, one reply line."""
        self.process.stdin.write(command.encode() + b'\n')
        self.process.stdin.flush()
        return (await asyncio.to_thread(self.process.stdout.readline)).decode().strip()

    def tail(self, n=15) -> str:
        self.log.flush()
        self.log.seek(0)
        return ''.join(self.log.readlines()[-n:])

    def stop(self):
        self.process.stdin.close()  # the world stops when its stdin closes
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.unlink(self.log.name)


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    async def run(self, name, body, world=None):
        try:
            await asyncio.wait_for(body(), 30)
            print(f'PASS {name}')
            self.passed += 1
        except Exception as e:
            print(f'FAIL {name}: {type(e).__name__}: {e}')
            if world is not None:
                print(world.tail())
            self.failed += 1


def drain(link) -> list[bytes]:
    """The frames received and not yet read."""
    frames = []
    while not link.frames.empty():
        frames.append(link.frames.get_nowait())
    return frames


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


async def main(meshport: str) -> int:
    checks = Checks()
    sim = Sim(meshport)
    world = World('--bridge', f'127.0.0.1:{sim.port}', '--drop-on-bridge-close',
                  '--peripherals', '3', '--noise')
    central = Central()
    state = {}
    try:
        await central.open(world.hci)

        async def ready_line():
            expect(world.fields['peripherals'] == f'{RADIO},F0:00:00:00:00:02,F0:00:00:00:00:03',
                   world.fields)
            expect(world.fields['names'] == 'MeshCore-TEST,MeshCore-TEST-2,MeshCore-TEST-3',
                   world.fields)
            expect(world.fields['noise'] == 'F1:00:00:00:00:99', world.fields)
            expect(world.fields['mode'] == f'bridge:127.0.0.1:{sim.port}', world.fields)
            expect(int(world.fields['transport'].rsplit(':', 1)[1]) > 0, world.fields)

        async def pair_then_app_start():
            link = await central.link(RADIO, pair=True)
            state['link'] = link
            reply = await link.request(APP_START, SELF_INFO)
            expect(len(reply) > 40, f'SELF_INFO of {len(reply)} bytes')
            expect(central.delegate.asked == 1, 'passkey asked once')

        async def requests_round_trip():
            link = state['link']
            expect(len(await link.request(DEVICE_QUERY, DEVICE_INFO)) > 60, 'DEVICE_INFO')
            expect(len(await link.request(GET_DEVICE_TIME, CURR_TIME)) == 5, 'CURR_TIME')

        async def large_and_garbled_frames():
            link = state['link']
            big = bytes([ECHO]) + bytes(range(175))  # the largest frame (MAX_FRAME_SIZE 176)
            expect(await link.request(big, ECHO) == big, '176-byte echo')
            expect(await link.request(bytes([GARBAGE_THEN_ECHO]), GARBAGE_THEN_ECHO)
                   == bytes([GARBAGE_THEN_ECHO]), 'echo after garbage')

        async def sim_drop_is_link_loss():
            link = state['link']
            await link.send(bytes([DROP_MID_FRAME]))
            reason = await link.wait_gone()
            expect(reason == CONNECTION_TIMEOUT, f'reason 0x{reason:02X}')
            # (The sim may push frames of its own meanwhile; the cut frame is the 7E one.)
            expect(not any(f[:1] == bytes([ECHO]) for f in drain(link)),
                   'no part of the cut frame was notified')

        async def bonded_reconnect_opens_a_fresh_bridge():
            link = await central.link(RADIO, pair=False)  # the bond encrypts
            expect(len(await link.request(APP_START, SELF_INFO)) > 40, 'SELF_INFO again')
            expect(central.delegate.asked == 1, 'no second passkey')
            status = await world.control('status 1')
            expect('links=1 bonds=1 bridges=1' in status, status)
            state['link'] = link

        async def drop_control():
            link = state['link']
            reply = await world.control('drop 1 0x15')
            expect(reply == f'OK drop {RADIO} links=1 reason=0x15', reply)
            reason = await link.wait_gone()
            expect(reason == 0x15, f'reason 0x{reason:02X}')

        async def lose_control():
            link = await central.link(RADIO, pair=False)
            reply = await world.control('lose')
            expect(reply == f'OK lose {RADIO} links=1 reason=0x08', reply)
            expect(await link.wait_gone() == CONNECTION_TIMEOUT, 'link loss')

        async def cut_notify_control():
            link = await central.link(RADIO, pair=False)
            reply = await world.control('cut 1 notify')
            expect(reply == f'OK cut {RADIO} notify armed', reply)
            await link.send(APP_START)  # SELF_INFO needs 3 ACL fragments
            expect(await link.wait_gone() == CONNECTION_TIMEOUT, 'link loss')
            expect(not any(f[:1] == bytes([SELF_INFO]) for f in drain(link)),
                   'the cut notification was not delivered')

        async def cut_write_control():
            # Bumble's host sends whole PDUs to a controller that takes 27-byte
            # fragments only if it fragments: it does (LE_Read_Buffer_Size).
            link = await central.link(RADIO, pair=False)
            reply = await world.control('cut 1 write')
            expect(reply == f'OK cut {RADIO} write armed', reply)
            await link.send(bytes([ECHO]) + bytes(100))
            expect(await link.wait_gone() == CONNECTION_TIMEOUT, 'link loss')

        async def forget_control():
            reply = await world.control('forget 1')
            expect(reply == f'OK forget {RADIO} bonds=1', reply)
            try:
                await central.link(RADIO, pair=False)
                raise AssertionError('encrypted with a bond the radio forgot')
            except hci.HCI_Error as e:
                expect(e.error_code == PIN_OR_KEY_MISSING, f'error {e}')
            # Pairing again works and the radio keeps the new bond.
            link = await central.link(RADIO, pair=True)
            expect(len(await link.request(APP_START, SELF_INFO)) > 40, 'SELF_INFO')
            await link.close()
            await link.wait_gone()

        async def other_radios_bridge_too():
            link = await central.link('F0:00:00:00:00:03', pair=True)
            expect(len(await link.request(APP_START, SELF_INFO)) > 40, 'SELF_INFO via radio 3')
            await link.close()
            await link.wait_gone()

        async def bad_controls_answer_err():
            for command, start in [('status 7', 'ERR status no peripheral'),
                                   ('cut 2', 'ERR cut F0:00:00:00:00:02 is not connected'),
                                   ('cut 1 sideways', 'ERR cut'),
                                   ('jump', 'ERR jump unknown command')]:
                reply = await world.control(command)
                expect(reply.startswith(start), f'{command!r} -> {reply!r}')

        for name, body in [
            ('READY line names the port, radios, noise and bridge', ready_line),
            ('SC passkey pairing, then APP_START -> SELF_INFO through the sim', pair_then_app_start),
            ('DEVICE_QUERY and GET_DEVICE_TIME answered', requests_round_trip),
            ('176-byte frame and garbage on the bridge', large_and_garbled_frames),
            ('sim drops mid-frame: BLE link loss (0x08)', sim_drop_is_link_loss),
            ('bonded reconnect opens a fresh bridge connection', bonded_reconnect_opens_a_fresh_bridge),
            ('control drop: the radio terminates with the given reason', drop_control),
            ('control lose: link loss', lose_control),
            ('control cut notify: first fragment only, then link loss', cut_notify_control),
            ('control cut write: host PDU cut, link loss', cut_write_control),
            ('control forget: PIN or Key Missing, then pairing again', forget_control),
            ('radio 3 bridges too', other_radios_bridge_too),
            ('bad controls answer ERR', bad_controls_answer_err),
        ]:
            await checks.run(name, body, world)
    finally:
        await central.close()
        world.stop()
        sim.stop()
    print(f'{checks.passed} passed, {checks.failed} failed')
    return 1 if checks.failed else 0


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(asyncio.run(main(sys.argv[1])))

#!/usr/bin/env python3
"""Checks the layer rules of Docs/architecture.md: what each shipped module may depend on,
both as declared in Package.swift and as imported by its sources.

Every target under Modules/ and Plugins/ must have a rule below; a new module fails the
check until it is given its layer. Prints one PASS/FAIL line per module and ends with
"N passed, M failed" (Tools/test-all.sh adds it to the totals).
Usage: Tools/Layers/check-layers.py
"""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What any module but the codec may import from the platform.
SYSTEM = {"Foundation", "FoundationEssentials", "Glibc", "Dispatch", "Synchronization"}
# The driver side of the ABI: what a driver may build on.
DRIVER_KIT = {"MeshDriverABI", "MeshDriverKit", "MeshTransportURL"}

# module -> (layer, project modules it may use, other modules it may use)
RULES = {
    # Codec: pure values and parsing, no I/O, nothing of the project.
    "MeshCodec": ("codec", set(), set()),
    "MeshConformanceCommands": ("codec", set(), set()),
    "MeshCrypto": ("crypto", set(), {"Crypto", "_CryptoExtras"}),
    # JSON written into bytes: values only, nothing of the project, no Foundation.
    "MeshJSON": ("codec", set(), set()),
    # The driver ABI and the kit driver authors build on.
    "MeshDriverABI": ("driver ABI", set(), set()),
    "MeshTransportURL": ("driver ABI", set(), SYSTEM),
    "MeshDriverKit": ("driver kit", {"MeshDriverABI", "MeshTransportURL"}, SYSTEM),
    # Drivers: only the driver kit and the ABI, plus the host stack each one wraps.
    "MeshportDriverTCP": ("driver", DRIVER_KIT, SYSTEM),
    "MeshSerial": ("driver", DRIVER_KIT, SYSTEM),
    "MeshportDriverSerial": ("driver", DRIVER_KIT | {"MeshSerial"}, SYSTEM),
    "MeshUSB": ("driver", DRIVER_KIT | {"CLibUSB", "CUSBFS"}, SYSTEM),
    "MeshportDriverUSB": ("driver", DRIVER_KIT | {"MeshUSB"}, SYSTEM),
    "MeshBLE": ("driver", {"CBluetooth"}, SYSTEM | {"Crypto", "_CryptoExtras"}),
    "MeshportDriverBLE": ("driver", DRIVER_KIT | {"MeshBLE", "CBluetooth"}, SYSTEM),
    "MeshportExampleLoopback": ("driver", {"MeshDriverABI"}, set()),
    "CBluetooth": ("system library", set(), set()),
    "CLibUSB": ("system library", set(), set()),
    "CUSBFS": ("system library", set(), set()),
    # MQTT: a broker client on Paho; nothing of the project, so any layer above may use it.
    "CPahoMQTT": ("system library", set(), set()),
    "MeshMQTT": ("mqtt", {"CPahoMQTT"}, SYSTEM | {"Logging"}),
    # Transport: the host side of the ABI; no services, no store.
    "MeshTransport": ("transport", {"MeshCodec", "MeshDriverABI", "MeshTransportURL"}, SYSTEM | {"Logging"}),
    # Store: no transport, no services.
    "MeshStore": ("store", {"MeshCodec"}, SYSTEM | {"GRDB", "GRDBSQLite"}),
    # Simulator: a radio and its mesh; no services, no store, no transport.
    "MeshSim": ("simulator", {"MeshCodec", "MeshCrypto", "MeshConformanceCommands"}, SYSTEM),
    "MeshSimServe": ("simulator", {"MeshSim", "MeshCodec", "MeshConformanceCommands", "MeshDriverKit"}, SYSTEM),
    # The conformance suite drives a transport; it knows no simulator and no services.
    "MeshConformance": ("conformance", {"MeshCodec", "MeshTransport", "MeshTransportURL", "MeshConformanceCommands"}, SYSTEM),
    # Services: sessions and domain logic; no front end.
    "MeshServices": ("services", {"MeshCodec", "MeshCrypto", "MeshTransport", "MeshTransportURL", "MeshStore"}, SYSTEM | {"Logging"}),
    # Gateway mode: the community uplink format; services-level, no MQTT.
    "MeshGateway": ("services", {"MeshCodec", "MeshCrypto", "MeshServices", "MeshStore", "MeshJSON"}, SYSTEM),
    # The gateway uplink: services, the community format and the MQTT client together.
    "MeshUplink": ("uplink", {"MeshCodec", "MeshServices", "MeshGateway", "MeshMQTT"}, SYSTEM | {"Logging"}),
    # Region history: the records of a region and their PostgreSQL store; no services, no MQTT.
    "MeshRegion": ("region", set(), SYSTEM | {"PostgresNIO", "Logging", "NIOCore", "NIOSSL", "Crypto"}),
    # Ingest workers: the community topics from a broker into region records; the MQTT client
    # and the community format, no services.
    "MeshIngest": ("ingest", {"MeshCodec", "MeshCrypto", "MeshGateway", "MeshMQTT", "MeshRegion"}, SYSTEM | {"Logging"}),
    # Front ends.
    "MeshportServer": ("front end", {"MeshCodec", "MeshCrypto", "MeshStore", "MeshServices", "MeshTransport", "MeshTransportURL",
                                     "MeshUplink", "MeshMQTT", "MeshRegion", "MeshJSON"},
                       SYSTEM | {"Hummingbird", "HummingbirdCore", "HummingbirdWebSocket", "ServiceLifecycle", "NIOCore",
                                 "NIOPosix", "NIOWebSocket", "NIOHTTP1", "Logging", "HTTPTypes", "Metrics", "Prometheus"}),
    "MeshportCLI": ("front end", None, SYSTEM | {"ArgumentParser", "TOMLKit", "Logging"}),
    "meshport": ("front end", {"MeshportCLI"}, set()),
}
# The CLI may use any shipped module, but never test support.
TEST_ONLY = {"MeshportTestSupport"}

IMPORT = re.compile(r"^\s*(?:@testable\s+|@_implementationOnly\s+|(?:public|internal|package)\s+)?import\s+(?:(?:struct|class|enum|func|protocol)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def shipped_targets():
    dump = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                                     capture_output=True, text=True).stdout)
    for target in dump["targets"]:
        path = target.get("path") or ""
        if target["type"] in ("test",) or not path.startswith(("Modules/", "Plugins/")):
            continue
        deps = set()
        for dep in target["dependencies"]:
            kind, value = next(iter(dep.items()))
            deps.add(value[0])
        yield target["name"], path, deps


def imports(path):
    found = {}
    for source in sorted((ROOT / path).rglob("*.swift")):
        for match in IMPORT.finditer(source.read_text(encoding="utf-8")):
            line = source.read_text(encoding="utf-8").count("\n", 0, match.start()) + 1
            found.setdefault(match.group(1), f"{source.relative_to(ROOT)}:{line}")
    return found


def check(name, path, deps):
    rule = RULES.get(name)
    if rule is None:
        return [f"{name} ({path}) has no layer: give it one in Tools/Layers/check-layers.py and Docs/architecture.md"]
    layer, project, other = rule
    problems = []
    project_names = set(RULES) | TEST_ONLY
    for dep in sorted(deps):
        allowed = (dep not in TEST_ONLY) if project is None else (dep in project or dep in other)
        if not allowed:
            problems.append(f"Package.swift: {name} ({layer}) depends on {dep}, which its layer may not use")
    for module, where in sorted(imports(path).items()):
        if module == name:
            continue
        if module in project_names:
            allowed = (module not in TEST_ONLY) if project is None else module in project
        else:
            allowed = module in other or (project is None and module in deps)
        if not allowed:
            problems.append(f"{where}: {name} ({layer}) imports {module}, which its layer may not use")
    return problems


def main():
    passed = failed = 0
    for name, path, deps in shipped_targets():
        problems = check(name, path, deps)
        if problems:
            failed += 1
            print(f"FAIL {name}")
            for p in problems:
                print(f"  {p}")
        else:
            passed += 1
            print(f"PASS {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

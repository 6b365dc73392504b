# Meshport. `make run` runs the main job, `make test` runs every test.
# Both install what they need first (apt packages, the Python venv for test peers).

SHELL := /bin/bash
SWIFT ?= swift
PY := .venv/bin/python
# Seconds each fuzz target runs in `make test` and `make fuzz`; FUZZ_SECONDS bounds each in the
# long run of `make fuzz-long` and `make reliability` (which also stop at 10 million executions;
# on two cores the whole long run takes hours, Tools/Fuzz/README.md).
SECONDS ?= 10
FUZZ_SECONDS ?= 3600
# At most 32 Swift tests run at once. Swift concurrency runs on as many threads as cores, and a
# test's synchronous stretches hold one until they end: with every test started at once, timers
# and process exits waited up to 24 s behind the pile (the flaky time limits of a parallel run).
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH ?= 32
# qemu-system-x86, busybox-static, cpio and kmod: the USB tests' guest (Tools/USB/run-in-vm.sh);
# gcc: its Bluetooth bridge (Tools/USB/vhci-bridge.c, static).
# chromium and chromium-driver: the web UI's browser tests (Tools/Web).
# libpaho-mqtt-dev: the MQTT client (MeshMQTT); mosquitto, mosquitto-clients and openssl: the
# broker, the independent subscriber and the test CA of its tests (Tests/Support/MosquittoProcess.swift).
# postgresql-15: the region store's tests start their own server (Tests/Support/PostgresProcess.swift).
# dpkg-dev, fakeroot, patchelf: the Debian package (Packaging/deb/build-deb.sh); debootstrap,
# lintian and systemd (systemd-analyze): its test (Packaging/deb/test-package.sh).
APT_PACKAGES := libsqlite3-dev libusb-1.0-0-dev libbluetooth-dev python3-venv socat qemu-system-x86 busybox-static cpio kmod \
	gcc chromium chromium-driver libpaho-mqtt-dev mosquitto mosquitto-clients openssl libjs-leaflet postgresql-15 \
	dpkg-dev fakeroot patchelf debootstrap lintian systemd

.PHONY: all deps venv build release package test-package run chat test test-swift test-interop test-sim-interop test-usb test-web api-fuzz fuzz fuzz-long soak chaos reliability bench install-driver-sdk clean

all: build

# Installs missing apt packages (as root, or through sudo when available).
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
	if [ -n "$$missing" ]; then \
	    echo "installing apt packages:$$missing"; \
	    $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	elif ! apt-cache show linux-image-amd64 >/dev/null 2>&1; then \
	    echo "updating apt lists (the USB tests fetch Debian's kernel package)"; \
	    $$sudo apt-get update -qq; \
	fi

venv: .venv/.stamp
.venv/.stamp: Tools/requirements.txt | deps
	python3 -m venv .venv
	$(PY) -m pip install -q --disable-pip-version-check -r Tools/requirements.txt
	touch $@

build: deps
	$(SWIFT) build

# Optimized, with the flags the release executable is laid out with (Tools/release.sh).
release: deps
	Tools/release.sh

# meshport_VERSION_ARCH.deb in the package root, from the release build (Packaging/deb/build-deb.sh).
package: deps
	Packaging/deb/build-deb.sh

# The package installed, run and purged in a Debian 12 chroot (Packaging/deb/test-package.sh;
# as root). The debootstrap root is made once into ~/.cache/meshport-debootstrap.
test-package: package
	Packaging/deb/test-package.sh meshport_$$(cat VERSION)_$$(dpkg --print-architecture).deb

# MeshSim with its default mesh and `meshport serve` on it; prints the URL (Tools/run-serve.sh).
run: deps
	Tools/run-serve.sh

# MeshSim with its default mesh and a `meshport chat` session connected to it (Tools/run-chat.sh).
chat: deps
	Tools/run-chat.sh

test: deps venv
	Tools/test-all.sh $(SECONDS)

test-swift: deps
	$(SWIFT) test --parallel

# The usb:// driver's conformance suite in a QEMU guest (Docs/usb.md), and ble:// on the guest
# kernel's hci0, its controller the emulated BLE world (Docs/ble.md).
test-usb: deps venv
	Tools/USB/test-usb.sh

# The web UI in headless chromium against meshport serve on MeshSim; screenshots in artifacts/web.
test-web: deps venv
	Tools/Web/run.sh

# schemathesis against meshport serve on MeshSim, API_FUZZ_EXAMPLES examples per operation and
# phase; its figures go into reliability-results.json (Tools/Reliability/api_fuzz.py). Part of
# `make reliability`; `make test` runs a short one.
API_FUZZ_EXAMPLES ?= 500
api-fuzz: deps venv
	Tools/Reliability/api-fuzz.sh --examples $(API_FUZZ_EXAMPLES) --results reliability-results.json

test-interop: deps venv
	Tools/Interop/run-crosscheck.sh

test-sim-interop: deps venv
	Tools/Interop/run-sim-interop.sh

fuzz: deps
	Tools/Fuzz/run.sh $(SECONDS)

fuzz-long: deps
	FUZZ_RESULTS=reliability-results.json Tools/Fuzz/run.sh --long $(FUZZ_SECONDS)

# Issue 28's soak: meshport serve on meshport sim for SOAK_MINUTES at 10 DMs/s with 50 WebSocket
# clients, 5 API readers and a companion app; RSS, fds and threads plotted into artifacts/soak
# (Tools/Reliability/soak.py). Figures go into reliability-results.json; fails when a goal is missed.
SOAK_MINUTES ?= 30
soak: deps venv
	$(SWIFT) build
	SOAK_MINUTES=$(SOAK_MINUTES) $(PY) Tools/Reliability/soak.py --results reliability-results.json

# Issue 28's chaos and two writers against the real meshport sim and serve
# (Tools/Reliability/chaos.py): kill -9, radio frozen, link cuts, disk full, two writers.
# Figures go into reliability-results.json; fails when a goal is missed.
CHAOS_KILLS ?= 100
CHAOS_FREEZE_SECONDS ?= 30
CHAOS_CUTS ?= 1000
TWO_WRITERS_SECONDS ?= 600
CHAOS_SETTINGS = CHAOS_KILLS=$(CHAOS_KILLS) CHAOS_FREEZE_SECONDS=$(CHAOS_FREEZE_SECONDS) CHAOS_CUTS=$(CHAOS_CUTS) \
	TWO_WRITERS_SECONDS=$(TWO_WRITERS_SECONDS)
chaos: deps
	$(SWIFT) build
	$(CHAOS_SETTINGS) python3 Tools/Reliability/chaos.py --results reliability-results.json

# Issue 28's long runs (fuzzing, API fuzzing, soak, chaos), each merging its figures into
# reliability-results.json, then the report (Tools/Reliability/run.sh). Bounded; not part of
# `make test`; a missed goal does not stop the others.
reliability: deps venv
	$(SWIFT) build
	FUZZ_SECONDS=$(FUZZ_SECONDS) API_FUZZ_EXAMPLES=$(API_FUZZ_EXAMPLES) SOAK_MINUTES=$(SOAK_MINUTES) $(CHAOS_SETTINGS) \
		Tools/Reliability/run.sh

bench: deps venv
	Tools/Benchmarks/run.sh

# The driver header and meshport-driver.pc under PREFIX, for drivers built
# outside this repository (Docs/plugin-authoring.md); DESTDIR is honoured.
PREFIX ?= /usr/local
install-driver-sdk:
	Tools/Driver/install-sdk.sh $(PREFIX)

clean:
	rm -rf .build .build-* .venv bench-results.json

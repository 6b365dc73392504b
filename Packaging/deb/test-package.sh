#!/usr/bin/env bash
# The package on a clean Debian 12 (`make test-package`, run by .ci/run after `make test`):
# a debootstrap root (made once, kept as a tarball in ~/.cache/meshport-debootstrap), in a chroot
# apt installs the .deb with its Depends, then the installed meshport runs (--version, plugins,
# doctor, sim + info, serve's web UI), the service user exists, the unit passes `systemd-analyze
# verify`, lintian finds no errors, and `dpkg --purge` leaves no file behind.
# Must run as root (debootstrap, chroot, mounts). Ends with "N passed, M failed".
# Usage: Packaging/deb/test-package.sh meshport_VERSION_ARCH.deb
set -uo pipefail
deb="$(realpath "$1")"
cd "$(dirname "$0")/../.."
version=$(tr -d ' \n' < VERSION)
arch=$(dpkg --print-architecture)
mirror=http://deb.debian.org/debian
cache="$HOME/.cache/meshport-debootstrap"
base="$cache/bookworm-$arch.tar"
passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
check() { local name="$1"; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }

[ "$(id -u)" -eq 0 ] || { echo "test-package: needs root (debootstrap, chroot, mounts)"; echo "0 passed, 1 failed"; exit 1; }
for tool in debootstrap lintian systemd-analyze; do
    command -v "$tool" >/dev/null || { echo "test-package: $tool is missing (apt-get install debootstrap lintian systemd)"; echo "0 passed, 1 failed"; exit 1; }
done

started=$(date +%s)
if [ ! -f "$base" ]; then
    echo "making the Debian 12 root once (debootstrap, $mirror) into $base"
    mkdir -p "$cache"
    fresh=$(mktemp -d /var/tmp/meshport-debootstrap.XXXXXX)
    chmod 755 "$fresh"   # mktemp makes it 0700: the root of a chroot every user must traverse
    if ! debootstrap --variant=minbase bookworm "$fresh" "$mirror" > "$cache/debootstrap.log" 2>&1; then
        tail -20 "$cache/debootstrap.log"
        rm -rf "$fresh"
        echo "0 passed, 1 failed"
        exit 1
    fi
    tar -C "$fresh" -cf "$base.part" . && mv "$base.part" "$base"
    rm -rf "$fresh"
fi

root=$(mktemp -d /var/tmp/meshport-chroot.XXXXXX)
chmod 755 "$root"   # as /: the service user runs programs inside
mounts=()
# Unmounts in reverse order; the root is deleted only when nothing is mounted in it any more,
# so a failed unmount can never let `rm -rf` reach the host's /dev or /proc.
cleanup() {
    local i
    stop_in_root
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}"
    done
    if grep -q " $root" /proc/mounts; then
        echo "test-package: something is still mounted under $root; left in place"
    else
        rm -rf "$root"
    fi
}
# Every process whose root is the chroot (a backgrounded `in_root` is a subshell, so its $!
# is not the meshport it started): stopped, and waited for.
stop_in_root() {
    local pids=() proc
    for proc in /proc/[0-9]*; do
        [ "$(readlink "$proc/root" 2>/dev/null)" = "$root" ] && pids+=("${proc#/proc/}")
    done
    [ ${#pids[@]} -eq 0 ] && return 0
    kill "${pids[@]}" 2>/dev/null
    for _ in $(seq 50); do
        local alive=0 pid
        for pid in "${pids[@]}"; do [ -d "/proc/$pid" ] && alive=1; done
        [ "$alive" -eq 0 ] && return 0
        sleep 0.1
    done
    kill -KILL "${pids[@]}" 2>/dev/null
    return 0
}
trap cleanup EXIT
mount_in() { mkdir -p "$root$2" && mount "${@:3}" "$1" "$root$2" && mounts+=("$root$2"); }

tar -C "$root" -xf "$base"
mount_in proc /proc -t proc
mount_in sysfs /sys -t sysfs -o ro
mount_in /dev /dev --bind
mount_in /dev/pts /dev/pts --bind
# apt's downloads are kept between runs: only the first run fetches the Depends.
mkdir -p "$cache/archives/partial"
mount_in "$cache/archives" /var/cache/apt/archives --bind
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

# What the root holds, apart from what changes on its own (apt's and dpkg's state, logs, caches).
files() {
    (cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \
        -o -path ./var/cache -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/log -o -path ./root \) -prune \
        -o -print | sort)
}

cp "$deb" "$root/tmp/"
check "apt-get update" in_root apt-get update -qq
# systemd's own units (sysinit.target ...), which `systemd-analyze verify --root` resolves the
# unit against, as on any Debian machine that runs the service.
check "systemd in the root" in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd
files > "$root/tmp/before.txt"
if in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" > "$root/tmp/install.log" 2>&1; then
    pass "apt installs the package and its Depends"
else
    tail -20 "$root/tmp/install.log"
    fail "apt installs the package and its Depends"
fi

line=$(in_root meshport --version)
version_line() { local pattern="^meshport ${version//./\\.} \\(commit ([0-9a-f]{7}|unknown)\\)$"; [[ "$line" =~ $pattern ]]; }
check "meshport --version: $line" version_line

plugins=$(in_root meshport plugins 2>&1)
for driver in TCP Serial USB BLE; do
    check "meshport plugins: $driver from /usr/lib/meshport/plugins" grep -q "/usr/lib/meshport/plugins/libMeshportDriver$driver.so" <<<"$plugins"
done
grep -q "/usr/lib/meshport/plugins" <<<"$plugins" || echo "$plugins"

in_root meshport doctor --config /etc/meshport/meshport.toml --json > "$root/tmp/doctor.json" 2>&1
status=$?
# Exit 1 is a problem found (no radio here); a crash or a usage error is not.
check "meshport doctor runs (exit $status, $(grep -c '"status"' "$root/tmp/doctor.json") checks)" \
    bash -c '[ '"$status"' -le 1 ] && grep -q "\"status\"" "$0"' "$root/tmp/doctor.json"

# meshport sim and meshport info against it, as the service user would run them.
in_root setpriv --reuid=meshport --regid=meshport --init-groups env HOME=/tmp XDG_DATA_HOME=/tmp/meshport-data \
    meshport sim --listen tcp://127.0.0.1:0 > "$root/tmp/sim.log" 2>&1 &
sim=$!
for _ in $(seq 100); do grep -q "listening on tcp://" "$root/tmp/sim.log" && break; sleep 0.1; done
sim_url=$(grep -o "tcp://127.0.0.1:[0-9]*" "$root/tmp/sim.log" | head -1)
if [ -n "$sim_url" ] && in_root setpriv --reuid=meshport --regid=meshport --init-groups env HOME=/tmp XDG_DATA_HOME=/tmp/meshport-data \
        meshport info --radio "$sim_url" > "$root/tmp/info.log" 2>&1 && grep -q . "$root/tmp/info.log"; then
    pass "meshport info against meshport sim ($sim_url)"
else
    cat "$root/tmp/sim.log" "$root/tmp/info.log" 2>/dev/null
    fail "meshport info against meshport sim"
fi

# serve's web UI comes from /usr/share/meshport/web, with no --web-root.
in_root setpriv --reuid=meshport --regid=meshport --init-groups env HOME=/tmp XDG_DATA_HOME=/tmp/meshport-data \
    meshport serve --radio "$sim_url" --db /tmp/serve.db --http 127.0.0.1:0 > "$root/tmp/serve.log" 2>&1 &
serve=$!
for _ in $(seq 150); do grep -q "listening on http://" "$root/tmp/serve.log" && break; sleep 0.2; done
port=$(grep -o "listening on http://127.0.0.1:[0-9]*" "$root/tmp/serve.log" | head -1 | grep -o "[0-9]*$")
page=""
if [ -n "$port" ]; then
    page=$(in_root timeout 10 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0" && printf "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" >&3 && cat <&3' "$port")
fi
check "meshport serve sends the installed web UI" grep -q "<html" <<<"$page"
[ -n "$page" ] || cat "$root/tmp/serve.log"
stop_in_root
wait "$serve" "$sim" 2>/dev/null

check "user meshport exists, in groups dialout and plugdev" \
    bash -c '[[ " $(chroot "$0" id -nG meshport) " =~ \ dialout\  && " $(chroot "$0" id -nG meshport) " =~ \ plugdev\  ]]' "$root"
check "the udev rule is installed" test -f "$root/lib/udev/rules.d/99-meshport-usb.rules"
check "the man page is installed" test -s "$root/usr/share/man/man1/meshport.1.gz"

# The unit against the installed files (the host's systemd-analyze; no systemd runs here).
if systemd-analyze verify --root="$root" --man=no /lib/systemd/system/meshport.service > "$root/tmp/verify.log" 2>&1 \
        && ! grep -q . "$root/tmp/verify.log"; then
    pass "systemd-analyze verify meshport.service"
else
    cat "$root/tmp/verify.log"
    fail "systemd-analyze verify meshport.service"
fi
score=$(systemd-analyze security --offline=yes --root="$root" /lib/systemd/system/meshport.service 2>/dev/null \
    | sed -n 's/.*Overall exposure level for meshport.service: //p')
echo "systemd-analyze security: $score"

lintian --no-tag-display-limit "$deb" > "$root/tmp/lintian.log" 2>&1
grep -E '^[EW]:' "$root/tmp/lintian.log"
check "lintian: no errors ($(grep -c '^W:' "$root/tmp/lintian.log") warnings)" bash -c '! grep -q "^E:" "$0"' "$root/tmp/lintian.log"

if in_root env DEBIAN_FRONTEND=noninteractive dpkg --purge meshport > "$root/tmp/purge.log" 2>&1 \
        && in_root env DEBIAN_FRONTEND=noninteractive apt-get autoremove --purge -y -qq >> "$root/tmp/purge.log" 2>&1; then
    pass "dpkg --purge meshport (and apt's now unneeded Depends)"
else
    cat "$root/tmp/purge.log"
    fail "dpkg --purge meshport"
fi
check "user and group meshport are gone" bash -c '! chroot "$0" getent passwd meshport && ! chroot "$0" getent group meshport' "$root"
files > "$root/tmp/after.txt"
# adduser and deluser leave the shadow tools' backups of the files they edit (/etc/shadow- ...).
left=$(comm -13 "$root/tmp/before.txt" "$root/tmp/after.txt" | grep -vE '^\./etc/(passwd|group|shadow|gshadow)-$')
check "nothing left behind after the purge" test -z "$left"
[ -z "$left" ] || echo "$left"

echo "test-package took $(($(date +%s) - started)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# Runs the MeshCodec libFuzzer target for SECONDS (default 60). The seed corpus in
# Tools/Fuzz/corpus is copied to a scratch directory so routine runs do not grow the repo;
# a crash reproducer is copied into Tools/Fuzz/corpus so it becomes a regression seed.
# Prints a final line "fuzz: N execs in S s, 0 crashes" (or the crash) for CI to read.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${SECONDS_TO_RUN:-${1:-60}}"
scratch=.build-fuzz
# The explicit coverage flags matter: on some package layouts the driver passes only
# -sanitize=address to the compile jobs and the fuzzer then runs blind (no coverage).
if ! MESHPORT_FUZZ=1 swift build --sanitize fuzzer --sanitize address \
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -use-ld=lld \
    --scratch-path "$scratch" --product MeshportFuzzCodec >"$scratch.log" 2>&1; then
    cat "$scratch.log" >&2
    echo "fuzz: build failed"
    exit 1
fi
bin="$(MESHPORT_FUZZ=1 swift build --scratch-path "$scratch" --show-bin-path 2>/dev/null)/MeshportFuzzCodec"
[ -x "$bin" ] || { echo "fuzz: build failed, no $bin" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp Tools/Fuzz/corpus/* "$work/" 2>/dev/null || true
mkdir -p "$work/artifacts"
log="$work/fuzz.log"
set +e
"$bin" "$work" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" >"$log" 2>&1
status=$?
set -e
# A crash ends the run before libFuzzer prints its final stats: these may find nothing.
execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
coverage=$(grep -Eo 'DONE +cov: [0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1 || true)
crashes=$(ls "$work/artifacts" | wc -l)
if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    tail -40 "$log" >&2
    mkdir -p Tools/Fuzz/corpus
    for f in "$work"/artifacts/*; do
        [ -f "$f" ] && cp "$f" "Tools/Fuzz/corpus/regression-$(basename "$f")" && echo "fuzz: reproducer saved as Tools/Fuzz/corpus/regression-$(basename "$f")" >&2
    done
    echo "fuzz: ${execs:-0} execs in ${seconds} s, FAILED (exit $status, $crashes artifact(s))"
    exit 1
fi
if grep -q "Is the code instrumented for coverage" "$log" || [ -z "$coverage" ] || [ "$coverage" -lt 100 ]; then
    tail -20 "$log" >&2
    echo "fuzz: FAILED: the target is not instrumented for coverage (cov ${coverage:-none})"
    exit 1
fi
echo "fuzz: ${execs:-0} execs in ${seconds} s, 0 crashes, coverage ${coverage} edges, corpus $(find "$work" -maxdepth 1 -type f ! -name fuzz.log | wc -l) inputs"

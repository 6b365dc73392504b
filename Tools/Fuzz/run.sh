#!/usr/bin/env bash
# Runs the libFuzzer targets (Tools/Fuzz/Fuzz<Name>, README.md there): builds them all once,
# then runs each for SECONDS from its seed corpus in Tools/Fuzz/corpus/<name>, copied to a
# scratch directory so routine runs do not grow the repository. A crash or a leak
# (LeakSanitizer) fails the target and its reproducer is saved into that corpus as a
# regression seed. Prints one line per target, "fuzz NAME: N execs in S s, 0 crashes,
# coverage C edges", then a summary ending "N passed, M failed".
# Usage: Tools/Fuzz/run.sh SECONDS [TARGET...]   (targets by lower-case name; default all)
# Environment: FUZZ_MAX_EXECS  also stop a target after this many executions;
#              FUZZ_RESULTS    a JSON file the figures are merged into (Tools/Reliability/results.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
shift || true
scratch=.build-fuzz

declare -A products=()
for dir in Tools/Fuzz/Fuzz*/; do
    name="${dir#Tools/Fuzz/Fuzz}"
    name="${name%/}"
    products["${name,,}"]="MeshportFuzz$name"
done
if [ "$#" -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(printf '%s\n' "${!products[@]}" | sort); fi
for target in "${targets[@]}"; do
    [ -n "${products[$target]:-}" ] || { echo "fuzz: no target \"$target\" (known: ${!products[*]})" >&2; exit 2; }
done

# The explicit coverage flags matter: on some package layouts the driver passes only
# -sanitize=address to the compile jobs and the fuzzer then runs blind (no coverage).
build=(swift build --sanitize fuzzer --sanitize address
       -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -use-ld=lld
       --scratch-path "$scratch")
: >"$scratch.log"
for target in "${targets[@]}"; do
    if ! MESHPORT_FUZZ=1 "${build[@]}" --product "${products[$target]}" >>"$scratch.log" 2>&1; then
        tail -60 "$scratch.log" >&2
        echo "fuzz: building ${products[$target]} failed (whole log: $scratch.log)"
        exit 1
    fi
done
bin_dir="$(MESHPORT_FUZZ=1 swift build --scratch-path "$scratch" --show-bin-path 2>/dev/null)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
total_execs=0
# Merges one figure into FUZZ_RESULTS when it is set.
record() {
    [ -n "${FUZZ_RESULTS:-}" ] || return 0
    python3 Tools/Reliability/results.py set "$FUZZ_RESULTS" "$@"
}

for target in "${targets[@]}"; do
    bin="$bin_dir/${products[$target]}"
    corpus="$work/$target/corpus"
    artifacts="$work/$target/artifacts"
    mkdir -p "$corpus" "$artifacts"
    cp Tools/Fuzz/corpus/"$target"/* "$corpus/" 2>/dev/null || true
    log="$work/$target/fuzz.log"
    limit=()
    [ -z "${FUZZ_MAX_EXECS:-}" ] || limit=(-runs="$FUZZ_MAX_EXECS")
    start=$(date +%s)
    set +e
    # detect_leaks: LeakSanitizer after every input that allocated more than it freed, and at exit.
    # Swift's own backtracer would read freed memory under ASan and hide the trap's message.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" "$bin" "$corpus" -max_total_time="$seconds" "${limit[@]}" \
        -max_len=4096 -timeout=30 -rss_limit_mb=2048 -detect_leaks=1 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" >"$log" 2>&1
    status=$?
    set -e
    elapsed=$(( $(date +%s) - start ))
    # A crash ends the run before libFuzzer prints its final stats: these may find nothing.
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
    [ -n "$execs" ] || execs=$(grep -Eo '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
    execs="${execs:-0}"
    rate=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}' || true)
    coverage=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
    crashes=$(find "$artifacts" -type f | wc -l)
    total_execs=$((total_execs + execs))
    record "fuzz.$target.execs" "$execs" execs ">= ${FUZZ_MAX_EXECS:-0}" "$([ "$execs" -ge "${FUZZ_MAX_EXECS:-0}" ] && echo true || echo false)"
    record "fuzz.$target.crashes" "$crashes" "crashes and leaks" "0" "$([ "$crashes" -eq 0 ] && [ "$status" -eq 0 ] && echo true || echo false)"
    if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
        tail -40 "$log" >&2
        for f in "$artifacts"/*; do
            [ -f "$f" ] || continue
            cp "$f" "Tools/Fuzz/corpus/$target/regression-$(basename "$f")"
            echo "fuzz $target: reproducer saved as Tools/Fuzz/corpus/$target/regression-$(basename "$f")" >&2
        done
        echo "FAIL fuzz $target: $execs execs in $elapsed s, $crashes crash(es) or leak(s) (exit $status)"
        failed=$((failed + 1))
    elif grep -q "Is the code instrumented for coverage" "$log" || [ -z "$coverage" ] || [ "$coverage" -lt 100 ]; then
        tail -20 "$log" >&2
        echo "FAIL fuzz $target: not instrumented for coverage (cov ${coverage:-none})"
        failed=$((failed + 1))
    else
        echo "fuzz $target: $execs execs in $elapsed s, 0 crashes, coverage $coverage edges, ${rate:-?} execs/s, corpus $(find "$corpus" -type f | wc -l) inputs"
        passed=$((passed + 1))
    fi
done
echo "fuzz: ${#targets[@]} target(s), $total_execs execs in all"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

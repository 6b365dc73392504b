#!/usr/bin/env bash
# Runs the libFuzzer targets (Tools/Fuzz/Fuzz<Name>, README.md there): builds them all once,
# then runs each for SECONDS from its seed corpus in Tools/Fuzz/corpus/<name>, copied to a
# scratch directory so routine runs do not grow the repository. A crash or a leak
# (LeakSanitizer) fails the target and its reproducer is saved into that corpus as a
# regression seed. Prints one line per target, "fuzz NAME: N execs in S s, 0 crashes,
# coverage C edges", then a summary ending "N passed, M failed".
# Usage: Tools/Fuzz/run.sh [--long] SECONDS [TARGET...]   (targets by lower-case name; default all)
#        --long: the long run of `make fuzz-long` and `make reliability`: each target to 10 million
#        executions or SECONDS, every core, the release build, leaks checked at each target's end
#        (the defaults below become FUZZ_JOBS=nproc FUZZ_BUILD=release FUZZ_LEAKS=exit
#        FUZZ_MAX_EXECS=10000000 FUZZ_CHUNK=600; the environment still overrides them).
# Environment: FUZZ_MAX_EXECS  also stop a target after this many executions;
#              FUZZ_CHUNK      restart each target's process after this many seconds, from the corpus
#                              it grew (default: one process for the whole time); executions add up;
#              FUZZ_RESULTS    a JSON file the figures are merged into (Tools/Reliability/results.py);
#              FUZZ_JOBS       how many targets run at once (default 1; the long runs use every core);
#              FUZZ_WORKERS    processes per target (default 1), sharing its corpus (libFuzzer reloads
#                              it every second), executions summed: cores for one slow target;
#              FUZZ_BUILD      `debug` (default) or `release`: the optimised build runs 1.6-8x more
#                              executions a second (codec 15,600 against 2,000); the long runs use it;
#              FUZZ_LEAKS      `each` (default): LeakSanitizer after every input that kept memory, which
#                              names the input at once, but a target whose jobs run on other threads
#                              passes it after most inputs (ATT before FuzzThread: 25x slower); `exit`: once when the
#                              target ends, the corpus then replayed input by input to find the
#                              one that leaked (the long runs).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = --long ]; then
    shift
    : "${FUZZ_JOBS:=$(nproc)}" "${FUZZ_BUILD:=release}" "${FUZZ_LEAKS:=exit}" "${FUZZ_MAX_EXECS:=10000000}" "${FUZZ_CHUNK:=600}"
fi
seconds="${1:-60}"
shift || true
scratch=.build-fuzz

declare -A products=()
for dir in Tools/Fuzz/Fuzz*/; do
    name="${dir#Tools/Fuzz/Fuzz}"
    name="${name%/}"
    products["${name,,}"]="MeshportFuzz$name"
done
# By default every target, the slowest first (executions a second in the release build: scenario
# about 440, att 6,700, ingest 6,800, the rest 10,000 or more), so that side by side the long ones
# do not end up running last and alone.
slowest=(scenario att ingest)
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <( (printf '%s\n' "${slowest[@]}"; printf '%s\n' "${!products[@]}" | sort) | awk '!seen[$0]++')
fi
for target in "${targets[@]}"; do
    [ -n "${products[$target]:-}" ] || { echo "fuzz: no target \"$target\" (known: ${!products[*]})" >&2; exit 2; }
done

# The explicit coverage flags matter: on some package layouts the driver passes only
# -sanitize=address to the compile jobs and the fuzzer then runs blind (no coverage).
config="${FUZZ_BUILD:-debug}"
case "$config" in debug|release) ;; *) echo "fuzz: FUZZ_BUILD is \"$config\"; it must be debug or release" >&2; exit 2 ;; esac
[[ "${FUZZ_WORKERS:-1}" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: FUZZ_WORKERS is \"$FUZZ_WORKERS\"; it must be a whole number of processes, 1 or more" >&2; exit 2; }
build=(swift build -c "$config" --sanitize fuzzer --sanitize address
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
if ! bin_dir="$(MESHPORT_FUZZ=1 swift build -c "$config" --scratch-path "$scratch" --show-bin-path 2>>"$scratch.log")"; then
    tail -20 "$scratch.log" >&2
    echo "fuzz: finding the $config build's folder (swift build --show-bin-path) failed"
    exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Merges one figure into FUZZ_RESULTS when it is set.
record() {
    [ -n "${FUZZ_RESULTS:-}" ] || return 0
    python3 Tools/Reliability/results.py set "$FUZZ_RESULTS" "$@"
}

# Runs one target; its line goes to $work/TARGET/line, its execs to $work/TARGET/execs and
# its verdict to $work/TARGET/verdict (pass or fail), so targets can run side by side.
run_target() {
    local target="$1"
    local bin="$bin_dir/${products[$target]}"
    local corpus="$work/$target/corpus"
    local artifacts="$work/$target/artifacts"
    local log="$work/$target/fuzz.log"
    local limit=() start status=0 elapsed execs=0 chunk_execs left rate coverage crashes verdict=fail line each_input=1
    local workers="${FUZZ_WORKERS:-1}" pids w n
    [ "${FUZZ_LEAKS:-each}" = exit ] && each_input=0
    start=$(date +%s)
    : >"$log"
    # One process per chunk of FUZZ_CHUNK seconds, each starting from the corpus the last one grew:
    # a process that has run for long executes fewer inputs a second than a fresh one on the same
    # corpus (README.md). Each chunk's end is also a leak check.
    while :; do
        elapsed=$(( $(date +%s) - start ))
        left=$(( seconds - elapsed ))
        [ "$left" -gt 0 ] || break
        [ -z "${FUZZ_CHUNK:-}" ] || [ "$left" -le "$FUZZ_CHUNK" ] || left="$FUZZ_CHUNK"
        limit=()
        if [ -n "${FUZZ_MAX_EXECS:-}" ]; then
            [ "$execs" -lt "$FUZZ_MAX_EXECS" ] || break
            limit=(-runs="$(( (FUZZ_MAX_EXECS - execs + workers - 1) / workers ))")
        fi
        # ASAN_OPTIONS detect_leaks: LeakSanitizer when the process ends; -detect_leaks: also after
        # every input that allocated more than it freed. Swift's own backtracer would read freed
        # memory under ASan and hide the trap's message.
        pids=()
        for ((w = 0; w < workers; w++)); do
            SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" "$bin" "$corpus" -max_total_time="$left" "${limit[@]}" \
                -max_len=4096 -timeout=30 -rss_limit_mb=2048 -detect_leaks="$each_input" -print_final_stats=1 \
                -artifact_prefix="$artifacts/" >"$log.chunk$w" 2>&1 &
            pids+=("$!")
        done
        status=0
        chunk_execs=0
        for ((w = 0; w < workers; w++)); do
            wait "${pids[$w]}" || status=$?
            cat "$log.chunk$w" >>"$log"
            # A crash ends the process before libFuzzer prints its final stats: then the last progress line.
            n=$(grep -E '^stat::number_of_executed_units' "$log.chunk$w" | awk '{print $2}' || true)
            [ -n "$n" ] || n=$(grep -Eo '^#[0-9]+' "$log.chunk$w" | tail -1 | tr -d '#' || true)
            chunk_execs=$(( chunk_execs + ${n:-0} ))
            rm -f "$log.chunk$w"
        done
        execs=$(( execs + chunk_execs ))
        # Progress for a run of hours, and the figures that show whether restarting pays.
        [ -z "${FUZZ_CHUNK:-}" ] || echo "fuzz $target: $chunk_execs execs in $(( $(date +%s) - start - elapsed )) s ($execs in all), corpus $(find "$corpus" -type f | wc -l) inputs"
        [ "$status" -eq 0 ] && [ -z "$(ls -A "$artifacts")" ] && [ -n "${FUZZ_CHUNK:-}" ] || break
    done
    if [ "$status" -ne 0 ] && [ "$each_input" -eq 0 ] && grep -q "ERROR: LeakSanitizer" "$log" && [ -z "$(ls -A "$artifacts")" ]; then
        # A leak seen only at the end: every corpus input once more, each checked on its own,
        # so the one that leaks is saved.
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" "$bin" "$corpus" -runs=0 -max_len=4096 -timeout=30 \
            -detect_leaks=1 -artifact_prefix="$artifacts/" >>"$log" 2>&1
        [ -n "$(ls -A "$artifacts")" ] || echo "fuzz $target: a leak at the end, and no single corpus input leaks on its own (see the stacks above)" >>"$log"
    fi
    elapsed=$(( $(date +%s) - start ))
    rate=$(( execs / (elapsed > 0 ? elapsed : 1) ))
    coverage=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
    crashes=$(find "$artifacts" -type f | wc -l)
    record "fuzz.$target.execs" "$execs" execs ">= ${FUZZ_MAX_EXECS:-0}" "$([ "$execs" -ge "${FUZZ_MAX_EXECS:-0}" ] && echo true || echo false)"
    record "fuzz.$target.crashes" "$crashes" "crashes and leaks" "0" "$([ "$crashes" -eq 0 ] && [ "$status" -eq 0 ] && echo true || echo false)"
    if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
        tail -40 "$log" >&2
        for f in "$artifacts"/*; do
            [ -f "$f" ] || continue
            cp "$f" "Tools/Fuzz/corpus/$target/regression-$(basename "$f")"
            echo "fuzz $target: reproducer saved as Tools/Fuzz/corpus/$target/regression-$(basename "$f")" >&2
        done
        line="FAIL fuzz $target: $execs execs in $elapsed s, $crashes crash(es) or leak(s) (exit $status)"
    elif grep -q "Is the code instrumented for coverage" "$log" || [ -z "$coverage" ] || [ "$coverage" -lt 100 ]; then
        tail -20 "$log" >&2
        line="FAIL fuzz $target: not instrumented for coverage (cov ${coverage:-none})"
    else
        line="fuzz $target: $execs execs in $elapsed s, 0 crashes, coverage $coverage edges, $rate execs/s, corpus $(find "$corpus" -type f | wc -l) inputs"
        verdict=pass
    fi
    echo "$line"
    echo "$line" >"$work/$target/line"
    echo "$execs" >"$work/$target/execs"
    echo "$verdict" >"$work/$target/verdict"
}

for target in "${targets[@]}"; do
    mkdir -p "$work/$target/corpus" "$work/$target/artifacts"
    cp Tools/Fuzz/corpus/"$target"/* "$work/$target/corpus/" 2>/dev/null || true
done
# FUZZ_JOBS targets at a time, each on one core (libFuzzer runs one process per target).
jobs="${FUZZ_JOBS:-1}"
set +e
running=0
for target in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    run_target "$target" &
    running=$((running + 1))
done
wait
set -e
passed=0
failed=0
total_execs=0
for target in "${targets[@]}"; do
    total_execs=$((total_execs + $(cat "$work/$target/execs" 2>/dev/null || echo 0)))
    if [ "$(cat "$work/$target/verdict" 2>/dev/null)" = pass ]; then
        passed=$((passed + 1))
    else
        [ -f "$work/$target/line" ] || echo "FAIL fuzz $target: ended without a result"
        failed=$((failed + 1))
    fi
done
echo "fuzz: ${#targets[@]} target(s), $total_execs execs in all"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

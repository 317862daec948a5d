#!/usr/bin/env bash
# What the one command layer (issue 19) costs: the same calls against a baseline distribution and this
# one, interleaved round-robin (so background load hits both alike), median of N runs each, with the
# ratio; /bin/true runs in the same rounds as the floor. A benchmark, not a test.
#
#   true            /bin/true
#   cold-none       AASM_CLIENT=off bin/aasm run exec --isolation none -- /bin/true   (JVM + Felix + command tree)
#   resident-sh     bin/aasm run exec --isolation none -- /bin/true     (sh front -> aasm-client -> kernel)
#   client-process  bin/aasm-client run exec --isolation process -- /bin/true   (a confined resident launch)
#   daemon-status   bin/aasm daemon status     (the baseline answered without a framework; now the picocli layer)
#
# usage: distribution/bench/command-layer.sh BASELINE_DIST [RUNS] [CANDIDATE_DIST]
set -euo pipefail

base=${1:?usage: command-layer.sh BASELINE_DIST [RUNS] [CANDIDATE_DIST]}
runs=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
cand=${3:-$(ls -d "$here"/../target/aasm-*/ | grep -v '\.tar' | head -n 1)}
for d in "$base" "$cand"; do
    [ -x "$d/bin/aasm" ] && [ -x "$d/bin/aasm-client" ] || { echo "no built distribution at $d" >&2; exit 2; }
done

work=$(mktemp -d "${BENCH_WORK:-/var/tmp}/aasm-bench.XXXXXX")
chmod 711 "$work"
mkdir -m 700 "$work/base-run" "$work/cand-run"
cleanup() {
    XDG_RUNTIME_DIR=$work/base-run XDG_CACHE_HOME=$work/base-cache "$base/bin/aasm" daemon stop >/dev/null 2>&1 || true
    XDG_RUNTIME_DIR=$work/cand-run XDG_CACHE_HOME=$work/cand-cache "$cand/bin/aasm" daemon stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

now_us() { date +%s%6N; }
call() { # which variant
    local which=$1 variant=$2 dist start end
    dist=$base; [ "$which" = cand ] && dist=$cand
    export XDG_RUNTIME_DIR=$work/$which-run XDG_CACHE_HOME=$work/$which-cache
    start=$(now_us)
    case $variant in
        true) /bin/true ;;
        cold-none) AASM_CLIENT=off "$dist/bin/aasm" run exec --isolation none -- /bin/true ;;
        resident-sh) "$dist/bin/aasm" run exec --isolation none -- /bin/true ;;
        client-process) "$dist/bin/aasm-client" run exec --isolation process -- /bin/true ;;
        daemon-status) "$dist/bin/aasm" daemon status ;;
    esac >/dev/null 2>&1 || true
    end=$(now_us)
    echo $(( end - start ))
}

for which in base cand; do
    dist=$base; [ "$which" = cand ] && dist=$cand
    export XDG_RUNTIME_DIR=$work/$which-run XDG_CACHE_HOME=$work/$which-cache
    AASM_CLIENT=off "$dist/bin/aasm" run exec --isolation none -- /bin/true 2>/dev/null
    for _ in $(seq 1 120); do ls "$XDG_CACHE_HOME"/aasm/cds-*.jsa >/dev/null 2>&1 && break; sleep 0.5; done
    "$dist/bin/aasm" daemon start >/dev/null
    for _ in $(seq 1 30); do call "$which" client-process >/dev/null; done
    grep -q 'posture=READY' < <("$dist/bin/aasm-client" run exec --isolation process -- /bin/true 2>&1) \
        || { echo "$which: a resident confined launch is not READY here" >&2; exit 2; }
done

variants=(true cold-none resident-sh client-process daemon-status)
declare -A samples
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
for _ in $(seq 1 "$runs"); do
    for v in "${variants[@]}"; do
        for which in base cand; do
            samples[$which-$v]+="$(call "$which" "$v") "
        done
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
echo "load at start: $load_start   at end: $(cut -d' ' -f1-3 /proc/loadavg)   runs per variant: $runs"
printf '%-15s %12s %12s %8s\n' variant "baseline ms" "this ms" ratio
for v in "${variants[@]}"; do
    b=$(echo "${samples[base-$v]}" | median)
    c=$(echo "${samples[cand-$v]}" | median)
    awk -v v="$v" -v b="$b" -v c="$c" 'BEGIN { printf "%-15s %12.1f %12.1f %8.3f\n", v, b / 1000, c / 1000, c / b }'
done

#!/usr/bin/env bash
# Added wall time of one confined launch, cold vs resident kernel:
#   aasm run exec --isolation process -- /bin/true     minus     /bin/true
# median of N runs each (default 30), variants interleaved round-robin so background load hits them
# alike; then confined launches per second with 8 parallel clients. A benchmark, not a test.
#
#   cold      bin/aasm with AASM_CLIENT=off: JVM + Felix boot per call (bundle cache reused, AppCDS on)
#   resident  bin/aasm (sh front) -> bin/aasm-client -> the resident kernel's socket
#   client    bin/aasm-client called directly (what an agent harness can call)
#
# usage: distribution/bench/resident.sh [RUNS] [DIST_DIR]
set -euo pipefail

runs=${1:-30}
here=$(cd "$(dirname "$0")" && pwd)
dist=${2:-$(ls -d "$here"/../target/aasm-*/ | grep -v '\.tar' | head -n 1)}
aasm=$dist/bin/aasm
client=$dist/bin/aasm-client
[ -x "$aasm" ] && [ -x "$client" ] || { echo "no built distribution at $dist (run mvn install first)" >&2; exit 2; }

work=$(mktemp -d)
export XDG_RUNTIME_DIR=$work/run XDG_CACHE_HOME=$work/cache
mkdir -m 700 "$XDG_RUNTIME_DIR"
cleanup() { "$aasm" daemon stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

now_us() { date +%s%6N; }
timed() {
    local start end
    start=$(now_us)
    "$@" >/dev/null 2>&1 || true
    end=$(now_us)
    echo $(( (end - start) ))
}

confined=(run exec --isolation process -- /bin/true)
run_variant() {
    case $1 in
        true)     timed /bin/true ;;
        cold)     timed env AASM_CLIENT=off "$aasm" "${confined[@]}" ;;
        resident) timed "$aasm" "${confined[@]}" ;;
        client)   timed "$client" "${confined[@]}" ;;
    esac
}

# the launch must really be confined here, else the numbers measure a refusal
AASM_CLIENT=off "$aasm" "${confined[@]}" 2>"$work/check" || { echo "a confined launch fails on this host:" >&2; cat "$work/check" >&2; exit 2; }
grep -q 'posture=READY\|posture=DEGRADED' "$work/check" || { echo "not confined:" >&2; cat "$work/check" >&2; exit 2; }
# warm-up: bundle cache + AppCDS archive for the cold path, kernel start and JIT for the resident one
AASM_CLIENT=off "$aasm" "${confined[@]}" 2>/dev/null
for _ in $(seq 1 120); do ls "$XDG_CACHE_HOME"/aasm/cds-*.jsa >/dev/null 2>&1 && break; sleep 0.5; done
"$aasm" daemon start
for _ in $(seq 1 50); do "$client" "${confined[@]}" 2>/dev/null; done
grep -q 'posture=READY\|posture=DEGRADED' < <("$client" "${confined[@]}" 2>&1) || { echo "resident launch not confined" >&2; exit 2; }

variants=(true cold resident client)
declare -A samples
for _ in $(seq 1 "$runs"); do
    for v in "${variants[@]}"; do
        samples[$v]+="$(run_variant "$v") "
    done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print int(NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

base=$(echo "${samples[true]}" | median)
printf '%-10s %12s %12s   (median of %d, wall time, microseconds)\n' variant median added "$runs"
for v in "${variants[@]}"; do
    m=$(echo "${samples[$v]}" | median)
    printf '%-10s %12d %12d\n' "$v" "$m" $((m - base))
done

# throughput: 8 clients in parallel, each running launches back to back
per=${PER_CLIENT:-20}
start=$(now_us)
for c in $(seq 1 8); do
    ( for _ in $(seq 1 "$per"); do "$client" "${confined[@]}" >/dev/null 2>&1 || echo fail; done ) > "$work/par.$c" &
done
wait
end=$(now_us)
fails=$(cat "$work"/par.* | wc -l)
total=$((8 * per))
awk -v n="$total" -v us=$((end - start)) -v f="$fails" \
    'BEGIN {printf "parallel: 8 clients x %d confined launches: %.1f launches/s (%d failed)\n", n/8, n / (us / 1e6), f}'
echo "host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(uname -r)"

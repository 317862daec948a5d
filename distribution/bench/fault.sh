#!/usr/bin/env bash
# Faults, N rounds each, counting what survives and what leaks (docs/resident.md, "Soak and faults"):
#   kernel   kill -9 of the resident kernel with K confined launches in flight, then `daemon start`
#   cold     kill -9 of a cold JVM (AASM_CLIENT=off bin/aasm run exec ...) with its launch running,
#            then the next cold run
#   client   kill -9 of a bin/aasm-client with its launch running (the kernel stays up)
# Per round: survivors (the confined programs still alive 5 s after the kill), the killed owner's aasm-*
# cgroups right after the kill and after the next start (which reclaims a dead owner's leftovers), and
# stale private temp directories after the next start. Every program is a `sleep` with a unique
# argument, so only this script's processes are counted (other sessions run aasm on the same machine).
# Exits 1 when anything survived or stayed leaked after the next start.
#
# usage: distribution/bench/fault.sh [--quick] [N] [K] [DIST_DIR]   (--quick: N=2, K=2)
set -euo pipefail

rounds=5 inflight=4
if [ "${1:-}" = --quick ]; then rounds=2 inflight=2; shift; fi
rounds=${1:-$rounds}
inflight=${2:-$inflight}
here=$(cd "$(dirname "$0")" && pwd)
dist=${3:-$(ls -d "$here"/../target/aasm-*/ | grep -v '\.tar' | head -n 1)}
aasm=$dist/bin/aasm
client=$dist/bin/aasm-client
[ -x "$aasm" ] && [ -x "$client" ] || { echo "no built distribution at $dist (run mvn install first)" >&2; exit 2; }

work=$(mktemp -d)
export XDG_RUNTIME_DIR=$work/run XDG_CACHE_HOME=$work/cache
mkdir -m 700 "$XDG_RUNTIME_DIR" "$work/cwd"
cd "$work/cwd"
markers=()
cleanup() {
    local m p
    for m in "${markers[@]}"; do for p in $(marked "$m"); do kill -9 "$p" 2>/dev/null || true; done; done
    (cd / && "$aasm" daemon stop >/dev/null 2>&1) || true
    rm -rf "$work"
}
trap cleanup EXIT

marked() { # pids of processes whose command line is "sleep MARKER" (any path to sleep) (read only; killed by pid)
    pgrep -f "^[^ ]*sleep $1\$" || true
}
new_marker() { local m="3$(printf '%05d' $((RANDOM % 100000)))$((${#markers[@]} % 10))"; markers+=("$m"); echo "$m"; }
owner_of() { echo "$1.$(awk '{print $22}' "/proc/$1/stat")"; }
cgroups_of() { find /sys/fs/cgroup -maxdepth 3 -type d -name "aasm-$1-*" 2>/dev/null | wc -l; }
stale_tmp() { find "$XDG_CACHE_HOME/aasm/tmp" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
wait_for() { # wait_for COUNT MARKER: until COUNT processes carry it (at most 60 s)
    for _ in $(seq 1 600); do [ "$(marked "$2" | wc -l)" -ge "$1" ] && return 0; sleep 0.1; done
    echo "fault: the launches never started" >&2; exit 2
}
kernel_pid() { sed -n 's/.*running pid=\([0-9]*\) .*/\1/p' < <(cd / && "$aasm" daemon status); }
confined=(run exec --isolation process --)

echo "fault: $rounds rounds each, $inflight launches in flight for the kernel kill, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| scenario | round | survivors | owner's cgroups after kill | after next start | stale temp dirs after next start |"
echo "|---|---|---|---|---|---|"
bad=0
report() { echo "| $1 | $2 | $3 | $4 | $5 | $6 |"; if [ "$3" != 0 ] || [ "$5" != 0 ]; then bad=1; fi; }

(cd / && "$aasm" daemon start >/dev/null 2>>"$work/daemon-start.err")
for r in $(seq 1 "$rounds"); do
    k=$(kernel_pid); owner=$(owner_of "$k"); m=$(new_marker)
    for _ in $(seq 1 "$inflight"); do "$client" "${confined[@]}" sleep "$m" >/dev/null 2>&1 & done
    wait_for "$inflight" "$m"
    kill -9 "$k"; sleep 5
    surv=$(marked "$m" | wc -l); after=$(cgroups_of "$owner")
    wait # the clients end with the connection
    (cd / && "$aasm" daemon start >/dev/null 2>>"$work/daemon-start.err")
    sleep 1
    report kernel "$r" "$surv" "$after" "$(cgroups_of "$owner")" "$(( $(stale_tmp) - 1 ))"
done

for r in $(seq 1 "$rounds"); do
    m=$(new_marker)
    AASM_CLIENT=off "$aasm" "${confined[@]}" sleep "$m" >/dev/null 2>&1 &
    jvm=$!
    wait_for 1 "$m"
    owner=$(owner_of "$jvm")
    kill -9 "$jvm"; sleep 5
    surv=$(marked "$m" | wc -l); after=$(cgroups_of "$owner")
    wait "$jvm" 2>/dev/null || true
    AASM_CLIENT=off "$aasm" run exec --isolation none -- /bin/true >/dev/null 2>&1 || true
    report cold "$r" "$surv" "$after" "$(cgroups_of "$owner")" "$(( $(stale_tmp) - 1 ))"
done

for r in $(seq 1 "$rounds"); do
    k=$(kernel_pid); owner=$(owner_of "$k"); m=$(new_marker)
    before=$(cgroups_of "$owner")
    "$client" "${confined[@]}" sleep "$m" >/dev/null 2>&1 &
    c=$!
    wait_for 1 "$m"
    kill -9 "$c"; sleep 5
    wait "$c" 2>/dev/null || true
    surv=$(marked "$m" | wc -l); after=$(( $(cgroups_of "$owner") - before ))
    report client "$r" "$surv" "$after" "$after" "$(( $(stale_tmp) - 1 ))"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$bad" = 0 ] || { echo "fault: a program survived or a cgroup stayed leaked (see the table)" >&2; exit 1; }

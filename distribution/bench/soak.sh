#!/usr/bin/env bash
# Soak of the resident kernel: N confined launches at concurrency 1, 8 and 32 through bin/aasm-client,
# with leak accounting after each phase and latency percentiles per phase. A measurement, not a test:
# it prints a table and exits 1 only when something leaked (see docs/resident.md, "Soak and faults").
#
# After each phase (every client has exited), of the kernel and what it launched:
#   fds        open descriptors of the kernel            threads  its threads
#   rss        its resident set (KiB; the kernel allows no attach, so no forced GC: read as a trend)
#   zombies    unreaped children of the kernel           cgroups  aasm-* groups the kernel owns (by name)
#   tmp        entries of the private temp directories   procs    processes left in the soak's working
#                                                                 directory (clients, launchers, relays,
#                                                                 programs: all start there; the kernel not)
# fds, zombies, cgroups, tmp and procs must come back to their value after warm-up (the baseline row).
#
# usage: distribution/bench/soak.sh [--quick] [N] [DIST_DIR]     (--quick: N=40, for CI)
set -euo pipefail

n=200
if [ "${1:-}" = --quick ]; then n=40; shift; fi
n=${1:-$n}
here=$(cd "$(dirname "$0")" && pwd)
dist=${2:-$(ls -d "$here"/../target/aasm-*/ | grep -v '\.tar' | head -n 1)}
client=$dist/bin/aasm-client
aasm=$dist/bin/aasm
[ -x "$aasm" ] && [ -x "$client" ] || { echo "no built distribution at $dist (run mvn install first)" >&2; exit 2; }

work=$(mktemp -d)
export XDG_RUNTIME_DIR=$work/run XDG_CACHE_HOME=$work/cache
mkdir -m 700 "$XDG_RUNTIME_DIR"
cleanup() { "$aasm" daemon stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

launch=(run exec --isolation process -- /bin/true)
(cd / && "$aasm" daemon start >/dev/null)
mkdir "$work/cwd"
kpid=$(sed -n 's/.*running pid=\([0-9]*\) .*/\1/p' < <("$aasm" daemon status))
[ -n "$kpid" ] || { echo "the kernel did not start" >&2; exit 2; }
owner="$kpid.$(awk '{print $22}' "/proc/$kpid/stat")"
(cd "$work/cwd" && "$client" "${launch[@]}" 2>"$work/check") || true
grep -q 'posture=READY\|posture=DEGRADED' "$work/check" || { echo "not confined here:" >&2; cat "$work/check" >&2; exit 2; }

count_procs() { # other sessions on this machine run aasm too: only what started in our directory counts
    local c=0 p
    for p in /proc/[0-9]*; do
        case $(readlink "$p/cwd" 2>/dev/null) in "$work/cwd"*) c=$((c + 1)) ;; esac
    done
    echo "$c"
}
account() {
    local fds threads rss zombies cgroups tmp
    fds=$(ls "/proc/$kpid/fd" | wc -l)
    threads=$(awk '/^Threads:/ {print $2}' "/proc/$kpid/status")
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$kpid/status")
    zombies=$(ps -o stat= --ppid "$kpid" | grep -c '^Z' || true)
    # find exits 1 when a folder it was about to enter vanished (a launch's cgroup or temp folder being removed,
    # ours or another user's): what it counted is still the count, and under set -e and pipefail that status
    # used to end this function silently, and the script with it (read met an empty line).
    cgroups=$(find /sys/fs/cgroup -maxdepth 3 -type d -name "aasm-$owner-*" 2>/dev/null | wc -l || true)
    tmp=$(find "$XDG_CACHE_HOME/aasm/tmp" -mindepth 1 2>/dev/null | wc -l || true)
    echo "$fds $threads $rss $zombies $cgroups $tmp $(count_procs)"
}
percentiles() { # milliseconds, one a line -> "p50 p90 p99 max"
    sort -n | awk '{a[NR]=$1} END {i50=int(NR*0.5+0.5); i90=int(NR*0.9+0.5); i99=int(NR*0.99+0.5);
        if (i50<1) i50=1; if (i90<1) i90=1; if (i99<1) i99=1; print a[i50], a[i90], a[i99], a[NR]}'
}
one() { # one timed launch; prints its milliseconds, or FAIL with its status and last words
    local s e out
    s=$(date +%s%N)
    if out=$("$client" run exec --isolation process -- /bin/true 2>&1 >/dev/null); then
        e=$(date +%s%N); echo $(( (e - s) / 1000000 ))
    else
        echo "FAIL exit=$?: $(printf '%s' "$out" | tail -n 3 | tr '\n' ' ')"
    fi
}
export -f one
export client
for _ in $(seq 1 20); do "$client" "${launch[@]}" >/dev/null 2>&1 || true; done # warm-up: JIT, caches
sleep 1
read -r b_fds b_thr b_rss b_zom b_cg b_tmp b_procs < <(account)
echo "soak: $n confined launches per phase (--isolation process -> /bin/true), kernel pid $kpid, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| phase | launches | failed | p50 ms | p90 ms | p99 ms | max ms | fds | threads | rss KiB | zombies | cgroups | tmp | procs |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
echo "| baseline | – | – | – | – | – | – | $b_fds | $b_thr | $b_rss | $b_zom | $b_cg | $b_tmp | $b_procs |"
leaked=0
for c in 1 8 32; do
    (cd "$work/cwd" && seq 1 "$n" | xargs -P "$c" -I{} bash -c one > "$work/lat-$c")
    # The kernel closes a connection, and reaps and removes what a launch made, after its client has read the
    # status: wait for the counts to come back (a fixed second was too short on a loaded machine), at most 30 s;
    # what is still above the baseline then is a leak.
    for _ in $(seq 1 150); do
        [ -d "/proc/$kpid" ] || { echo "soak: the kernel (pid $kpid) is gone" >&2; exit 1; }
        read -r fds thr rss zom cg tmp procs < <(account)
        [ "$fds" -le "$b_fds" ] && [ "$zom" -eq 0 ] && [ "$cg" -le "$b_cg" ] && [ "$tmp" -le "$b_tmp" ] \
            && [ "$procs" -le "$b_procs" ] && break
        sleep 0.2
    done
    failed=$(grep -c FAIL "$work/lat-$c" || true)
    read -r p50 p90 p99 max < <(grep -v FAIL "$work/lat-$c" | percentiles)
    echo "| concurrency $c | $n | $failed | $p50 | $p90 | $p99 | $max | $fds | $thr | $rss | $zom | $cg | $tmp | $procs |"
    if [ "$fds" -gt "$b_fds" ] || [ "$zom" -gt 0 ] || [ "$cg" -gt "$b_cg" ] || [ "$tmp" -gt "$b_tmp" ] \
            || [ "$procs" -gt "$b_procs" ] || [ "$failed" -gt 0 ]; then
        leaked=1
    fi
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -h FAIL "$work"/lat-* >&2 || true # why a launch failed: a count alone cannot be diagnosed
[ "$leaked" = 0 ] || { echo "soak: something leaked or failed (see the table)" >&2; exit 1; }

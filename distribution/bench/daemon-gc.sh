#!/usr/bin/env bash
# What the resident kernel's heap sizing costs in collections, beside what it saves in resident set: every round
# starts one kernel per variant in turn (same machine minute) with the variant's options in AASM_JAVA_OPTS (after
# DaemonStart.DAEMON_JVM, so they win) and -Xlog:gc,gc+cpu to a file of its own, then N confined /bin/true launches
# at 8 clients and N at 32. Per variant: RSS idle (after 20 warm-up launches and 2 s of rest) and after each phase,
# young and full collections during the two phases, and their CPU (the log's User+Sys per collection) per launch:
# CPU time, not pause time, so the machine's load inflates it less. A measurement, not a test (docs/resident.md).
#
# usage: distribution/bench/daemon-gc.sh [ROUNDS] [N] [DIST_DIR] < variants   ("name|JVM options" a line)
set -euo pipefail

rounds=${1:-2}
n=${2:-200}
here=$(cd "$(dirname "$0")" && pwd)
dist=${3:-$(ls -d "$here"/../target/aasm-*/ | grep -v '\.tar' | head -n 1)}
aasm=$dist/bin/aasm
client=$dist/bin/aasm-client
[ -x "$aasm" ] && [ -x "$client" ] || { echo "no built distribution at $dist (run mvn install first)" >&2; exit 2; }
mapfile -t variants
[ "${#variants[@]}" -gt 0 ] || { echo "no variants on stdin" >&2; exit 2; }

work=$(mktemp -d)
export XDG_CACHE_HOME=$work/cache XDG_RUNTIME_DIR=$work/run
mkdir -m 700 "$XDG_RUNTIME_DIR"
cleanup() { "$aasm" daemon stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
mkdir "$work/cwd"

mib() { awk '$1 == "VmRSS:" {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
burst() { (cd "$work/cwd" && seq 1 "$2" | xargs -P "$1" -I{} "$client" run exec --isolation process -- /bin/true \
    >/dev/null 2>&1) || echo "warning: a launch failed" >&2; }
# young count, full count, CPU ms of collections logged after line $2 of log $1, per launch of $3
gcs() { tail -n +"$(($2 + 1))" "$1" | awk -v n="$3" '
    /Pause Young/ {y++} /Pause Full/ {f++}
    /User=/ {for (i = 1; i <= NF; i++) {if ($i ~ /^User=/) {sub("User=", "", $i); sub("s", "", $i); c += $i}
        if ($i ~ /^Sys=/) {sub("Sys=", "", $i); sub("s", "", $i); c += $i}}}
    END {printf "%d | %d | %.2f", y, f, c * 1000 / n}'; }

AASM_CLIENT=off "$aasm" run exec --isolation none -- /bin/true >/dev/null 2>&1 || true
for _ in $(seq 1 240); do ls "$XDG_CACHE_HOME"/aasm/cds-*.jsa >/dev/null 2>&1 && break; sleep 0.5; done

echo "daemon GC: $rounds rounds x ${#variants[@]} variants, N=$n at 8 then at 32 clients, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| variant | round | idle MiB | after c8 | after c32 | young GCs | full GCs | GC CPU ms per launch |"
echo "|---|---|---|---|---|---|---|---|"
for r in $(seq 1 "$rounds"); do
    for v in "${variants[@]}"; do
        IFS='|' read -r name opts <<< "$v"
        log=$work/gc-$r-$name.log
        (cd / && AASM_JAVA_OPTS="$opts -Xlog:gc,gc+cpu:file=$log" "$aasm" daemon start >/dev/null)
        kpid=$(sed -n 's/.*running pid=\([0-9]*\) .*/\1/p' < <("$aasm" daemon status))
        for _ in $(seq 1 20); do "$client" run exec --isolation process -- /bin/true >/dev/null 2>&1 || true; done
        sleep 2
        idle=$(mib "$kpid"); mark=$(wc -l < "$log")
        burst 8 "$n"; a8=$(mib "$kpid")
        burst 32 "$n"; a32=$(mib "$kpid")
        "$aasm" daemon stop >/dev/null 2>&1 || true
        echo "| $name | $r | $idle | $a8 | $a32 | $(gcs "$log" "$mark" $((2 * n))) |"
    done
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

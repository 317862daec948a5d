#!/usr/bin/env bash
# Resident set of the resident kernel under JVM sizing variants, paired: every round starts one kernel per
# variant in turn (same machine minute, same load), with the variant's options in AASM_JAVA_OPTS (they come
# after DaemonStart.DAEMON_JVM, so they win) and its environment, then:
#   idle      RSS after 20 warm-up launches and 2 s of rest, its Pss (smaps_rollup) and anonymous part (RssAnon)
#   c8, c32   RSS after N confined /bin/true launches at 8, then 32 clients (bin/aasm-client), and launches/s
#   peak      VmHWM: the highest resident set of the kernel's life (the soak's worst moment)
#   rested    RSS after REST seconds (environment, default 45) of quiet after the phase at 32 clients: what a
#             kernel that goes back to sitting idle holds (connection threads gone after their 30 s keep-alive,
#             the heap shrunk by IdleCollector after its 35 s)
# A measurement, not a test (docs/resident.md, "Memory of the resident kernel").
#
# usage: distribution/bench/daemon-memory.sh [ROUNDS] [N] [DIST_DIR] < variants
#   variants: one a line, "name|JVM options|VAR=value ..." ("current||" measures DAEMON_JVM as it is)
set -euo pipefail

rounds=${1:-2}
rest=${REST:-45}
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

kib() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status"; }
# a field of the whole process's smaps_rollup (Pss: file pages shared with others divided among them), KiB
rollup() { awk -v k="$2" '$1 == k ":" {s += $2}
    END {print s + 0}' "/proc/$1/smaps_rollup"; }
burst() { # launches/s of $2 launches at $1 clients
    local s e
    s=$(date +%s%N)
    (cd "$work/cwd" && seq 1 "$2" | xargs -P "$1" -I{} "$client" run exec --isolation process -- /bin/true \
        >/dev/null 2>&1) || echo "warning: a launch failed" >&2
    e=$(date +%s%N)
    awk -v n="$2" -v ns=$((e - s)) 'BEGIN {printf "%.1f", n / (ns / 1e9)}'
}

# the AppCDS archive first (the kernel maps it, as on any machine after the first run): every variant alike
AASM_CLIENT=off "$aasm" run exec --isolation none -- /bin/true >/dev/null 2>&1 || true
for _ in $(seq 1 240); do ls "$XDG_CACHE_HOME"/aasm/cds-*.jsa >/dev/null 2>&1 && break; sleep 0.5; done
ls "$XDG_CACHE_HOME"/aasm/cds-*.jsa >/dev/null 2>&1 || echo "warning: no AppCDS archive was produced" >&2

echo "daemon memory: $rounds rounds x ${#variants[@]} variants, N=$n per phase, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| variant | round | idle MiB | idle Pss / anonymous MiB | after c8 MiB | after c32 MiB | peak MiB | threads | rested MiB (threads) | launches/s c8 / c32 |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for r in $(seq 1 "$rounds"); do
    for v in "${variants[@]}"; do
        IFS='|' read -r name opts envs <<< "$v"
        # shellcheck disable=SC2086 # envs is a list of VAR=value words on purpose
        (cd / && env $envs AASM_JAVA_OPTS="$opts" "$aasm" daemon start >/dev/null)
        kpid=$(sed -n 's/.*running pid=\([0-9]*\) .*/\1/p' < <("$aasm" daemon status))
        for _ in $(seq 1 20); do "$client" run exec --isolation process -- /bin/true >/dev/null 2>&1 || true; done
        sleep 2
        idle=$(kib "$kpid" VmRSS); ipss=$(rollup "$kpid" Pss); ianon=$(kib "$kpid" RssAnon)
        r8=$(burst 8 "$n"); after8=$(kib "$kpid" VmRSS)
        r32=$(burst 32 "$n"); after32=$(kib "$kpid" VmRSS)
        peak=$(kib "$kpid" VmHWM); thr=$(kib "$kpid" Threads)
        sleep "$rest"
        rested=$(kib "$kpid" VmRSS); rthr=$(kib "$kpid" Threads)
        "$aasm" daemon stop >/dev/null 2>&1 || true
        printf '| %s | %d | %.1f | %.1f / %.1f | %.1f | %.1f | %.1f | %s | %.1f (%s) | %s / %s |\n' "$name" "$r" "$(echo "$idle/1024" | bc -l)" \
            "$(echo "$ipss/1024" | bc -l)" "$(echo "$ianon/1024" | bc -l)" \
            "$(echo "$after8/1024" | bc -l)" "$(echo "$after32/1024" | bc -l)" "$(echo "$peak/1024" | bc -l)" \
            "$thr" "$(echo "$rested/1024" | bc -l)" "$rthr" "$r8" "$r32"
    done
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

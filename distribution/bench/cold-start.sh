#!/usr/bin/env bash
# Cold-start cost of one governed launch: wall time of
#   aasm run exec --isolation none -- /bin/true
# against /bin/true alone, median of N runs each (default 10), for a few launcher setups.
# A benchmark, not a test: numbers depend on the machine and its load. Runs the variants
# interleaved round-robin so background load hits every variant alike.
#
# usage: distribution/bench/cold-start.sh [RUNS] [DIST_DIR]
set -euo pipefail
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time; Debian package: time)" >&2; exit 2; }

runs=${1:-10}
here=$(cd "$(dirname "$0")" && pwd)
dist=${2:-$(ls -d "$here"/../target/aasm-*/ | grep -v '\.tar' | head -n 1)}
aasm=$dist/bin/aasm
[ -x "$aasm" ] || { echo "no built distribution at $dist (run mvn install first)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now_ms() { date +%s%N | cut -c1-13; }

# One run of a variant; prints "wall_ms cpu_ms" (cpu = user+sys of the whole process tree, which
# is far less sensitive to other load on the machine than wall time).
timed() {
    local start end
    start=$(now_ms)
    /usr/bin/time -f '%U %S' -o "$work/cpu" "$@" >/dev/null 2>&1 || true
    end=$(now_ms)
    echo "$((end - start)) $(awk '{printf "%d", ($1 + $2) * 1000}' "$work/cpu")"
}

run_variant() {
    local c
    case $1 in
        true)         timed /bin/true ;;
        java-hello)   timed java -Xshare:auto -XX:TieredStopAtLevel=1 -version ;;
        fresh-cache)  c=$(mktemp -d -p "$work")
                      timed env XDG_CACHE_HOME="$c" AASM_CDS=off "$aasm" run exec --isolation none -- /bin/true
                      rm -rf "$c" ;;
        reused-cache) timed env XDG_CACHE_HOME="$work/reused" AASM_CDS=off "$aasm" run exec --isolation none -- /bin/true ;;
        reused+cds)   timed env XDG_CACHE_HOME="$work/cds" "$aasm" run exec --isolation none -- /bin/true ;;
    esac
}

variants=(true java-hello fresh-cache reused-cache reused+cds)

# warm-up: fill the reused cache, and create the AppCDS archive (the first run trains it in the background)
XDG_CACHE_HOME=$work/reused AASM_CDS=off "$aasm" run exec --isolation none -- /bin/true 2>/dev/null
XDG_CACHE_HOME=$work/cds "$aasm" run exec --isolation none -- /bin/true 2>/dev/null
for _ in $(seq 1 120); do
    ls "$work"/cds/aasm/cds-*.jsa >/dev/null 2>&1 && break
    sleep 0.5
done
ls "$work"/cds/aasm/cds-*.jsa >/dev/null 2>&1 || echo "warning: no AppCDS archive was produced" >&2
XDG_CACHE_HOME=$work/cds "$aasm" run exec --isolation none -- /bin/true 2>/dev/null

declare -A wall cpu
for _ in $(seq 1 "$runs"); do
    for v in "${variants[@]}"; do
        read -r w c < <(run_variant "$v")
        wall[$v]="${wall[$v]:-} $w"
        cpu[$v]="${cpu[$v]:-} $c"
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print int((a[NR/2]+a[NR/2+1])/2)}'; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -n 1), $runs runs each"
printf '%-14s %12s %12s   %s\n' variant wall_median cpu_median wall_samples_ms
for v in "${variants[@]}"; do
    printf '%-14s %9s ms %9s ms  %s\n' "$v" "$(echo "${wall[$v]}" | median)" "$(echo "${cpu[$v]}" | median)" "${wall[$v]}"
done
echo "added by aasm (reused+cds, median wall): $(( $(echo "${wall[reused+cds]}" | median) - $(echo "${wall[true]}" | median) )) ms"
echo "where the time goes (one run, -Daasm.timing=true; wall, then CPU of the whole JVM):"
XDG_CACHE_HOME=$work/cds AASM_JAVA_OPTS=-Daasm.timing=true "$aasm" run exec --isolation none -- /bin/true 2>&1 | grep -E 'timing(-cpu)?:' || true

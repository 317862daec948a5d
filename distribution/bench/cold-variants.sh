#!/usr/bin/env bash
# Cold `run exec` under JVM option variants, paired: the variants run round-robin (same minute, same load),
# each as `AASM_CLIENT=off AASM_JAVA_OPTS=<options> aasm run exec --isolation process -- /bin/true` in one
# shared cache (bundle cache and AppCDS archive made before timing starts). Prints the median wall and CPU
# (user + system of the whole tree) per variant and the load. A measurement, not a test (docs/benchmarks.md,
# "Cold start").
#
# usage: distribution/bench/cold-variants.sh [RUNS] [DIST_DIR] < variants
#   variants: one a line, "name|JVM options[|DIST_DIR]" ("current|" measures bin/aasm as it is); a third field
#   times another distribution in the same loop (old build against new: "old||/path/to/aasm-x.y.z")
#   COLD_LAUNCH overrides the command (default: run exec --isolation process -- /bin/true)
set -euo pipefail
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time; Debian package: time)" >&2; exit 2; }

runs=${1:-10}
here=$(cd "$(dirname "$0")" && pwd)
dist=${2:-$(ls -d "$here"/../target/aasm-*/ | grep -v '\.tar' | head -n 1)}
aasm=$dist/bin/aasm
[ -x "$aasm" ] || { echo "no built distribution at $dist (run mvn install first)" >&2; exit 2; }
mapfile -t variants
[ "${#variants[@]}" -gt 0 ] || { echo "no variants on stdin" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache AASM_CLIENT=off
read -r -a launch <<< "${COLD_LAUNCH:-run exec --isolation process -- /bin/true}"
opts() { local rest=${1#*|}; echo "${rest%%|*}"; }
bin() { local rest=${1#*|}; case $rest in *'|'*) echo "${rest#*|}/bin/aasm" ;; *) echo "$aasm" ;; esac; }

declare -A seen
for v in "${variants[@]}"; do
    b=$(bin "$v")
    [ -n "${seen[$b]:-}" ] && continue
    seen[$b]=1
    "$b" "${launch[@]}" 2>"$work/check" || { echo "a cold launch fails here ($b):" >&2; cat "$work/check" >&2; exit 2; }
    # the archive of each installation (keyed on its home) is written in the background by its first run
    for _ in $(seq 1 240); do [ "$(ls "$XDG_CACHE_HOME"/aasm/cds-*.jsa 2>/dev/null | wc -l)" -ge "${#seen[@]}" ] && break; sleep 0.5; done
done
[ "$(ls "$XDG_CACHE_HOME"/aasm/cds-*.jsa 2>/dev/null | wc -l)" -ge "${#seen[@]}" ] || echo "warning: an AppCDS archive is missing" >&2
for v in "${variants[@]}"; do AASM_JAVA_OPTS="$(opts "$v")" "$(bin "$v")" "${launch[@]}" 2>/dev/null || true; done # warm page cache

declare -A wall cpu rss failed
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for _ in $(seq 1 "$runs"); do
    for v in "${variants[@]}"; do
        name=${v%%|*}
        o=$(opts "$v")
        b=$(bin "$v")
        s=$(date +%s%N)
        rc=0
        AASM_JAVA_OPTS="$o" /usr/bin/time -f '%U %S %M' -o "$work/cpu" "$b" "${launch[@]}" >/dev/null 2>&1 || rc=$?
        e=$(date +%s%N)
        # a variant whose JVM refuses an option is fast and wrong: count it, never time it silently
        [ "$rc" = 0 ] || { failed[$name]=$(( ${failed[$name]:-0} + 1 )); continue; }
        wall[$name]+="$(( (e - s) / 1000000 )) "
        cpu[$name]+="$(awk 'END {printf "%d", ($1 + $2) * 1000}' "$work/cpu") "
        rss[$name]+="$(awk 'END {printf "%d", $3 / 1024}' "$work/cpu") "
    done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
echo "cold ${launch[*]}: $runs runs per variant, round-robin; load before $load0, after $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| %-24s | %14s | %13s | %14s | %6s | %s |\n' variant "wall median ms" "cpu median ms" "peak RSS MiB" failed \
    "wall samples ms"
echo "|---|---|---|---|---|---|"
for v in "${variants[@]}"; do
    name=${v%%|*}
    printf '| %-24s | %14s | %13s | %14s | %6s | %s |\n' "$name" "$(echo "${wall[$name]:-}" | median)" \
        "$(echo "${cpu[$name]:-}" | median)" "$(echo "${rss[$name]:-}" | median)" "${failed[$name]:-0}" "${wall[$name]:-}"
done
# Paired: round by round against the first variant (same minute, same load), so a difference smaller than the
# spread between rounds still shows as the count of rounds it went one way (rounds with a failed run are skipped).
first=${variants[0]%%|*}
read -r -a c0 <<< "${cpu[$first]:-}"
read -r -a w0 <<< "${wall[$first]:-}"
for v in "${variants[@]:1}"; do
    name=${v%%|*}
    read -r -a c1 <<< "${cpu[$name]:-}"
    read -r -a w1 <<< "${wall[$name]:-}"
    [ "${#c1[@]}" = "${#c0[@]}" ] || { echo "$name: failed runs, no paired figures"; continue; }
    dc= ; dw= ; lc=0; lw=0
    for i in "${!c0[@]}"; do
        dc+="$(( c1[i] - c0[i] )) "; dw+="$(( w1[i] - w0[i] )) "
        [ "${c1[i]}" -lt "${c0[i]}" ] && lc=$((lc + 1))
        [ "${w1[i]}" -lt "${w0[i]}" ] && lw=$((lw + 1))
    done
    echo "$name - $first, paired median: cpu $(echo "$dc" | median) ms (lower in $lc of ${#c0[@]} rounds)," \
        "wall $(echo "$dw" | median) ms (lower in $lw of ${#c0[@]}); cpu samples: $first ${cpu[$first]}/ $name ${cpu[$name]}"
done

#!/usr/bin/env bash
# The resident kernel's first call, paired: arms alternate round by round, each round starting a kernel of its own
# (own runtime, cache and HOME directories, the bundle cache and probe results made once before timing), waiting
# DELAY seconds after `daemon start` returned, then timing the first and the second `aasm-client run exec
# --isolation process -- /bin/true`. A measurement, not a test (docs/benchmarks.md, "Cold start and the resident
# kernel's memory").
#
# usage: distribution/bench/first-call.sh [ROUNDS] [DELAY] < arms
#   arms: one a line, "name|JVM options[|DIST_DIR]", e.g. "warm|" and "nowarm|-Daasm.resident.warmup=false"
set -euo pipefail
rounds=${1:-8}
delay=${2:-2}
here=$(cd "$(dirname "$0")" && pwd)
default_dist=$(ls -d "$here"/../target/aasm-*/ | grep -v '\.tar\.gz' | head -n 1)
mapfile -t arms
[ "${#arms[@]}" -gt 0 ] || { echo "no arms on stdin" >&2; exit 2; }
work=$(mktemp -d)
trap 'for d in "$work"/*/; do [ -d "$d/run" ] && XDG_RUNTIME_DIR=$d/run XDG_CACHE_HOME=$d/cache HOME=$d/home "$(cat "$d/dist")/bin/aasm" daemon stop >/dev/null 2>&1 || true; done; rm -rf "$work"' EXIT
opts() { local rest=${1#*|}; echo "${rest%%|*}"; }
dist() { local rest=${1#*|}; case $rest in *'|'*) echo "${rest#*|}" ;; *) echo "$default_dist" ;; esac; }
ms() { echo $(( ($2 - $1) / 1000000 )); }

declare -A first second ready
for a in "${arms[@]}"; do
    name=${a%%|*}
    d=$work/$name
    mkdir -p "$d/run" "$d/cache" "$d/home"
    chmod 0711 "$d" "$d/run"
    dist "$a" > "$d/dist"
    # the bundle cache, the AppCDS archive and the probe results, made once, as on any machine after first use
    XDG_RUNTIME_DIR=$d/run XDG_CACHE_HOME=$d/cache HOME=$d/home AASM_CLIENT=off \
        "$(dist "$a")/bin/aasm" run exec --isolation process -- /bin/true >/dev/null 2>&1
done
sleep 5 # the archive is written in the background by the first run
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq 1 "$rounds"); do
    for a in "${arms[@]}"; do
        name=${a%%|*}
        d=$work/$name
        export XDG_RUNTIME_DIR=$d/run XDG_CACHE_HOME=$d/cache HOME=$d/home
        b=$(dist "$a")/bin
        s=$(date +%s%N)
        AASM_JAVA_OPTS="$(opts "$a")" "$b/aasm" daemon start >/dev/null
        e=$(date +%s%N)
        ready[$name]+="$(ms "$s" "$e") "
        sleep "$delay"
        s=$(date +%s%N); "$b/aasm-client" run exec --isolation process -- /bin/true >/dev/null 2>&1; e=$(date +%s%N)
        first[$name]+="$(ms "$s" "$e") "
        s=$(date +%s%N); "$b/aasm-client" run exec --isolation process -- /bin/true >/dev/null 2>&1; e=$(date +%s%N)
        second[$name]+="$(ms "$s" "$e") "
        "$b/aasm" daemon stop >/dev/null
    done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
echo "first call, $rounds rounds, ${delay}s after \`daemon start\` returned; load before $load0, after $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| arm | start to ready median ms | first call median ms | second call median ms | first call samples ms |"
echo "|---|---|---|---|---|"
for a in "${arms[@]}"; do
    name=${a%%|*}
    echo "| $name | $(echo "${ready[$name]}" | median) | $(echo "${first[$name]}" | median) | $(echo "${second[$name]}" | median) | ${first[$name]}|"
done

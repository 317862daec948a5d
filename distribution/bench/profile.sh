#!/bin/bash
# Where a resident kernel's CPU goes under load: a benchmark tool, not a test.
#   distribution/bench/profile.sh DIST_DIR WORK_DIR [EXTRA_JAVA_OPTS]
# Starts a resident kernel of its own (private runtime, cache and HOME under WORK_DIR) with a JFR recording
# (profile settings, plus JFR_EVENTS: e.g. `jdk.ExecutionSample#period=1ms,jdk.ObjectAllocationSample#throttle=500/s`)
# that starts after DELAY s (default 15: start-up and warm-up left out; at least 1) and ends after DUR s (default 40; the kernel
# allows no attach, so the recording ends by its duration), drives WARM (default 30) warm-up launches and then C
# (default 8) parallel aasm-client launches of /bin/true under stages.py's benchmark policy, N (default 100) per
# client, and prints the kernel's CPU per launch from /proc (its own threads; the launchers and programs it reaped).
# The measured phase's wall-clock window (epoch ms) is written to WORK_DIR/window: with DELAY=0 and a DUR that
# outlasts the warm-up, `JfrTop.java REC TOP FROM TO` keeps only the samples of that window.
# Then: java distribution/bench/JfrTop.java WORK_DIR/kernel.jfr [TOP [FROM TO]]
set -eu
D=$(cd "$1" && pwd); W=$2; extra=${3:-}
C=${C:-8}; N=${N:-100}
rm -rf "$W"; mkdir -p "$W/run" "$W/cache" "$W/home" "$W/scratch"; chmod 700 "$W/run"; W=$(cd "$W" && pwd)
export XDG_RUNTIME_DIR=$W/run XDG_CACHE_HOME=$W/cache HOME=$W/home
events=${JFR_EVENTS:+,$JFR_EVENTS}
export AASM_JAVA_OPTS="-XX:StartFlightRecording=settings=profile$events,delay=${DELAY:-15}s,duration=${DUR:-40}s,filename=$W/rec.jfr $extra"
read=$(for p in /usr /etc /lib /lib64 /bin /sbin; do [ -e "$p" ] && printf '%s, ' "$p"; done); read=${read%, }
cat > "$W/policy.yaml" <<P
apiVersion: aasm/v1
kind: Policy
metadata: {name: aasm-profile}
isolation: process
filesystem:
  read: {allow: [$read]}
  write: {allow: [$W/scratch, /dev/null]}
network:
  egress:
    allow: [{host: loopback, port: 9}]
syscalls:
  deny: [ptrace, mount, umount2, kexec_load, init_module, bpf, perf_event_open, keyctl, add_key, request_key, swapon, swapoff, reboot]
process: {max: 512}
credentials: {delegate: [PATH, HOME, LANG]}
resources: {memory: 2GiB, open_files: 1024, processes: 512}
P
pid=$("$D/bin/aasm" daemon start | grep -o 'pid=[0-9]*' | cut -d= -f2)
# without a kernel every call would run cold: a different benchmark, and a heavy one
[ -n "$pid" ] || { echo "the resident kernel did not start (a JFR delay must be at least 1 s)" >&2; exit 1; }
trap '"$D/bin/aasm" daemon stop >/dev/null 2>&1 || true' EXIT
call() {
    cd "$W/scratch" && "$D/bin/aasm-client" run exec --isolation process --isolation-backend aasm-native \
        --policy "$W/policy.yaml" -- /bin/true >/dev/null 2>&1 || echo "a launch failed"
}
export -f call; export D W
seq "${WARM:-30}" | xargs -P"$C" -I{} bash -c call | sort | uniq -c
s0=$(awk '{print $14, $15, $16 + $17}' "/proc/$pid/stat")
t0=$(date +%s.%N)
from=$(date +%s%3N)
seq $((C * N)) | xargs -P"$C" -I{} bash -c call | sort | uniq -c
t1=$(date +%s.%N)
echo "$from $(date +%s%3N)" > "$W/window"
sleep 0.5
s1=$(awk '{print $14, $15, $16 + $17}' "/proc/$pid/stat")
tck=$(getconf CLK_TCK)
python3 - "$s0" "$s1" $((C * N)) "$t0" "$t1" "$tck" <<'PY'
import sys
a, b, n, t0, t1, tck = sys.argv[1].split(), sys.argv[2].split(), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
user, system, kids = [(float(y) - float(x)) * 1000 / tck / n for x, y in zip(a, b)]
print("%d launches, %.1f launches/s; kernel CPU per launch %.2f ms in its JVM (%.2f user, %.2f system), %.2f ms in"
      " the launchers and programs it reaped; load %s" % (n, n / (t1 - t0), user + system, user, system, kids,
                                                          "/".join(open("/proc/loadavg").read().split()[:3])))
PY
# the recording is written when its duration ends; the kernel's exit must not be what ends it
for _ in $(seq "${WAIT:-900}"); do [ -s "$W/rec.jfr" ] && break; sleep 1; done
sleep 2; cp "$W/rec.jfr" "$W/kernel.jfr"
echo "recording: $W/kernel.jfr"

#!/bin/sh
# sandlock peer arm: the sandlock tool itself (no aasm), with a policy comparable to policy/bench-policy.yaml.in
# (METHODOLOGY.md amendment 5). AASM_SANDLOCK_BIN, AASM_BENCH_READ (colon-separated read paths, the tree
# included), AASM_BENCH_SCRATCH and AASM_BENCH_PORT come from the harness. sandlock's own default syscall
# blocklist stands in for the policy's deny list (it covers ptrace, mount, bpf, kexec, module loading and more).
set -e
args=
old_ifs=$IFS; IFS=:
for p in $AASM_BENCH_READ; do args="$args -r $p"; done
IFS=$old_ifs
# shellcheck disable=SC2086 # $args is a list of words on purpose (paths hold no spaces in the harness)
exec "$AASM_SANDLOCK_BIN" run $args -w "$AASM_BENCH_SCRATCH" -w /dev/null \
    --net-allow "127.0.0.1:$AASM_BENCH_PORT" -P 512 --max-open-files 1024 -m 2G \
    --clean-env --env "PATH=${PATH:-/usr/bin:/bin}" --env "HOME=${HOME:-/}" --env "LANG=${LANG:-C}" \
    --cwd "$AASM_BENCH_SCRATCH" -- "$@"

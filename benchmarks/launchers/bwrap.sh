#!/bin/sh
# bubblewrap peer arm with a policy comparable to policy/bench-policy.yaml.in (METHODOLOGY.md section 4).
# AASM_BENCH_TREE (read-only), AASM_BENCH_SCRATCH (writable) and AASM_BENCH_SHARE_NET (P5 only) come from the harness.
set -- --ro-bind /usr /usr --ro-bind /etc /etc \
    --ro-bind-try /bin /bin --ro-bind-try /sbin /sbin --ro-bind-try /lib /lib --ro-bind-try /lib64 /lib64 \
    ${AASM_BENCH_EXTRA_RO:+--ro-bind "$AASM_BENCH_EXTRA_RO" "$AASM_BENCH_EXTRA_RO"} \
    --ro-bind "$AASM_BENCH_TREE" "$AASM_BENCH_TREE" --bind "$AASM_BENCH_SCRATCH" "$AASM_BENCH_SCRATCH" \
    --dev /dev --proc /proc --unshare-all ${AASM_BENCH_SHARE_NET:+--share-net} \
    --die-with-parent --new-session --cap-drop ALL \
    --clearenv --setenv PATH "${PATH:-/usr/bin:/bin}" --setenv HOME "${HOME:-/}" --setenv LANG "${LANG:-C}" \
    --chdir "$AASM_BENCH_SCRATCH" -- "$@"
exec bwrap "$@"

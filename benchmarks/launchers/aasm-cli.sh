#!/bin/sh
# A confined arm through the whole CLI path. AASM_BIN, AASM_BENCH_BACKEND and AASM_BENCH_POLICY come from the harness;
# AASM_BENCH_ISOLATION is the isolation class (process, or container for the container arm).
exec "$AASM_BIN" run exec --isolation "${AASM_BENCH_ISOLATION:-process}" --isolation-backend "$AASM_BENCH_BACKEND" \
    --policy "$AASM_BENCH_POLICY" -- "$@"

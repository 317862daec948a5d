#!/bin/sh
# A confined arm through the whole CLI path. AASM_BIN, AASM_BENCH_BACKEND and AASM_BENCH_POLICY come from the harness.
exec "$AASM_BIN" run exec --isolation process --isolation-backend "$AASM_BENCH_BACKEND" \
    --policy "$AASM_BENCH_POLICY" -- "$@"

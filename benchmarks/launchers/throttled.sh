#!/bin/sh
# Negative control: the unconfined arm plus an injected delay the harness must detect and grade RED.
sleep "${AASM_BENCH_DELAY_S:-0.5}"
exec "$@"

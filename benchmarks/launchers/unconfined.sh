#!/bin/sh
# Baseline arm: no isolation at all.
exec "$@"

#!/bin/sh
# P3 repository traversal: list every file, then search every file's content, over a read-only tree.
set -e
n=$(find "$1" -type f | wc -l)
[ "$n" -gt 0 ]
grep -rl 'needle' "$1" > /dev/null

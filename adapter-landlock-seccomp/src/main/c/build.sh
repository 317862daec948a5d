#!/bin/sh
# Builds the static aasm-launch into $1 (e.g. target/classes/native/linux-x86_64) with its .sha256.
# Run by the Maven build (exec-maven-plugin, generate-resources). Fails loudly; never ships a stale binary.
set -eu
out="$1"
src="$(dirname "$0")"
cc="${CC:-cc}"
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "aasm-launch: no C compiler '$cc' on PATH (install gcc, e.g. apt-get install gcc libc6-dev)" >&2
    exit 1
fi
libc_a="$("$cc" -print-file-name=libc.a)"
if [ ! -f "$libc_a" ]; then
    echo "aasm-launch: static linking needs libc.a, which '$cc' cannot find." >&2
    echo "aasm-launch: install the C library's static archive (Debian/Ubuntu: apt-get install libc6-dev)." >&2
    exit 1
fi
mkdir -p "$out"
rm -f "$out/aasm-launch" "$out/aasm-launch.sha256"
"$cc" -static -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -o "$out/aasm-launch.tmp" "$src/aasm-launch.c" "$src/plan.c"
strip "$out/aasm-launch.tmp" 2>/dev/null || true
mv "$out/aasm-launch.tmp" "$out/aasm-launch"
(cd "$out" && sha256sum aasm-launch > aasm-launch.sha256)

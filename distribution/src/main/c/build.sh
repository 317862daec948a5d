#!/bin/sh
# Builds the static aasm-client into $1 (the distribution's bin/). Run by the Maven build
# (exec-maven-plugin); fails loudly, never ships a stale binary. Same toolchain as aasm-launch.
set -eu
out="$1"
src="$(dirname "$0")"
cc="${CC:-cc}"
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "aasm-client: no C compiler '$cc' on PATH (install gcc, e.g. apt-get install gcc libc6-dev)" >&2
    exit 1
fi
if [ ! -f "$("$cc" -print-file-name=libc.a)" ]; then
    echo "aasm-client: static linking needs libc.a (Debian/Ubuntu: apt-get install libc6-dev)" >&2
    exit 1
fi
mkdir -p "$out"
if [ -f "$out/aasm-client" ] && [ -z "$(find "$src" -type f -newer "$out/aasm-client")" ]; then
    exit 0
fi
tmp="$out/.aasm-client.$$"
"$cc" -static -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -pthread -o "$tmp" "$src/aasm-client.c"
strip "$tmp" 2>/dev/null || true
chmod 755 "$tmp"
mv "$tmp" "$out/aasm-client"

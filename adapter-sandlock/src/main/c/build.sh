#!/bin/sh
# Builds the static aasm-sandlock-guard into $1 (e.g. target/classes/native/linux-x86_64) with its .sha256.
# Run by the Maven build (exec-maven-plugin, generate-resources). Fails loudly; never ships a stale binary.
set -eu
out="$1"
src="$(dirname "$0")"
cc="${CC:-cc}"
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "aasm-sandlock-guard: no C compiler '$cc' on PATH (install gcc, e.g. apt-get install gcc libc6-dev)" >&2
    exit 1
fi
if [ ! -f "$("$cc" -print-file-name=libc.a)" ]; then
    echo "aasm-sandlock-guard: static linking needs libc.a (Debian/Ubuntu: apt-get install libc6-dev)" >&2
    exit 1
fi
mkdir -p "$out"
# Up to date (no source newer than the checksum file): leave the shipped pair alone.
if [ -f "$out/aasm-sandlock-guard" ] && [ -f "$out/aasm-sandlock-guard.sha256" ] \
        && [ -z "$(find "$src" -type f -newer "$out/aasm-sandlock-guard.sha256")" ]; then
    exit 0
fi
tmp="$out/.aasm-sandlock-guard.$$"
"$cc" -static -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -o "$tmp" "$src"/*.c
strip "$tmp" 2>/dev/null || true
sum="$(sha256sum "$tmp" | cut -d' ' -f1)"
printf '%s  aasm-sandlock-guard\n' "$sum" > "$tmp.sha256"
mv "$tmp" "$out/aasm-sandlock-guard"
mv "$tmp.sha256" "$out/aasm-sandlock-guard.sha256"

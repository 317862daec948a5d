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
# Up to date (no source newer than the checksum file): leave the shipped pair alone, so that a concurrent
# build of this module never sees it half-replaced.
if [ -f "$out/aasm-launch" ] && [ -f "$out/aasm-launch.sha256" ] && [ -z "$(find "$src" -type f -newer "$out/aasm-launch.sha256")" ]; then
    exit 0
fi
tmp="$out/.aasm-launch.$$"
"$cc" -static -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -o "$tmp" "$src/aasm-launch.c" "$src/plan.c" "$src/relay.c" "$src/view.c" "$src/authority.c" "$src/pty.c" "$src/canary.c" "$src/decisions.c" "$src/inject.c" "$src/zygote.c"
strip "$tmp" 2>/dev/null || true
sum="$(sha256sum "$tmp" | cut -d' ' -f1)"
printf '%s  aasm-launch\n' "$sum" > "$tmp.sha256"
mv "$tmp" "$out/aasm-launch"
mv "$tmp.sha256" "$out/aasm-launch.sha256"

#!/bin/sh
# Builds into $1 (e.g. target/classes/native/linux-x86_64):
#   aasm-container-guard (+ .sha256)  the static lifeline guard (GUARD.md)
#   aasm-container-init (+ .sha256)   the container's first process (GUARD.md)
#   aasm-container-relay (+ .sha256)  the transport relay of a mediated container (RELAY.md)
#   syscalls.txt                      "name number" of every syscall the C library's headers define here:
#                                     the universe the seccomp profile's allow list is cut from
# Run by the Maven build (exec-maven-plugin, generate-resources). Fails loudly; never ships a stale binary.
set -eu
out="$1"
src="$(dirname "$0")"
cc="${CC:-cc}"
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "aasm-container-guard: no C compiler '$cc' on PATH (install gcc, e.g. apt-get install gcc libc6-dev)" >&2
    exit 1
fi
if [ ! -f "$("$cc" -print-file-name=libc.a)" ]; then
    echo "aasm-container-guard: static linking needs libc.a (Debian/Ubuntu: apt-get install libc6-dev)" >&2
    exit 1
fi
mkdir -p "$out"
table="$out/.syscalls.$$"
echo '#include <sys/syscall.h>' | "$cc" -E -dM - \
    | awk '$1 == "#define" && $2 ~ /^__NR_[a-z0-9_]+$/ && $3 ~ /^[0-9]+$/ { sub("__NR_", "", $2); print $2, $3 }' \
    | sort -k2,2n > "$table"
if [ "$(wc -l < "$table")" -lt 200 ]; then
    echo "aasm-container-guard: <sys/syscall.h> defines too few syscalls (install linux-libc-dev)" >&2
    rm -f "$table"
    exit 1
fi
mv "$table" "$out/syscalls.txt"
# Each binary: rebuilt unless up to date (no source newer than its checksum file); never a stale one shipped.
for name in aasm-container-guard aasm-container-init aasm-container-relay; do
    if [ -f "$out/$name" ] && [ -f "$out/$name.sha256" ] && [ -z "$(find "$src" -type f -newer "$out/$name.sha256")" ]; then
        continue
    fi
    tmp="$out/.$name.$$"
    "$cc" -static -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -o "$tmp" "$src/$name.c"
    strip "$tmp" 2>/dev/null || true
    sum="$(sha256sum "$tmp" | cut -d' ' -f1)"
    printf '%s  %s\n' "$sum" "$name" > "$tmp.sha256"
    mv "$tmp" "$out/$name"
    mv "$tmp.sha256" "$out/$name.sha256"
done

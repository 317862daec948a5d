#!/bin/sh
# Builds the static guest agent into $1 (e.g. target/classes/native/linux-x86_64) with its .sha256.
# Run by the Maven build (exec-maven-plugin, generate-resources). Reproducible: no timestamps, no build
# paths in the binary (-ffile-prefix-map), stripped. Fails loudly without a C compiler or libc.a; never ships a
# stale binary.
# The agent compiles the plan's seccomp programs itself (filter.c), so it links libseccomp statically: the
# target architecture's libseccomp.a (libseccomp-dev, or libseccomp-dev:arm64 for CC=aarch64-linux-gnu-gcc).
# CC and STRIP name a cross toolchain (image/CrossAgent does, for the arm64 image).
set -eu
out="$1"
src="$(cd "$(dirname "$0")" && pwd -P)"
cc="${CC:-cc}"
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "aasm-guest-agent: no C compiler '$cc' on PATH (install gcc, e.g. apt-get install gcc libc6-dev)" >&2
    exit 1
fi
if [ ! -f "$("$cc" -print-file-name=libc.a)" ]; then
    echo "aasm-guest-agent: static linking needs libc.a (Debian/Ubuntu: apt-get install libc6-dev)" >&2
    exit 1
fi
if [ ! -f "$("$cc" -print-file-name=libseccomp.a)" ]; then
    # Not a build failure: the rest of aasm builds and runs without the VM boundary (README's first command needs
    # only a JDK, Maven and gcc). No agent means no guest image, and the VM backends report themselves unavailable
    # with that reason ("the bundle carries no guest agent"); a binary of an earlier build would be stale.
    echo "[aasm-vm] guest agent not built: it links libseccomp statically and '$cc' finds no libseccomp.a" \
        "(Debian: apt-get install libseccomp-dev, for arm64 libseccomp-dev:arm64); the VM backends will be unavailable"
    rm -f "$out/aasm-guest-agent" "$out/aasm-guest-agent.sha256"
    exit 0
fi
mkdir -p "$out"
if [ -f "$out/aasm-guest-agent" ] && [ -f "$out/aasm-guest-agent.sha256" ] \
        && [ -z "$(find "$src" -type f -newer "$out/aasm-guest-agent.sha256")" ]; then
    exit 0
fi
tmp="$out/.aasm-guest-agent.$$"
"$cc" -static -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -ffile-prefix-map="$src"=. \
    -Wl,--build-id=none -o "$tmp" "$src/agent.c" "$src/boot.c" "$src/frame.c" "$src/plan.c" "$src/view.c" \
    "$src/cage.c" "$src/canary.c" "$src/egress.c" "$src/filter.c" "$src/run.c" -l:libseccomp.a
"${STRIP:-strip}" "$tmp"
sum="$(sha256sum "$tmp" | cut -d' ' -f1)"
printf '%s  aasm-guest-agent\n' "$sum" > "$tmp.sha256"
mv "$tmp" "$out/aasm-guest-agent"
mv "$tmp.sha256" "$out/aasm-guest-agent.sha256"

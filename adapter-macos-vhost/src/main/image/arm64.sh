#!/bin/sh
# The arm64 guest's inputs, for the arm64 image (docs/vm.md, "The arm64 guest"); run by the Maven build
# (exec-maven-plugin, generate-resources) after the host's own agent:
#   arm64.sh <target dir> <agent out dir> <debs dir>
# 1. the guest agent cross-compiled (build.sh with aarch64-linux-gnu-gcc and libseccomp-dev:arm64's libseccomp.a)
#    into <agent out dir>, so the bundle ships it for an Apple-silicon Mac;
# 2. the newest Debian arm64 kernel package in <debs dir> (linux-image-<abi>-arm64_<version>_arm64.deb, which
#    .ci/run fetches with apt-get download) unpacked into <target dir>/arm64-kernel, with a dpkg-style status
#    stanza (its name, version and the .deb's SHA-256) that ImageMain records in image.json;
# 3. busybox-static:arm64 unpacked into <target dir>/arm64-userland (the boot test's programs: the guest cannot run
#    the host's x86_64 /bin/true).
# A build host without these says which is missing and why, builds nothing of arm64 and exits 0: the x86_64 image
# and everything else still build. Anything that fails once the inputs are there fails the build.
set -eu
target="$1"
agent_out="$2"
debs="$3"
guest="$(cd "$(dirname "$0")/../c/guest" && pwd -P)"
skip() {
    echo "[aasm-vm] arm64 guest image not built: $*" >&2
    # nothing of an earlier build stays behind to be shipped or booted as if it were this one's
    rm -rf "$target/arm64-kernel" "$target/arm64-userland" "$agent_out"
    exit 0
}
if [ "$(uname -m)" = aarch64 ]; then cc="${CC_AARCH64:-cc}"; strip_="${STRIP_AARCH64:-strip}"; else
    cc="${CC_AARCH64:-aarch64-linux-gnu-gcc}"; strip_="${STRIP_AARCH64:-aarch64-linux-gnu-strip}"; fi
command -v "$cc" >/dev/null 2>&1 || skip "no cross compiler '$cc' (apt-get install gcc-aarch64-linux-gnu" \
    "libc6-dev-arm64-cross)"
[ -f "$("$cc" -print-file-name=libseccomp.a)" ] || skip "'$cc' finds no arm64 libseccomp.a (dpkg" \
    "--add-architecture arm64; apt-get update; apt-get install libseccomp-dev:arm64)"
command -v dpkg-deb >/dev/null 2>&1 || skip "no dpkg-deb to unpack the arm64 packages"
kernel_deb="$(ls "$debs"/linux-image-*-arm64_*_arm64.deb 2>/dev/null | grep -v -- '-unsigned_' | sort -V | tail -n 1 || true)"
[ -n "$kernel_deb" ] || skip "no Debian arm64 kernel package in $debs (.ci/run fetches it: apt-get download" \
    "linux-image-<abi>-arm64:arm64 there)"
busybox_deb="$(ls "$debs"/busybox-static_*_arm64.deb 2>/dev/null | sort -V | tail -n 1 || true)"
[ -n "$busybox_deb" ] || skip "no busybox-static arm64 package in $debs (apt-get download busybox-static:arm64)"

CC="$cc" STRIP="$strip_" sh "$guest/build.sh" "$agent_out"

# Unpacked again only when the .deb changed: its SHA-256 is the stamp.
unpack() { # deb dir
    sum="$(sha256sum "$1" | cut -d' ' -f1)"
    if [ -f "$2/status" ] && grep -qx "SHA256: $sum" "$2/status"; then return 0; fi
    rm -rf "$2" "$2.tmp"
    mkdir -p "$2.tmp"
    dpkg-deb -x "$1" "$2.tmp"
    { dpkg-deb -f "$1" Package Version; echo "Status: unpacked by adapter-macos-vhost/src/main/image/arm64.sh"
      echo "Filename: $(basename "$1")"; echo "SHA256: $sum"; } > "$2.tmp/status"
    mv "$2.tmp" "$2"
}
unpack "$kernel_deb" "$target/arm64-kernel"
unpack "$busybox_deb" "$target/arm64-userland"
echo "[aasm-vm] arm64 inputs: agent $(cut -d' ' -f1 "$agent_out/aasm-guest-agent.sha256")," \
    "$(basename "$kernel_deb") sha256 $(sed -n 's/^SHA256: //p' "$target/arm64-kernel/status")," \
    "$(basename "$busybox_deb") sha256 $(sed -n 's/^SHA256: //p' "$target/arm64-userland/status")"

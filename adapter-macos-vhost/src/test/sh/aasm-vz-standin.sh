#!/bin/sh
# TEST ONLY: a stand-in for the aasm-vz helper on Linux. It speaks the helper's contract 1
# (src/main/swift/aasm-vz/CONTRACT.md) by running qemu-system-x86_64 with the configuration the real helper
# gives Virtualization.framework: the same kernel, initramfs and command line, the control port `ctl` on this
# process's own stdin and stdout, one virtiofs device per share named by its tag (virtiofsd behind each, as the
# helper has VZVirtioFileSystemDeviceConfiguration), read-only enforced by the host (a read-only bind under the
# daemon, in a mount namespace of its own, where the helper sets VZSharedDirectory readOnly), no network device,
# the configured memory and vCPUs. It differs from the helper in two ways: a parent-death signal (setpriv) where
# the helper watches its parent, and QEMU's exit status after boot. It needs root (virtiofsd's sandbox).
# Tests make variants by rewriting the MODE line: normal, no-entitlement (check and run exit 77) or
# run-no-entitlement (check passes, run exits 77), so each variant has its own digest.
MODE=normal
set -u
VIRTIOFSD=/usr/libexec/virtiofsd
[ -x "$VIRTIOFSD" ] || VIRTIOFSD=/usr/lib/qemu/virtiofsd
case "${1:-}" in
  check)
    if [ "$MODE" = no-entitlement ]; then
      echo "aasm-vz: this process is not signed with com.apple.security.virtualization" >&2
      exit 77
    fi
    command -v qemu-system-x86_64 >/dev/null || { echo "aasm-vz: qemu-system-x86_64 is not installed" >&2; exit 69; }
    [ -x "$VIRTIOFSD" ] || { echo "aasm-vz: virtiofsd is not installed (qemu-system-common)" >&2; exit 69; }
    echo "aasm-vz contract 1"
    exit 0 ;;
  run) ;;
  *) echo "usage: aasm-vz check | aasm-vz run (configuration on stdin)" >&2; exit 64 ;;
esac
# `read` takes one byte at a time from a pipe, so the control bytes after `end` stay unread for QEMU.
IFS= read -r magic || { echo "aasm-vz: no configuration on stdin" >&2; exit 64; }
[ "$magic" = "aasm-vz 1" ] || { echo "aasm-vz: unsupported contract: $magic" >&2; exit 64; }
if [ "$MODE" = no-entitlement ] || [ "$MODE" = run-no-entitlement ]; then
  echo "aasm-vz: this process is not signed with com.apple.security.virtualization" >&2
  exit 77
fi
kernel= initrd= cmdline= cpus=1 mem=512 n=0 ended=
run=$(mktemp -d "${TMPDIR:-/tmp}/aasm-vz-standin.XXXXXX") || exit 70
trap 'rm -rf "$run"' EXIT
# $1 host folder, $2 private mount point, $3 ro|rw, $4 daemon, $5 socket, $6 cache mode (as qemu/Virtiofsd.java)
view='mount --bind "$1" "$2" && { [ "$3" = rw ] || mount -o remount,bind,ro "$2"; } && exec "$4" --socket-path="$5" -o source="$2" -o cache="$6" -o sandbox=namespace -o log_level=warn'
set --
while IFS= read -r line; do
  key=${line%% *} val=${line#* }
  case $key in
    end) ended=1; break ;;
    kernel) kernel=$val ;;
    initrd) initrd=$val ;;
    cmdline) cmdline=$val ;;
    cpus) cpus=$val ;;
    memory_mib) mem=$val ;;
    share)
      tag=${val%% *} rest=${val#* }
      access=${rest%% *} path=${rest#* }
      case $access in
        ro) cache=always ;;
        rw) cache=none ;;
        *) echo "aasm-vz: bad share access: $access" >&2; exit 64 ;;
      esac
      mkdir "$run/m$n"
      setpriv --pdeathsig KILL -- unshare --mount --propagation private -- /bin/sh -c "$view" virtiofsd "$path" \
        "$run/m$n" "$access" "$VIRTIOFSD" "$run/v$n.sock" "$cache" </dev/null >/dev/null 2>>"$run/virtiofsd.log" &
      set -- "$@" -chardev "socket,id=v$n,path=$run/v$n.sock" -device "vhost-user-fs-pci,chardev=v$n,tag=$tag"
      n=$((n + 1)) ;;
    *) echo "aasm-vz: unknown configuration key: $key" >&2; exit 64 ;;
  esac
done
if [ -z "$ended" ] || [ -z "$kernel" ] || [ -z "$initrd" ]; then
  echo "aasm-vz: incomplete configuration" >&2
  exit 64
fi
i=0
while [ "$i" -lt "$n" ]; do # each daemon creates its socket once it listens
  tries=0
  until [ -S "$run/v$i.sock" ]; do
    tries=$((tries + 1))
    [ "$tries" -lt 2000 ] || { echo "aasm-vz: virtiofsd did not start: $(cat "$run/virtiofsd.log")" >&2; exit 70; }
    sleep 0.01
  done
  i=$((i + 1))
done
setpriv --pdeathsig KILL --no-new-privs -- qemu-system-x86_64 -accel tcg,tb-size=128 -M pc -cpu qemu64 \
  -smp "$cpus" -m "${mem}M" -nodefaults -no-user-config -display none -serial null -no-reboot \
  -sandbox on,obsolete=deny,elevateprivileges=deny,resourcecontrol=deny \
  -object "memory-backend-memfd,id=mem,size=${mem}M,share=on" -machine memory-backend=mem \
  -kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
  -device virtio-serial-pci,id=vser -chardev stdio,id=ctl,signal=off -device virtserialport,chardev=ctl,name=ctl \
  "$@"

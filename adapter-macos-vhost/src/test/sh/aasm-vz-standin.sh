#!/bin/sh
# TEST ONLY: a stand-in for the aasm-vz helper on Linux. It speaks the helper's contract 1
# (src/main/swift/aasm-vz/CONTRACT.md) by running qemu-system-x86_64 with the configuration the real helper
# gives Virtualization.framework: the same kernel, initramfs and command line, the control port `ctl` on this
# process's own stdin and stdout, one share per tag with read-only enforced by the host (QEMU's readonly=on
# where the helper sets VZSharedDirectory readOnly), no network device, the configured memory and vCPUs.
# It differs from the helper in three ways: 9p shares where the helper has virtiofs (the agent mounts 9p), a
# parent-death signal (setpriv) where the helper watches its parent, and QEMU's exit status after boot.
# Tests make variants by rewriting the MODE line: normal, no-entitlement (check and run exit 77) or
# run-no-entitlement (check passes, run exits 77), so each variant has its own digest.
MODE=normal
set -u
case "${1:-}" in
  check)
    if [ "$MODE" = no-entitlement ]; then
      echo "aasm-vz: this process is not signed with com.apple.security.virtualization" >&2
      exit 77
    fi
    command -v qemu-system-x86_64 >/dev/null || { echo "aasm-vz: qemu-system-x86_64 is not installed" >&2; exit 69; }
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
        ro) ro=,readonly=on ;;
        rw) ro= ;;
        *) echo "aasm-vz: bad share access: $access" >&2; exit 64 ;;
      esac
      esc=$(printf '%s' "$path" | sed 's/,/,,/g')
      set -- "$@" -fsdev "local,id=fs$n,path=$esc,security_model=none,multidevs=remap$ro" \
        -device "virtio-9p-pci,fsdev=fs$n,mount_tag=$tag"
      n=$((n + 1)) ;;
    *) echo "aasm-vz: unknown configuration key: $key" >&2; exit 64 ;;
  esac
done
if [ -z "$ended" ] || [ -z "$kernel" ] || [ -z "$initrd" ]; then
  echo "aasm-vz: incomplete configuration" >&2
  exit 64
fi
exec setpriv --pdeathsig KILL --no-new-privs -- qemu-system-x86_64 -accel tcg,tb-size=128 -M pc -cpu qemu64 \
  -smp "$cpus" -m "${mem}M" -nodefaults -no-user-config -display none -serial null -no-reboot \
  -sandbox on,obsolete=deny,elevateprivileges=deny,resourcecontrol=deny \
  -kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
  -device virtio-serial-pci,id=vser -chardev stdio,id=ctl,signal=off -device virtserialport,chardev=ctl,name=ctl \
  "$@"

#!/bin/sh
# TEST-ONLY STAND-IN. THIS IS NOT SANDLOCK AND CONFINES NOTHING.
# It exists for two checks that need a binary which answers like sandlock but does not confine: the
# probes must never grant a prevention claim to it, and prepare() refusals are decided before anything
# runs. It answers `--version` and `check` like sandlock 0.8.6, and for `run` it checks the option syntax
# aasm emits (--flag=value or --clean-env, then `--`) and runs the program as its child, ignoring every
# option. Supervision and confinement are tested against the real sandlock only.
case "$1" in
  --version) echo "sandlock 0.8.6"; exit 0 ;;
  check) echo "Landlock ABI: 7 (stand-in, not measured)"; echo "Status: OK"; exit 0 ;;
  run) shift ;;
  *) echo "error: stand-in supports only --version, check and run" >&2; exit 2 ;;
esac
while [ $# -gt 0 ]; do
  case "$1" in
    --) shift; break ;;
    --clean-env) shift ;;
    --*=*) shift ;;
    *) echo "error: unexpected argument '$1' (aasm must emit --flag=value)" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "Error: no command" >&2; exit 1; }
# Run as a child, like sandlock does. dash exports PWD on its own; drop it so the program's
# environment is exactly what aasm started this process with (the stand-in is never given PWD).
/usr/bin/env -u PWD "$@"
exit $?

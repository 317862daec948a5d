#!/bin/sh
# P4 process spawn storm: N sequential fork+exec+wait of /bin/true.
i=0
while [ "$i" -lt "$1" ]; do
    /bin/true || exit 1
    i=$((i + 1))
done

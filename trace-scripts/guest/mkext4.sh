#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest: mkext4.sh DEV DIR - make an ext4 on DEV (an emulated disk, 64 MiB
# with its journal, the inode tables and journal written now rather than by
# a background thread during a measurement) and mount it on DIR. The one
# place the guest's test file systems are made (bench workloads on
# /mnt/emudN, tests/guest/41-io-wait-fsync.t). mke2fs is called by its path:
# busybox's applet has no ext4. On failure, mke2fs's or mount's messages go
# to stderr and the status is 1; nothing stays mounted.
set -u
[ $# = 2 ] || { echo "usage: mkext4.sh DEV DIR" >&2; exit 2; }
dev=$1 dir=$2
log=$(mktemp)
mkdir -p "$dir"
if /usr/sbin/mke2fs -t ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 \
	"$dev" 16384 > "$log" 2>&1 && mount -t ext4 "$dev" "$dir" 2>> "$log"; then
	rm -f "$log"
	exit 0
fi
echo "mkext4.sh: no ext4 on $dev at $dir:" >&2
cat "$log" >&2
rm -f "$log"
exit 1

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# workload.sh WORKLOAD SECONDS - idle patterns for record.sh
#
#   timers  periodic sleepers at 1 ms, 7 ms and 100 ms: idle periods the
#           next timer predicts exactly
#   io      on every emulated disk (/dev/emud*), 4 KiB O_DIRECT
#           reads in bursts of 16 with 3 ms pauses: idle periods that end
#           with an IO completion, which no timer predicts
#   mixed   both at once (the default of `make run`)
#   idle    nothing: the CPUs idle between the kernel's own timers
set -u
work=${1:-mixed} secs=${2:-10}
pids=

timers() {
	for p in 1000 7000 100000; do
		( while :; do usleep $p; done ) &
		pids="$pids $!"
	done
}

io() {
	n=0
	for b in /sys/block/emud*; do
		[ -e "$b" ] || continue
		dev=/dev/${b##*/}
		( while :; do
			dd if="$dev" of=/dev/null bs=4096 count=16 iflag=direct \
				skip=$((RANDOM % 16000)) 2>/dev/null
			usleep 3000
		done ) &
		pids="$pids $!"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || echo "workload.sh: no emulated disks (DISKS=...): no IO" >&2
}

case "$work" in
timers) timers ;;
io) io ;;
mixed) timers; io ;;
idle) ;;
*) echo "workload.sh: unknown workload $work (timers, io, mixed, idle)" >&2; exit 2 ;;
esac
sleep "$secs"
[ -n "$pids" ] && kill $pids 2>/dev/null
wait 2>/dev/null
exit 0

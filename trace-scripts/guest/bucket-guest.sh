#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bucket-guest.sh READS - one reader per emulated disk, for the bucket
# table (make bucket-table, design/io-latency.md "The bucket table").
#
# For each disk of DISKS in turn (/dev/emud0, emud1, ... named by
# SIP_DISKS): disklat reads it READS times (4 KiB O_DIRECT at random
# offsets, one read outstanding) while io_latency:io_latency_wait (the
# reader's IO waits, per task), block:block_rq_issue/block_rq_complete
# (the requests, per device) and io_latency:io_latency_request (the
# kernel's per-device predictions) are traced. The trace text goes to
# /results/bucket/<index>-<disk>.txt, disklat's summary line to
# /results/bucket/<index>-<disk>.lat. The host replays both
# (trace-scripts/bench/bucket-table.py).
set -u
reads=${1:?usage: bucket-guest.sh READS}
T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
out=/results/bucket
mkdir -p $out

events="block/block_rq_issue block/block_rq_complete"
if [ -d $T/events/io_latency/io_latency_wait ]; then
	events="$events io_latency/io_latency_wait"
else
	echo "bucket-guest: no io_latency_wait on this kernel: per-device only" >&2
fi
# The kernel's own per-device predictions, when booted with
# sched_io_latency=device (make bucket-table does so).
[ -d $T/events/io_latency/io_latency_request ] &&
	events="$events io_latency/io_latency_request"

# Large enough for READS reads: about 3 lines of 150 bytes per read.
echo $(( (reads * 500 / 1024 + 1024) / $(grep -c ^processor /proc/cpuinfo) )) > $T/buffer_size_kb
i=0
rc=0
for disk in $SIP_DISKS; do
	dev=/dev/emud$i
	echo 0 > $T/tracing_on
	echo > $T/trace
	for e in $events; do echo 1 > $T/events/$e/enable; done
	echo 1 > $T/tracing_on
	if ! disklat $dev "$reads" > $out/$i-$disk.lat; then
		echo "bucket-guest: disklat $dev failed" >&2
		rc=1
	fi
	echo 0 > $T/tracing_on
	for e in $events; do echo 0 > $T/events/$e/enable; done
	cat $T/trace > $out/$i-$disk.txt
	if grep -q 'LOST.*EVENTS' $out/$i-$disk.txt; then
		echo "bucket-guest: events lost on $dev: raise the buffer" >&2
		rc=1
	fi
	echo "bucket-guest: $disk: $(cat $out/$i-$disk.lat)"
	i=$((i + 1))
done
exit $rc

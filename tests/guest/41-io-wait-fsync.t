#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=none SMP=2 DISKS=2ms APPEND=sched_io_latency=task TIMEOUT=300
# SPDX-License-Identifier: GPL-2.0
#
# Only the IO waits that a device ends are learnt by the per-task tracking
# (sched_io_latency=task; design/io-latency.md, "What counts as an IO
# wait"). io_schedule() also brackets waits that
# measure no device: mutex_lock_io(), blk-throttle, and the dirty page
# throttling of balance_dirty_pages(), which sleeps in io_schedule_timeout()
# until its timer. Buffered writes through ext4 on the 2 ms disk, with the
# dirty limit at 256 KiB and an fsync at the end of each file, give both
# kinds: the writer is throttled while it writes, then submits its pages in
# fsync and waits for their writeback, which ext4 completes from its end-io
# workqueue, outside of the block layer's completion section.
#
# From io_latency_wait (learnt, and wake: none when no wake-up ended the
# wait, timer when its timeout did, completion when a wake-up came from
# within a block request completion, other otherwise), per writer process
# (a new task, so it starts with nothing learnt):
#  - the fields exist;
#  - the waits that no wake-up or their timer ended (throttling) are never
#    learnt, and there are some;
#  - the writer's woken waits are learnt: at least 3 in 4 of them (before
#    the submitter rule, 2 of 132 waits were learnt: the deferred
#    completions were not);
#  - no wait of a writer was predicted before its first learnt wait: the
#    throttling sleeps before it taught nothing (before this rule a 4 ms
#    throttle sleep was predicted for the next wait).
. /sip/tests/lib/tap.sh
T=/sys/kernel/tracing
EV=$T/events/io_latency/io_latency_wait
FILES=8
plan 5
if [ ! -d "$EV" ]; then
	skip_n 5 "io wait rule" "no io_latency_wait tracepoint on $SIP_KERNEL"
	exit 0
fi

grep -q 'field:int learnt' $EV/format && grep -q 'field:int wake' $EV/format
ok $? "io_latency_wait reports whether the wait was learnt and how it ended"

if ! /sip/trace-scripts/guest/mkext4.sh /dev/emud0 /mnt 2> /tmp/mkfs.log; then
	fail "ext4 on the 2 ms disk" "$(cat /tmp/mkfs.log)"
	skip_n 3 "io wait rule" "no file system"
	exit 0
fi
pass "ext4 with its journal on the 2 ms disk"

echo 262144 > /proc/sys/vm/dirty_bytes
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $EV/enable
echo 1 > $T/tracing_on
i=0
while [ $i -lt $FILES ]; do
	dd if=/dev/zero of=/mnt/f$i bs=64k count=64 conv=fsync 2> /dev/null
	i=$((i + 1))
done
echo 0 > $T/tracing_on
echo 0 > $EV/enable
umount /mnt

# "task predicted actual learnt wake" for the writers' waits, in trace order.
sed -n 's/^ *\(dd-[0-9]*\) .*predicted_ns=\([0-9]*\) actual_ns=\([0-9]*\) learnt=\([01]\) wake=\([a-z]*\).*/\1 \2 \3 \4 \5/p' \
	$T/trace > /tmp/waits
awk '
	{ n++
	  if (!seen[$1] && $2 > 0) { bad++; if (!ex) ex = $0 }
	  if ($5 == "none" || $5 == "timer") { none++; if ($4) nonel++ } else { woken++; if ($4) wl++ }
	  if ($5 == "timer") bytimer++
	  if ($5 == "completion") bycomp++
	  if ($4) seen[$1] = 1; else if (!seen[$1]) before++ }
	END {
		printf "# %d waits of the writers: %d ended by no wake-up or their timer (%d by the timer; %d learnt), %d woken (%d from within a completion; %d learnt), %d not learnt before the first learnt wait of their task\n", n, none, bytimer, nonel, woken, bycomp, wl, before
		printf "%d\twaits that no wake-up or their timer ended (throttling) are not learnt: %d of %d\n", !(none > 0 && nonel == 0), nonel, none
		printf "%d\tat least 3 in 4 of the woken waits are learnt: %d of %d\n", !(woken > 0 && 4 * wl >= 3 * woken), wl, woken
		printf "%d\tno wait predicted before the first learnt one of its task (%d such predictions%s)\n", !(bad == 0 && before > 0), bad, (ex ? ", first: " ex : "")
	}' /tmp/waits > /tmp/verdicts
ok_verdicts /tmp/verdicts

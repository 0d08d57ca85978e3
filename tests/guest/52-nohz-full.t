#!/bin/sh
# sip-boot: KERNEL=base,patched PLATFORM=x86-client SMP=2 DISKS=2ms APPEND=nohz_full=1 TIMEOUT=300
# SPDX-License-Identifier: GPL-2.0
#
# The IO input on a nohz_full CPU. CPU 1 is nohz_full, so its tick stays
# stopped while one task runs there, and every idle period starts with the
# tick stopped. disklat reads the 2 ms disk from CPU 1, one O_DIRECT read at
# a time; each read blocks it and CPU 1 idles until the completion.
#  1 the kernel runs CPU 1 as nohz_full (/sys/devices/system/cpu/nohz_full);
#  2 the reader's reads complete (the disk works with the CPU isolated);
#  3 (the series) in the idle periods of CPU 1 that start with the tick
#    stopped and an IO expected before the next timer, the state is chosen
#    for the IO (duration_ns == next_io_ns) in at least half of them after
#    the predictor's warm-up: the IO input is used on a nohz_full CPU. With
#    the rule "tick stopped: trust only the timer" alone, none is.
# Check 3 skips on a kernel without the sched_idle_predict event.
. /sip/tests/lib/tap.sh
T=/sys/kernel/tracing
C=/sys/devices/system/cpu
EV=$(ls -d $T/events/*/sched_idle_predict 2>/dev/null | head -1)
READS=300
plan 3
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null

full=$(cat $C/nohz_full 2>/dev/null)
[ "$full" = 1 ]
ok $? "CPU 1 is nohz_full" "$C/nohz_full: '${full:-missing}' (CONFIG_NO_HZ_FULL and nohz_full=1 expected)"

if [ -d "$EV" ]; then
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 1 > $EV/enable
	echo 1 > $T/tracing_on
fi
out=$(taskset -c 1 disklat /dev/emud0 $READS 2>&1)
rc=$?
[ -d "$EV" ] && { echo 0 > $T/tracing_on; echo 0 > $EV/enable; }
echo "# disklat on CPU 1: $out"
ok $rc "$READS reads of the 2 ms disk from the nohz_full CPU (status $rc)"

if [ ! -d "$EV" ]; then
	skip "IO input used on the nohz_full CPU" "no sched_idle_predict event on $SIP_KERNEL"
	exit 0
fi
# CPU 1's predictions after the first 50: tick stopped, IO before the timer.
grep 'sched_idle_predict: cpu=1 ' $T/trace | sed 1,50d | awk '
	{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	v["tick_stopped"] == 1 && v["next_io_ns"] > 0 && v["next_io_ns"] < v["next_timer_ns"] {
		n++; if (v["duration_ns"] == v["next_io_ns"]) used++ }
	END { printf "%d %d\n", n, used }' > /tmp/nohz
read n used < /tmp/nohz
echo "# CPU 1: $n idle periods with the tick stopped and an IO expected before the timer, $used chosen for the IO"
[ "$n" -ge 50 ] && [ $((used * 2)) -ge "$n" ]
ok $? "IO input used on the nohz_full CPU"

#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=x86-client SMP=2 DISKS=100us TIMEOUT=300 APPEND=sched_idle_inputs=bogus APPEND=sched_idle_inputs=task,timer APPEND=sched_idle_inputs=timer,zz
# SPDX-License-Identifier: GPL-2.0
#
# sched_idle_inputs= at boot (kernel/sched/idle_inputs.c), given three
# times, in this order on the command line (the runner sorts a header's
# APPEND words): "bogus" (refused), "task,timer", then "timer,zz"
# (refused): the last valid occurrence wins, so
#  1 the switches read timer 1, io off, task 1, history 0, horizon 0;
#  2 each refused occurrence left one line naming its unknown input in
#    the kernel log;
#  3 over a second of reads on the 100 us disk and of remote wake-ups,
#    sched_idle_predict reports no expected IO completion, no history
#    choice and no horizon, and does report expected task wake-ups;
#  4 the IO input comes back at run time: predict_io=device, and the
#    same reads then give events with an expected completion.
# Skips on a kernel without the series (no predict_timer file).
. /sip/tests/guest/predict-switch-lib.sh
plan 4

is "the last valid sched_idle_inputs= wins" "1 off 1 0 0 " "$(state)"

n=$(dmesg | grep -c -e "sched_idle_inputs=: unknown input 'bogus'" \
	-e "sched_idle_inputs=: unknown input 'zz'")
diag "$(dmesg | grep sched_idle_inputs)"
is "one log line per refused occurrence" 2 "$n"

both() {
	sipwl -t 1 io /dev/emud0 &
	sipwl -t 1 remote-wakeup 2000
	wait
}
ev=$(trace both)
io=$(echo "$ev" | grep -c ' next_io_ns=[1-9]')
task=$(echo "$ev" | grep -c ' next_task_ns=[1-9]')
hist=$(echo "$ev" | grep -c -e ' source=history' -e ' horizon_ns=[1-9]')
total=$(echo "$ev" | grep -c .)
diag "$total events: $io with next_io_ns, $task with next_task_ns, $hist history or horizon"
[ "$total" -gt 0 ] && [ "$io" = 0 ] && [ "$hist" = 0 ] && [ "$task" -gt 0 ]
ok $? "inputs off at boot read nothing; task, on, does"

echo device > $C/predict_io
ev=$(trace both)
io=$(echo "$ev" | grep -c ' next_io_ns=[1-9]')
diag "predict_io=device: $io events with next_io_ns"
[ "$(cat $C/predict_io)" = device ] && [ "$io" -gt 0 ]
ok $? "predict_io=device at run time: $io events expect a completion"

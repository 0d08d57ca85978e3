#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=x86-client SMP=2 DISKS=100us TIMEOUT=600
# SPDX-License-Identifier: GPL-2.0
#
# The run-time switches of the prediction's inputs,
# /sys/devices/system/cpu/cpuidle/predict_{timer,io,task,history,horizon}
# (kernel/sched/idle_inputs.c, "Switching the inputs of the prediction"):
#  1 the five files read their defaults: 1, device, 1, 1, 1;
#  2-7 a bad value (2, "maybe", a blank for a boolean, which kstrtobool()
#    refuses; "sometimes" and "Device" for predict_io) and a write as
#    nobody are refused (EINVAL at write, with a "sched: predict_" line
#    in the kernel log, or EACCES at open), and no file changes;
#  8-12 each switch changes what sched_idle_predict reports, over the
#    same workload run with the input on, then off (every other input
#    on): the input's field is non-zero in some events when on and in
#    none when off (timer: next_timer_ns; io: next_io_ns, reads on the
#    100 us disk; task: next_task_ns, remote-wakeup; history: events
#    whose source is history; horizon: horizon_ns, remote-wakeup);
#  13 the files read their defaults again after being switched back.
# Skips on a kernel without the series (no predict_timer file).
. /sip/tests/guest/predict-switch-lib.sh
plan 13

defaults="1 device 1 1 1 "
is "the switches read their defaults" "$defaults" "$(state)"

# refuse <description> <file> <string> <want> [<sysfs-write -a mode>]
refuse() {
	before=$(state)
	dmesg -c > /dev/null
	got=$(sysfs-write ${5:+-a $5} $C/predict_$2 "$3" 2>&1)
	after=$(state)
	msg=$(dmesg | grep "sched: predict_$2" | head -1)
	diag "$1: '$3' -> $got; log: $msg"
	if [ "$got" != "$4" ]; then
		fail "$1: got '$got', want '$4'"
	elif [ "$before" != "$after" ]; then
		fail "$1: $4, but the switches changed: $before -> $after"
	elif [ "$4" = "EINVAL write" ] && [ -z "$msg" ]; then
		fail "$1: $4, but nothing in the kernel log"
	else
		pass "$1: $4, nothing changed"
	fi
}
refuse "predict_task 2" task "2" "EINVAL write"
refuse "predict_history maybe" history "maybe" "EINVAL write"
refuse "predict_timer blank" timer " " "EINVAL write"
refuse "predict_io sometimes" io "sometimes" "EINVAL write"
refuse "predict_io Device" io "Device" "EINVAL write"
refuse "predict_horizon as nobody" horizon "0" "EACCES open" nobody

# count <field> <events>: the events whose field is non-zero (source:
# whose source is history)
count() {
	if [ "$1" = source ]; then
		echo "$2" | grep -c ' source=history'
	else
		echo "$2" | grep -c " $1=[1-9-]"
	fi
}
# switch <file> <on value> <off value> <field> <sipwl arguments>
switch() {
	f=$1 on=$2 off=$3 field=$4
	shift 4
	echo "$on" > $C/predict_$f
	n_on=$(count "$field" "$(trace sipwl -t 1 "$@")")
	echo "$off" > $C/predict_$f
	ev=$(trace sipwl -t 1 "$@")
	n_off=$(count "$field" "$ev")
	total=$(echo "$ev" | grep -c .)
	echo "$on" > $C/predict_$f
	diag "predict_$f: $field set in $n_on events on; $n_off of $total off"
	if [ "$n_on" -gt 0 ] && [ "$n_off" = 0 ] && [ "$total" -gt 0 ]; then
		pass "predict_$f=$off: $field in none of $total events ($n_on with $on)"
	else
		fail "predict_$f=$off: $field in $n_off of $total events ($n_on with $on)"
	fi
}
switch timer 1 0 next_timer_ns timer 1000
switch io device off next_io_ns io /dev/emud0
switch task 1 0 next_task_ns remote-wakeup 2000
switch history 1 0 source remote-wakeup 2000
switch horizon 1 0 horizon_ns remote-wakeup 2000

is "the switches read their defaults again" "$defaults" "$(state)"

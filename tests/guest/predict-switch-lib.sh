# SPDX-License-Identifier: GPL-2.0
#
# Shell helpers of the guest tests of the prediction's input switches
# (kernel/sched/idle_inputs.c), sourced, with TAP (tests/lib/tap.sh).
# Skips the whole test on a kernel without the switches (no predict_timer
# file).
. /sip/tests/lib/tap.sh

C=/sys/devices/system/cpu/cpuidle
T=/sys/kernel/tracing
[ -f $C/predict_timer ] || skip_all "no predict_timer on $SIP_KERNEL"
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
EV=$(ls -d $T/events/*/sched_idle_predict | head -1)

# state: what the five switches read, in one line
state() {
	for f in timer io task history horizon; do printf '%s ' "$(cat $C/predict_$f)"; done
}

# trace <command...>: the sched_idle_predict events while it runs
trace() {
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 4096 > $T/buffer_size_kb
	echo 1 > $EV/enable
	echo 1 > $T/tracing_on
	"$@" > /dev/null 2>&1
	echo 0 > $T/tracing_on
	echo 0 > $EV/enable
	grep sched_idle_predict: $T/trace
}

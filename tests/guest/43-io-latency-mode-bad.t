#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=none SMP=2 DISKS=2ms APPEND=sched_io_latency=bogus TIMEOUT=300
# SPDX-License-Identifier: GPL-2.0
#
# A sched_io_latency= value other than task or device is refused with a
# message naming it, and changes nothing: the requests are still tracked
# per device, the default (an io_latency_request event for each read, with
# a prediction after a warm-up).
. /sip/tests/lib/tap.sh
T=/sys/kernel/tracing
EV=$T/events/io_latency
plan 3
if [ ! -d "$EV/io_latency_request" ]; then
	skip_n 3 "sched_io_latency=bogus" "no io_latency_request tracepoint on $SIP_KERNEL"
	exit 0
fi
msg=$(dmesg | grep -m1 'sched_io_latency=bogus: ')
echo "$msg" | grep -q 'must be task or device; keeping device'
ok $? "the bad value is reported: ${msg#*] }"

echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $EV/io_latency_request/enable
echo 1 > $EV/io_latency_wait/enable
echo 1 > $T/tracing_on
disklat /dev/emud0 100 > /dev/null
echo 0 > $T/tracing_on
echo 0 > $EV/io_latency_request/enable
echo 0 > $EV/io_latency_wait/enable
reqs=$(grep -c 'io_latency_request:' $T/trace)
[ "$reqs" -ge 100 ]
ok $? "the requests are tracked per device ($reqs io_latency_request events for 100 reads)"
pred=$(grep 'io_latency_request:' $T/trace | grep -vc 'predicted_ns=0 ')
[ "$pred" -ge 50 ]
ok $? "the requests are predicted per device ($pred of $reqs with a prediction)"

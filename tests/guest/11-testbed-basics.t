#!/bin/sh
# sip-boot: KERNEL=base,patched PLATFORM=none SMP=2 TIMEOUT=60
#
# The guest the test bed promises: its kernel, CPUs, tracefs, results dir.
. /sip/tests/lib/tap.sh
plan 5
case "$(uname -r)" in 6.1.*) pass "kernel 6.1 ($(uname -r))" ;; *) fail "kernel $(uname -r)" ;; esac
is "$SIP_SMP CPUs" "$SIP_SMP" "$(grep -c ^processor /proc/cpuinfo)"
check "tracefs mounted" [ -f /sys/kernel/tracing/trace ]
trace-cmd list -e power:cpu_idle 2>/dev/null | grep -q cpu_idle
ok $? "trace-cmd runs, power:cpu_idle exists"
echo hello > /results/probe
ok $? "results directory writable"

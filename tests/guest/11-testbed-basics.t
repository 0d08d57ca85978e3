#!/bin/sh
# sip-boot: KERNEL=base,patched PLATFORM=none SMP=2 TIMEOUT=60
#
# The guest the test bed promises: its kernel, CPUs, tracefs, results dir.
echo "1..5"
case "$(uname -r)" in 6.1.*) echo "ok 1 - kernel 6.1 ($(uname -r))" ;; *) echo "not ok 1 - kernel $(uname -r)" ;; esac
[ "$(grep -c ^processor /proc/cpuinfo)" = "$SIP_SMP" ] && echo "ok 2 - $SIP_SMP CPUs" || echo "not ok 2 - CPU count"
[ -f /sys/kernel/tracing/trace ] && echo "ok 3 - tracefs mounted" || echo "not ok 3 - tracefs mounted"
trace-cmd list -e power:cpu_idle 2>/dev/null | grep -q cpu_idle && echo "ok 4 - trace-cmd runs, power:cpu_idle exists" ||
	echo "not ok 4 - trace-cmd runs, power:cpu_idle exists"
echo hello > /results/probe && echo "ok 5 - results directory writable" || echo "not ok 5 - results directory writable"

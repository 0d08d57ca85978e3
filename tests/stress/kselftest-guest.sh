#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of tests/host/kselftest.sh: run the kernel's own selftests
# that were put into /usr/bin, one result line each:
#   RESULT <suite>/<test> PASS|FAIL|SKIP <seconds>
# Timers: the non-destructive programs of tools/testing/selftests/timers
# (exit 0 pass, 4 skip, else fail). cpu-hotplug: cpu-on-off-test.sh -a.
# ftrace: ftracetest on a subset of test.d (its own [PASS]/[FAIL] lines).
per=${1:-300}
suites=${2:-timers cpu-hotplug ftrace}
want() { case " $suites " in *" $1 "*) return 0 ;; esac; return 1; }
out=/results/kselftest
mkdir -p $out
res() { echo "RESULT $1 $2 $3" | tee -a $out/results.txt; }

want timers && for t in posix_timers nanosleep nsleep-lat set-timer-lat mqueue-lat \
	 inconsistency-check raw_skew threadtest rtcpie; do
	if [ ! -x /usr/bin/$t ]; then res timers/$t SKIP 0; continue; fi
	t0=$(date +%s)
	timeout $per /usr/bin/$t > $out/timers-$t.log 2>&1
	rc=$?
	d=$(($(date +%s) - t0))
	case $rc in 0) r=PASS ;; 4) r=SKIP ;; *) r=FAIL ;; esac
	res timers/$t $r $d
done

if ! want cpu-hotplug; then
	:
elif [ -x /usr/bin/bash ] && [ -f /usr/bin/cpu-on-off-test.sh ]; then
	t0=$(date +%s)
	timeout $per bash /usr/bin/cpu-on-off-test.sh -a > $out/cpu-hotplug.log 2>&1
	rc=$?
	case $rc in 0) r=PASS ;; 4) r=SKIP ;; *) r=FAIL ;; esac
	res cpu-hotplug/cpu-on-off-test $r $(($(date +%s) - t0))
else
	res cpu-hotplug/cpu-on-off-test SKIP 0
fi

if want ftrace && [ -x /usr/bin/bash ] && [ -f /usr/bin/ftrace-selftests.tar ]; then
	mkdir -p /tmp/ft && tar -xf /usr/bin/ftrace-selftests.tar -C /tmp/ft
	cd /tmp/ft/ftrace || exit 1
	timeout $((per * 3)) bash ./ftracetest -l /tmp/ft-logs $(cat /tmp/ft/subset) \
		> $out/ftrace.log 2>&1
	cd /
	# "[3] Basic test for tracers	[PASS]"
	sed -n 's/^\[[0-9]*\] \(.*\)\t\[\([A-Z]*\)\]$/\2 \1/p' $out/ftrace.log |
	while read -r r name; do
		case $r in PASS) ;; UNSUPPORTED|UNTESTED) r=SKIP ;; *) r=FAIL ;; esac
		res "ftrace/$(echo "$name" | tr ' ' '_')" $r 0
	done
fi
exit 0

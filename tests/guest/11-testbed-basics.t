#!/bin/sh
# sip-boot: KERNEL=base,patched PLATFORM=none SMP=2 TIMEOUT=60
#
# The guest the test bed promises: its kernel, CPUs, tracefs, results dir.
. /sip/tests/lib/tap.sh
plan 5
# The major.minor of the tree the project builds: SIP_LINUX (qemu/defaults.sh,
# passed by qemu/boot.sh) is its Debian package, linux-source-<major.minor>.
v=${SIP_LINUX#linux-source-}
case "$(uname -r)" in
"$v".[0-9]*) pass "kernel $v ($(uname -r))" ;;
*) fail "kernel $(uname -r), not $v.* (SIP_LINUX=$SIP_LINUX)" ;;
esac
is "$SIP_SMP CPUs" "$SIP_SMP" "$(grep -c ^processor /proc/cpuinfo)"
check "tracefs mounted" [ -f /sys/kernel/tracing/trace ]
trace-cmd list -e power:cpu_idle 2>/dev/null | grep -q cpu_idle
ok $? "trace-cmd runs, power:cpu_idle exists"
echo hello > /results/probe
ok $? "results directory writable"

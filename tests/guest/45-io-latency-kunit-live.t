#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=none SMP=2 APPEND=sched_io_latency=task TIMEOUT=300
# SPDX-License-Identifier: GPL-2.0
#
# The live case of the KUnit suite sched_io_latency_wait_tree
# (wait_tree_live_migration: a task's IO waits through
# io_schedule_timeout(), how each one ends, and its wait leaving the tree
# of CPU 0 when it ends on CPU 1) needs CPUs 0 and 1 online and the
# per-task tracking. Built-in suites run at boot, when the bed has one CPU
# online (qemu/boot.sh boots with maxcpus=1 and the guest's init onlines
# the others), so the case skips there; it does not bring a CPU up itself.
# Here it runs again with both CPUs online and sched_io_latency=task,
# through KUnit's debugfs (CONFIG_KUNIT_DEBUGFS): the suite's results file
# is checked, and its KTAP also reaches the kernel log, which make test
# judges with the boot-time KUnit results.
. /sip/tests/lib/tap.sh
K=/sys/kernel/debug/kunit/sched_io_latency_wait_tree
plan 3
if [ ! -d "$K" ]; then
	skip_n 3 "io latency live case" "no KUnit suite sched_io_latency_wait_tree on $SIP_KERNEL"
	exit 0
fi

is "CPUs 0 and 1 online" "0-1" "$(cat /sys/devices/system/cpu/online)"
echo run > "$K/run"
grep -E '^ *(not )?ok [0-9]+ wait_tree_live_migration' "$K/results" > /tmp/live
diag_lines < /tmp/live
grep -q '^ *ok ' /tmp/live && ! grep -qi 'skip' /tmp/live
ok $? "wait_tree_live_migration ran and passed with both CPUs online"
! grep -qE '^ *not ok' "$K/results"
ok $? "no case of the suite failed on the re-run"

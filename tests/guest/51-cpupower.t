#!/bin/sh
# sip-boot: KERNEL=base,patched PLATFORM=x86-client SMP=2 TIMEOUT=120
#
# What userspace reads of cpuidle keeps working: cpupower idle-info, built
# from the same kernel tree, runs clean and reports the driver and every
# state. The only message allowed on stderr is busybox modprobe not finding
# the msr module, which cpupower asks for on every x86 kernel.
. /sip/tests/lib/tap.sh
plan 5
if ! command -v cpupower >/dev/null; then
	for i in 1 2 3 4 5; do fail "cpupower is not in the initramfs"; done
	exit 0
fi
cpupower idle-info > /tmp/idle-info.out 2> /tmp/idle-info.err
rc=$?
ok $rc "cpupower idle-info exits 0 (status $rc)"
others=$(grep -v "modprobe: module msr not found" /tmp/idle-info.err)
[ -z "$others" ]
ok $? "nothing unexpected on stderr" "$others"
grep -q "^CPUidle driver: emu_idle" /tmp/idle-info.out
ok $? "reports the emu_idle driver"
n=$(ls -d /sys/devices/system/cpu/cpu0/cpuidle/state* | wc -l)
grep -q "^Number of idle states: $n" /tmp/idle-info.out
ok $? "reports all $n states" "$(grep 'Number of idle states' /tmp/idle-info.out)"
case "$SIP_KERNEL" in
patched) want=sched ;;
*) want=$(cat /sys/devices/system/cpu/cpuidle/current_governor_ro) ;;
esac
grep -q "^CPUidle governor: $want" /tmp/idle-info.out
ok $? "governor line reads '$want'" "$(grep 'CPUidle governor' /tmp/idle-info.out)"

#!/bin/bash
# Host checks of the test bed itself: exit status, crashes, timeouts,
# a broken patch stopping the build with its name.
cd "$(dirname "$0")/../.."
echo "1..5"
t=0
check() {	# <description> <expected> <actual>
	t=$((t + 1))
	if [ "$2" = "$3" ]; then echo "ok $t - $1"; else echo "not ok $t - $1 (expected $2, got $3)"; fi
}
export KERNEL=base PLATFORM=none
out=$(CMD='uname -r' RESULTS=results/test/tb1 ./qemu/boot.sh 2>&1); rc=$?
check "boot runs uname -r and exits 0" 0 "$rc"
echo "$out" | grep -qx '6\.1\.[0-9]*.*' ; check "uname -r printed 6.1.*" 0 $?
CMD='exit 3' RESULTS=results/test/tb2 ./qemu/boot.sh >/dev/null 2>&1
check "CMD='exit 3' exits 3" 3 $?
s=$(date +%s)
CMD='echo c > /proc/sysrq-trigger' TIMEOUT=120 RESULTS=results/test/tb3 ./qemu/boot.sh >/dev/null 2>&1; rc=$?
e=$(( $(date +%s) - s ))
[ "$rc" != 0 ] && [ $e -lt 60 ]; check "a panicking guest fails fast (status $rc after ${e}s)" 0 $?
s=$(date +%s)
CMD='sleep 1000' TIMEOUT=20 RESULTS=results/test/tb4 ./qemu/boot.sh >/dev/null 2>&1; rc=$?
e=$(( $(date +%s) - s ))
[ "$rc" = 124 ] && [ $e -ge 20 ] && [ $e -lt 40 ]; check "a hung guest stops at TIMEOUT (status $rc after ${e}s)" 0 $?

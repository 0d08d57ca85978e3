#!/bin/bash
# Host checks of the test bed itself: exit status, crashes, timeouts,
# a broken patch stopping the build with its name.
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
plan 12
export KERNEL=base PLATFORM=none
. qemu/defaults.sh
out=$(CMD='uname -r' RESULTS=$SIP_TEST_OUT/tb1 ./qemu/boot.sh 2>&1); rc=$?
is "boot runs uname -r and exits 0" 0 "$rc"
# The major.minor of the tree the project builds, from its package's name
# (SIP_LINUX in qemu/defaults.sh, linux-source-<major>.<minor>).
ver=${SIP_LINUX#linux-source-}
echo "$out" | grep -qx "${ver//./\\.}\\.[0-9][0-9]*.*"; is "uname -r printed $ver.* ($SIP_LINUX)" 0 $?
CMD='exit 3' RESULTS=$SIP_TEST_OUT/tb2 ./qemu/boot.sh >/dev/null 2>&1
is "CMD='exit 3' exits 3" 3 $?
s=$(date +%s)
CMD='echo c > /proc/sysrq-trigger' TIMEOUT=120 RESULTS=$SIP_TEST_OUT/tb3 ./qemu/boot.sh >/dev/null 2>&1; rc=$?
e=$(( $(date +%s) - s ))
[ "$rc" != 0 ] && [ $e -lt 60 ]; is "a panicking guest fails fast (status $rc after ${e}s)" 0 $?
s=$(date +%s)
# A guest that sleeps is no hang in virtual time: its idle time is skipped,
# so "sleep 1000" ends in seconds. One that spins is.
CMD='while :; do :; done' TIMEOUT=20 RESULTS=$SIP_TEST_OUT/tb4 ./qemu/boot.sh >/dev/null 2>&1; rc=$?
e=$(( $(date +%s) - s ))
[ "$rc" = 124 ] && [ $e -ge 20 ] && [ $e -lt 40 ]; is "a hung guest stops at TIMEOUT (status $rc after ${e}s)" 0 $?
# The int3 of text patching under multi-threaded TCG (qemu/boot.sh) boots
# once more with CLOCK=real: here the guest prints the kernel's line
# itself, so both boots show it and the second one's status counts. In
# virtual time (one vCPU thread) the fault cannot happen and a boot that
# shows it is not retried.
int3='echo "[    1.000000] int3: 0000 [#1] PREEMPT SMP"; exit 4'
err=$(CLOCK=real CMD=$int3 RESULTS=$SIP_TEST_OUT/tb5 ./qemu/boot.sh 2>&1 >/dev/null); rc=$?
is "CLOCK=real: an int3 trap in text patching boots again, then the status counts" 4 "$rc"
echo "$err" | grep -q 'int3 trap in text patching .*booting again' && [ -s $SIP_TEST_OUT/tb5/console-int3.log ]
is "CLOCK=real: the retry is said on stderr and the first console kept" 0 $?
err=$(CMD=$int3 RESULTS=$SIP_TEST_OUT/tb6 ./qemu/boot.sh 2>&1 >/dev/null); rc=$?
! echo "$err" | grep -q 'booting again' && [ ! -e $SIP_TEST_OUT/tb6/console-int3.log ]
is "CLOCK=virtual: no retry (status $rc)" 0 $?

# Virtual time: every CPU online although the kernel boots one, the guest
# clock the instruction count (1 GHz TSC), and a bad CLOCK refused.
out=$(SMP=2 CMD='nproc; dmesg | grep -o "tsc: Detected [0-9]*"' RESULTS=$SIP_TEST_OUT/tb7 ./qemu/boot.sh 2>/dev/null)
is "CLOCK=virtual SMP=2: nproc prints 2" 2 "$(echo "$out" | grep -x '[0-9]*' | tail -1)"
is "CLOCK=virtual: the TSC runs at 1 GHz (1 ns per instruction)" "tsc: Detected 1000" "$(echo "$out" | grep -o "tsc: Detected [0-9]*")"
err=$(CLOCK=sundial CMD=true ./qemu/boot.sh 2>&1); rc=$?
is "CLOCK=sundial is refused naming it (status $rc)" "boot: CLOCK=sundial: must be virtual or real" "$err"

# A patch that does not apply stops the tree preparation with its name.
tmp=$(mktemp -d)
cat > "$tmp/0001-broken.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: sched-idle-predict <sched-idle-predict@localhost>
Date: Thu, 1 Jan 2026 00:00:00 +0000
Subject: [PATCH] broken: context that does not exist

---
 kernel/sched/idle.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/kernel/sched/idle.c b/kernel/sched/idle.c
--- a/kernel/sched/idle.c
+++ b/kernel/sched/idle.c
@@ -1,3 +1,3 @@
-this line is not in idle.c
+neither is this one
 nor this
 nor that
-- 
2.39.5
PATCH
echo "0001-broken.patch" > "$tmp/series"
msg=$(./qemu/kernel-tree.sh "$SIP_CACHE" "$tmp" tbtest 2>&1); rc=$?
[ "$rc" != 0 ] && echo "$msg" | grep -q 'patch does not apply: .*0001-broken.patch'
is "a broken patch stops the build naming it" 0 $?
# The tbtest worktree is kept: the next run reuses its checkout.
rm -rf "$tmp"

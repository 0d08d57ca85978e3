#!/bin/sh
# sip-boot: KERNEL=base,patched PLATFORM=x86-client SMP=2 DISKS=100us TIMEOUT=300
# SPDX-License-Identifier: GPL-2.0
#
# Every idle state disabled through sysfs, on every CPU, until none is left:
#  1 each write of 1 to stateK/disable succeeds and reads back 1;
#  2 the guest stays healthy for 3 s: 30 sleeps of 100 ms take at most 3x
#    their time, processes fork and exit, O_DIRECT reads complete;
#  3 the CPUs still idle: each CPU's idle time in /proc/stat grows by at
#    least a quarter of the wall time of a 2 s sleep;
#  4 (patched) no state is entered: no usage counter moves and the
#    prediction statistics do not move (the series runs the default idle
#    when no state is usable, design/series.md); on base the governor
#    falls back to state 0 despite its disable flag (menu: "no states
#    enabled, must use 0"), which is only reported;
#  5 a bad value for disable is refused with EINVAL and changes nothing;
#  6 after re-enabling every state, both CPUs enter states again within 1 s.
. /sip/tests/lib/tap.sh
C=/sys/devices/system/cpu
plan 6

cpus=$(cd $C && ls -d cpu[0-9]* | sed 's/cpu//' | sort -n)
usage_all() { cat $C/cpu*/cpuidle/state*/usage | tr '\n' ' '; }
stats_all() { cat $C/cpu*/cpuidle/stats/*_estimate 2>/dev/null | tr '\n' ' '; }
# idle jiffies (USER_HZ) of cpu<N> from /proc/stat
idle_of() { awk -v c="cpu$1" '$1 == c { print $5 }' /proc/stat; }
ms_now() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

set_all() {
	bad=
	for d in $C/cpu*/cpuidle/state*; do
		echo $1 > $d/disable || bad="$bad $d"
		[ "$(cat $d/disable)" = $1 ] || bad="$bad $d"
	done
	[ -z "$bad" ]
}

# 1
if set_all 1; then pass "every state of every CPU disabled"
else fail "every state of every CPU disabled: $bad"; fi
# A CPU may still be in the state it entered before the writes: its usage
# and statistics count when it leaves, which in virtual time (an idle CPU
# with no timer sleeps on) can be much later. Running a task on every CPU
# ends those periods before the reference snapshot.
for c in $cpus; do taskset -c "$c" true; done
u0=$(usage_all) s0=$(stats_all)

# 2
t0=$(ms_now)
i=0
while [ $i -lt 30 ]; do usleep 100000; i=$((i + 1)); done
t1=$(ms_now)
forks=0
i=0
while [ $i -lt 20 ]; do /bin/true && forks=$((forks + 1)); i=$((i + 1)); done
dl=$(disklat /dev/emud0 50 2>&1)
diag "30 x 100 ms sleeps took $((t1 - t0)) ms; $forks forks; $dl"
if [ $((t1 - t0)) -ge 3000 ] && [ $((t1 - t0)) -le 9000 ] && [ $forks = 20 ] &&
   echo "$dl" | grep -q 'reads=50 '; then
	pass "healthy with no state: sleeps, forks, reads"
else
	fail "healthy with no state: sleeps, forks, reads"
fi

# 3
bad=
for c in $cpus; do eval "i0_$c=$(idle_of $c)"; done
t0=$(ms_now); sleep 2; t1=$(ms_now)
for c in $cpus; do
	eval "d=\$(( \$(idle_of $c) - \$i0_$c ))"
	# USER_HZ is 100: jiffies * 10 = ms
	diag "cpu$c idle ${d}0 ms of $((t1 - t0)) ms"
	[ $((d * 10 * 4)) -ge $((t1 - t0)) ] || bad="$bad cpu$c"
done
if [ -z "$bad" ]; then pass "every CPU still idles"
else fail "every CPU still idles:$bad"; fi

# 4
u1=$(usage_all) s1=$(stats_all)
diag "usage before: $u0"
diag "usage after:  $u1"
if [ -d $C/cpu0/cpuidle/stats ]; then
	if [ "$u0" = "$u1" ] && [ "$s0" = "$s1" ]; then
		pass "no state entered, statistics unchanged"
	else
		fail "no state entered, statistics unchanged (stats $s0 -> $s1)"
	fi
else
	skip "no state entered" "$SIP_KERNEL has a governor (state 0 used: $([ "$u0" = "$u1" ] && echo no || echo yes))"
fi

# 5
before=$(cat $C/cpu0/cpuidle/state1/disable)
out=$( (echo abc > $C/cpu0/cpuidle/state1/disable) 2>&1)
rc=$?
after=$(cat $C/cpu0/cpuidle/state1/disable)
diag "disable <- abc: rc $rc: $out; $before -> $after"
if [ $rc != 0 ] && echo "$out" | grep -qi 'invalid' && [ "$before" = "$after" ]; then
	pass "disable <- garbage: EINVAL, unchanged"
else
	fail "disable <- garbage: EINVAL, unchanged"
fi

# 6
set_all 0
e0=$(for c in $cpus; do cat $C/cpu$c/cpuidle/state*/usage | awk '{ t += $1 } END { print t }'; done)
sleep 1
e1=$(for c in $cpus; do cat $C/cpu$c/cpuidle/state*/usage | awk '{ t += $1 } END { print t }'; done)
diag "entries per CPU: $(echo $e0) -> $(echo $e1)"
if echo $e0 $e1 | awk '{ n = NF / 2; for (i = 1; i <= n; i++) if ($(i + n) <= $i) exit 1 }'; then
	pass "re-enabled: every CPU enters states again"
else
	fail "re-enabled: every CPU enters states again"
fi

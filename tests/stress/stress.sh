#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The reliability suite of the series, run inside the guest (TAP). The
# short form is a `make test` guest test (tests/guest/62-stress-short.t),
# the full form is `make stress` on the debug kernel (design/reliability.md).
#
# usage: stress.sh short|full
#
# Phases, each one TAP line, the figures as "#" lines:
#  1 io:       TASKS tasks doing O_DIRECT reads at once on every emulated
#              disk, while /dev/cpu_dma_latency flaps (stress-qos, with 0 and
#              negative limits) and idle states are disabled and re-enabled
#              at random through sysfs;
#  2 fork:     a fork/exit storm of tasks that did IO, while other tasks sit
#              in IO wait on the slowest disk; then a kmemleak scan (debug
#              kernel) must find nothing;
#  3 hotplug:  HOTPLUG offline/online cycles of the CPUs but cpu0, under IO;
#  4 s2idle:   suspend-to-idle cycles (pm_test=devices, see
#              design/reliability.md for why not a real wake-up), tasks in IO
#              wait being frozen;
#  5 module:   MODULE rmmod/insmod cycles of the emulated idle driver under
#              IO load; the driver is back at the end.
# A phase passes when every task finished without error in time and the
# kernel reported nothing (the boot fails on any WARN/BUG/lockdep/KASAN/
# kmemleak line). The last line gives the totals.
#
# IO_S and FORK_S are guest seconds. In virtual time (the test bed's default
# clock) a guest second with every CPU busy is 10^9 instructions per CPU,
# about 10 s of host time here: the phases are sized for the load they put
# on the kernel (every task in IO at once, forks while tasks wait), which
# the first seconds already reach, not for their length.
. /sip/tests/lib/tap.sh
C=/sys/devices/system/cpu
case "$1" in
short)	TASKS=200 IO_S=4 FORK_S=3 HOTPLUG=10 S2IDLE=0 MODULE=4 ;;
full)	TASKS=1000 IO_S=20 FORK_S=20 HOTPLUG=500 S2IDLE=3 MODULE=50 ;;
*)	echo "usage: stress.sh short|full" >&2; exit 2 ;;
esac
# Any figure can be overridden from the environment (make stress STRESS_ENV=...).
TASKS=${STRESS_TASKS:-$TASKS} IO_S=${STRESS_IO_S:-$IO_S} FORK_S=${STRESS_FORK_S:-$FORK_S}
HOTPLUG=${STRESS_HOTPLUG:-$HOTPLUG} S2IDLE=${STRESS_S2IDLE:-$S2IDLE} MODULE=${STRESS_MODULE:-$MODULE}

plan 5

disks=
for i in 0 1 2 3 4 5 6 7; do
	[ -b /dev/emud$i ] && disks="$disks /dev/emud$i"
done
# the slowest disk is the last one given in DISKS (make stress: 2ms)
slow=${disks##* }
cpus=$(cd $C && ls -d cpu[0-9]* | sed 's/cpu//' | sort -n)
ncpus=$(echo $cpus | wc -w)
tot_tasks=0 tot_ios=0 tot_forks=0 tot_qos=0 tot_flips=0 tot_hp=0 tot_s2i=0 tot_mod=0
rnd() { echo $(( $(od -An -N2 -tu2 /dev/urandom) % $1 )); }
# field <key> <line>
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# add the figures of one stress-io line to the totals
account() {
	tot_tasks=$((tot_tasks + $(field tasks "$1")))
	tot_ios=$((tot_ios + $(field ios "$1")))
	tot_forks=$((tot_forks + $(field forks "$1")))
}

[ -n "$disks" ] || bail "no emulated disk (boot with DISKS=)"
diag "$1: disks$disks, $ncpus CPUs, kernel $SIP_KERNEL, $(uname -r)"
km=/sys/kernel/debug/kmemleak
# Boot-time objects are not what the suite looks for.
[ -w $km ] && echo clear > $km

# Background IO load for the phases that need one: rounds of stress-io
# until /tmp/stop-load exists; every round must pass.
load_start() {
	rm -f /tmp/stop-load /tmp/load.out
	(
		while [ ! -e /tmp/stop-load ]; do
			out=$(stress-io -t $1 -s 3 $disks)
			rc=$?
			echo "$out" >> /tmp/load.out
			[ $rc = 0 ] || { echo "LOAD-FAILED rc $rc" >> /tmp/load.out; break; }
		done
	) &
	load_pid=$!
}
load_stop() {
	touch /tmp/stop-load
	wait $load_pid
	load_rounds=$(grep -c '^stress-io:' /tmp/load.out)
	while read -r l; do
		case "$l" in stress-io:*tasks=*) account "$l" ;; esac
	done < /tmp/load.out
	! grep -q 'LOAD-FAILED\|hang' /tmp/load.out
}

# Softirq threads at SCHED_FIFO 1, as PREEMPT_RT runs its timer threads.
# Expired timers are run from softirq at interrupt exit, and handed to
# ksoftirqd when that takes long, which under KASAN and TCG it does; a
# ksoftirqd at nice 0 among TASKS runnable tasks per 4 CPUs then waits
# tens of seconds, no timer fires on its CPU, RCU's grace-period kthread
# is never woken and the kernel reports an RCU stall. Full runs showed
# that on the vanilla kernel as on the series (design/reliability.md).
# make stress also boots with rcutree.kthread_prio=1 (RCU's own kthreads
# at FIFO 1) and RCU priority boosting in the debug kernel.
sirq=
for p in /proc/[0-9]*; do
	read -r comm < "$p/comm" 2>/dev/null || continue
	case "$comm" in ksoftirqd/*) sirq="$sirq ${p#/proc/}" ;; esac
done
if [ -n "$sirq" ] && sched-fifo 1 $sirq; then
	diag "softirq threads at SCHED_FIFO 1:$sirq"
else
	diag "could not give the softirq threads SCHED_FIFO 1 ($sirq)"
fi

# 1 io
# The flipper writes random states' disable files every 20 ms until the IO
# is done; the picks come from one awk so the loop forks nothing but usleep.
# It runs at nice -10: among TASKS busy tasks it would hardly ever run.
rm -f /tmp/stop-flip
(
	renice -n -10 -p "$(sh -c 'echo $PPID')" > /dev/null
	ls -d $C/cpu*/cpuidle/state* | awk -v seed=$(rnd 30000) '
		{ s[NR] = $0 } END { srand(seed);
		for (i = 0; i < 1000000; i++) print s[int(rand() * NR) + 1], int(rand() * 2) }' |
	{
		n=0
		while read -r d v; do
			[ -e /tmp/stop-flip ] && break
			echo $v > $d/disable && n=$((n + 1))
			usleep 20000
		done
		echo $n > /tmp/flips
	}
	for d in $C/cpu*/cpuidle/state*; do echo 0 > $d/disable; done
) &
flip=$!
stress-qos -s $IO_S > /tmp/qos.out 2>&1 &
qos=$!
io=$(stress-io -t $TASKS -s $IO_S $disks 2>&1)
io_rc=$?
touch /tmp/stop-flip
wait $qos; qos_rc=$?
wait $flip
flips=$(cat /tmp/flips)
qos_out=$(cat /tmp/qos.out)
diag "$io"
diag "$qos_out; state disable flips=$flips"
account "$io"
tot_flips=$((tot_flips + flips))
tot_qos=$((tot_qos + $(field cycles "$qos_out")))
if [ $io_rc = 0 ] && [ $qos_rc = 0 ] && [ "$flips" -gt 0 ]; then
	pass "io: $TASKS tasks at once, QoS flapping, states flipping"
else
	fail "io: stress-io rc $io_rc, stress-qos rc $qos_rc, flips $flips"
fi

# 2 fork
stress-io -t 50 -s $FORK_S $slow > /tmp/wait.out 2>&1 &
waiters=$!
fk=$(stress-io -f -t $((ncpus * 8)) -s $FORK_S $disks 2>&1)
fk_rc=$?
wait $waiters; w_rc=$?
w=$(cat /tmp/wait.out)
diag "$fk"
diag "$w"
account "$fk"; account "$w"
leaks=none
if [ -w $km ]; then
	# An object is reported once it is older than 5 s and was found
	# unreferenced by two scans.
	echo scan > $km; sleep 6; echo scan > $km
	leaks=$(grep -c 'unreferenced object' $km)
	diag "kmemleak: $leaks unreferenced objects"
	[ "$leaks" = 0 ] || head -40 $km | sed 's/^/#   /'
fi
if [ $fk_rc = 0 ] && [ $w_rc = 0 ] && [ "$(field forks "$fk")" -gt 0 ] &&
   { [ $leaks = none ] || [ $leaks = 0 ]; }; then
	pass "fork: storm while tasks wait for IO, kmemleak: $leaks"
else
	fail "fork: storm rc $fk_rc, waiters rc $w_rc, kmemleak $leaks"
fi

# 3 hotplug
if [ $ncpus -lt 2 ] || [ ! -w $C/cpu1/online ]; then
	skip "hotplug" "no hotpluggable CPU"
else
	load_start $((ncpus * 10))
	done_hp=0 bad=
	t0=$(date +%s)
	while [ $done_hp -lt $HOTPLUG ]; do
		c=$((done_hp % (ncpus - 1) + 1))
		echo 0 > $C/cpu$c/online || { bad="offline cpu$c"; break; }
		echo 1 > $C/cpu$c/online || { bad="online cpu$c"; break; }
		done_hp=$((done_hp + 1))
	done
	load_stop || bad="$bad IO load failed: $(grep -v '^stress-io: tasks' /tmp/load.out | head -3)"
	tot_hp=$done_hp
	diag "hotplug: $done_hp cycles in $(($(date +%s) - t0)) s under $load_rounds IO rounds"
	if [ -z "$bad" ] && [ $done_hp = $HOTPLUG ]; then
		pass "hotplug: $HOTPLUG offline/online cycles under IO"
	else
		fail "hotplug: $done_hp of $HOTPLUG cycles; $bad"
	fi
fi

# 4 s2idle
if ! grep -qw freeze /sys/power/state 2>/dev/null; then
	skip "s2idle" "no suspend-to-idle in /sys/power/state"
elif [ $S2IDLE = 0 ] || [ ! -w /sys/power/pm_test ]; then
	skip "s2idle" "a real suspend-to-idle never wakes in this guest (design/reliability.md); pm_test needs CONFIG_PM_DEBUG (debug kernel)"
else
	load_start $((ncpus * 10))
	echo devices > /sys/power/pm_test
	done_s=0 bad=
	while [ $done_s -lt $S2IDLE ]; do
		echo freeze > /sys/power/state || { bad="freeze $done_s failed"; break; }
		done_s=$((done_s + 1))
	done
	echo none > /sys/power/pm_test
	load_stop || bad="$bad IO load failed"
	tot_s2i=$done_s
	diag "s2idle: $done_s cycles (pm_test=devices) under $load_rounds IO rounds"
	if [ -z "$bad" ]; then pass "s2idle: $S2IDLE device suspend/resume cycles with tasks in IO wait"
	else fail "s2idle: $bad"; fi
fi

# 5 module
drv=$(cat $C/cpuidle/current_driver)
if [ "$drv" != emu_idle ]; then
	skip "module" "driver is $drv, not emu_idle"
else
	load_start $((ncpus * 10))
	done_m=0 bad=
	while [ $done_m -lt $MODULE ]; do
		rmmod emu_idle || { bad="rmmod failed"; break; }
		[ "$(cat $C/cpuidle/current_driver)" = none ] || { bad="driver left after rmmod"; break; }
		usleep $(( $(rnd 200) * 1000 ))
		insmod /lib/modules/emu_idle.ko profile=$SIP_PLATFORM || { bad="insmod failed"; break; }
		[ "$(cat $C/cpuidle/current_driver)" = emu_idle ] || { bad="no driver after insmod"; break; }
		usleep $(( $(rnd 200) * 1000 ))
		done_m=$((done_m + 1))
	done
	load_stop || bad="$bad IO load failed"
	tot_mod=$done_m
	before=$(cat $C/cpu0/cpuidle/state*/usage | awk '{ t += $1 } END { print t }')
	sleep 1
	after=$(cat $C/cpu0/cpuidle/state*/usage | awk '{ t += $1 } END { print t }')
	diag "module: $done_m rmmod/insmod cycles under $load_rounds IO rounds; cpu0 entries $before -> $after"
	if [ -z "$bad" ] && [ $done_m = $MODULE ] && [ "$after" -gt "$before" ]; then
		pass "module: $MODULE rmmod/insmod cycles under IO, driver used again"
	else
		fail "module: $done_m of $MODULE cycles; $bad"
	fi
fi

diag "stress $1 totals: tasks=$tot_tasks ios=$tot_ios forks=$tot_forks qos_cycles=$tot_qos state_flips=$tot_flips hotplug_cycles=$tot_hp s2idle_cycles=$tot_s2i module_cycles=$tot_mod"

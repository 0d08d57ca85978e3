#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=x86-client SMP=2 TIMEOUT=300 APPEND=cpuidle.governor=menu APPEND=haltpoll.guest_halt_poll_ns=1000
# SPDX-License-Identifier: GPL-2.0
#
# The governor-less idle selection of the series, on the emulated x86
# client platform (design/series.md):
#  1 the governor files stay and name the one policy: available_governors,
#    current_governor and current_governor_ro read "sched"; writing "sched"
#    succeeds, writing "menu" fails with EINVAL and changes nothing;
#  2 every online CPU has cpuidle/stats/{right,under,over}_estimate;
#  3 right + under + over equals the sum of the states' usage on each CPU,
#    and idle entries happened. One process reads the usage files, then the
#    stats: idle periods that end meanwhile count in the stats only (up to
#    4 allowed), and the period that ended last is counted in usage and
#    judged in the stats only when the next one begins (-1 allowed);
#  4 the counters are read-only: writing is refused and changes nothing
#    (tests/guest/60-stats-bad-input.t covers every kind of writer);
#  5 each sched_idle_predict event that is followed on its CPU by a
#    cpu_idle entry reports that state as entered_state, and it is the
#    state it chose (the platform has no driver callback, and its states
#    keep the local timer: no broadcast fallback); an event with
#    entered_state -1 is not followed by an entry;
#  6 with /dev/cpu_dma_latency held at 20 us, no state with an exit latency
#    above 20 us is entered and every prediction says latency_req_ns=20000;
#  7 held at 0, the CPU polls with the tick kept: every prediction says
#    latency_req_ns=0, state=0 (POLL) and tick_stopped=0, and no state but
#    POLL has its usage move;
#  8 held at -2 (the device takes any s32; 2 bytes, parsed as hex text;
#    -1 is PM_QOS_DEFAULT_VALUE, "no request"), the limit counts as 0: the
#    same as 7;
#  9 a CPU taken offline and back online idles again and its idle periods
#    are counted (the emulated driver keeps the cpuidle devices of offline
#    CPUs, so the files stay);
# 10 the obsolete governor parameters on the command line (the sip-boot
#    line above sets cpuidle.governor=menu and haltpoll.guest_halt_poll_ns=)
#    are each reported once in the kernel log as ignored, naming what
#    replaced them.
# Skips on a kernel without the series (no sched_idle_predict event).
. /sip/tests/lib/tap.sh
T=/sys/kernel/tracing
C=/sys/devices/system/cpu
# power:sched_idle_predict (sched: before v5)
EV=$(ls -d $T/events/*/sched_idle_predict 2>/dev/null | head -1)
N=10
plan $N
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
if [ -z "$EV" ]; then
	skip_n $N "cpuidle prediction" "no sched_idle_predict event on $SIP_KERNEL"
	exit 0
fi

cpus=$(cd $C && ls -d cpu[0-9]* | sed 's/cpu//' | sort -n)
online() { [ "$1" = 0 ] || [ "$(cat $C/cpu$1/online 2>/dev/null)" = 1 ]; }

# 1
govs=$(for f in available_governors current_governor current_governor_ro; do
	echo "$f=$(cat $C/cpuidle/$f 2>&1)"; done | tr '\n' ' ')
echo sched > $C/cpuidle/current_governor 2>/dev/null; same=$?
err=$( (echo menu > $C/cpuidle/current_governor) 2>&1); other=$?
after=$(cat $C/cpuidle/current_governor 2>&1)
echo "# $govs; writing sched: rc $same; writing menu: rc $other ($err); then $after"
if [ "$govs" = "available_governors=sched current_governor=sched current_governor_ro=sched " ] &&
   [ $same = 0 ] && [ $other != 0 ] && echo "$err" | grep -q 'Invalid argument' &&
   [ "$after" = sched ]; then
	pass "governor files read sched, another governor is refused with EINVAL"
else
	fail "governor files read sched, another governor is refused with EINVAL"
fi

# 2
missing=
for c in $cpus; do
	online $c || continue
	for f in right under over; do
		[ -r $C/cpu$c/cpuidle/stats/${f}_estimate ] || missing="$missing cpu$c/$f"
	done
done
if [ -z "$missing" ]; then pass "stats files on every online CPU"
else fail "stats files on every online CPU" "missing:$missing"; fi

# 3: usage sum - stats sum, with usage read first
sums() {
	cat $C/cpu$1/cpuidle/state*/usage $C/cpu$1/cpuidle/stats/right_estimate \
		$C/cpu$1/cpuidle/stats/under_estimate $C/cpu$1/cpuidle/stats/over_estimate |
	tr '\n' ' ' | awk '{ u = 0; for (i = 1; i <= NF - 3; i++) u += $i;
		print u, $(NF - 2) + $(NF - 1) + $NF }'
}
sleep 1
bad=
for c in $cpus; do
	online $c || continue
	set -- $(sums $c)
	d=$(($2 - $1))
	echo "# cpu$c: usage sum $1, right+under+over $2"
	if [ "$1" -eq 0 ] || [ $d -lt -1 ] || [ $d -gt 4 ]; then bad="$bad cpu$c($1/$2)"; fi
done
if [ -z "$bad" ]; then pass "right+under+over == sum of usage"
else fail "right+under+over == sum of usage" "off:$bad"; fi

# 4
S=$C/cpu0/cpuidle/stats
before=$(cat $S/right_estimate)
fails=0
for v in 0 5 abc ""; do
	if (echo "$v" > $S/right_estimate) 2>/dev/null; then
		fails=$((fails + 1)); echo "# writing '$v' succeeded"
	fi
done
after=$(cat $S/right_estimate)
echo "# right_estimate: $before before, $after after the writes"
if [ $fails = 0 ] && [ "$after" -ge "$before" ]; then
	pass "writes refused, nothing reset"
else
	fail "writes refused, nothing reset" "writes accepted: $fails"
fi

record() {
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 1 > $EV/enable
	echo 1 > $T/events/power/cpu_idle/enable
	echo 1 > $T/tracing_on
	sleep "$1"
	echo 0 > $T/tracing_on
	echo 0 > $EV/enable
	echo 0 > $T/events/power/cpu_idle/enable
}

# 5: pair each prediction with the next event of its CPU if that is an entry
record 2
res=$(grep -E 'sched_idle_predict:|cpu_idle:' $T/trace | awk '
	function field(name,   v) { if (!match($0, " " name "=-?[0-9]+")) return "x"
		v = substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2); return v }
	{ match($0, /\[[0-9]+\]/); cpu = substr($0, RSTART + 1, RLENGTH - 2) }
	/sched_idle_predict:/ { want[cpu] = field("state"); ent[cpu] = field("entered_state"); pend[cpu] = 1; next }
	/cpu_idle:/ { match($0, /state=[0-9]+/); s = substr($0, RSTART + 6, RLENGTH - 6);
		if (pend[cpu] && s != 4294967295) {
			if (ent[cpu] == -1) noent++
			else if (want[cpu] >= 0) { n++; if (s == want[cpu]) same++; if (s == ent[cpu]) rep++ }
		}
		pend[cpu] = 0 }
	END { printf "%d %d %d %d\n", n, same, rep, noent }')
set -- $res
echo "# $1 predictions followed by an entry: $2 in the chosen state, $3 reporting it as entered_state; $4 entries after entered_state=-1"
if [ "$1" -gt 0 ] && [ "$1" = "$2" ] && [ "$1" = "$3" ] && [ "$4" = 0 ]; then
	pass "the chosen state is entered and reported as entered_state"
else
	fail "the chosen state is entered and reported as entered_state"
fi

# 6
exec 3> /dev/cpu_dma_latency
echo -n 0x0014 >&3
sleep 1
record 2
lat=$(for i in $(cd $C/cpu0/cpuidle && ls -d state* | sed 's/state//'); do
	echo "$i $(cat $C/cpu0/cpuidle/state$i/latency)"; done)
res=$(grep -E 'sched_idle_predict:|cpu_idle:' $T/trace | awk -v lat="$lat" '
	BEGIN { n = split(lat, a, /[ \n]/); for (i = 1; i < n; i += 2) l[a[i]] = a[i + 1] }
	/sched_idle_predict:/ { p++; if ($0 !~ /latency_req_ns=20000 /) wrongreq++ }
	/cpu_idle:/ { match($0, /state=[0-9]+/); s = substr($0, RSTART + 6, RLENGTH - 6);
		if (s == 4294967295) next; e++; if (l[s] > 20) deep++ }
	END { printf "%d %d %d %d\n", p, wrongreq, e, deep }')
set -- $res
echo "# 20 us: $1 predictions ($2 with another limit), $3 entries ($4 deeper than 20 us)"
if [ "$1" -gt 0 ] && [ "$2" = 0 ] && [ "$3" -gt 0 ] && [ "$4" = 0 ]; then
	pass "latency limit 20 us honoured"
else
	fail "latency limit 20 us honoured"
fi

# usage of the states other than POLL (state0), summed over online CPUs
usage_halting() {
	for c in $cpus; do online $c && cat $C/cpu$c/cpuidle/state[1-9]*/usage; done |
		awk '{ s += $1 } END { print s }'
}

# poll_only <text for the QoS device> <what>: with the limit written,
# no state but POLL has its usage move and every prediction has
# latency_req_ns=0, state=0 and tick_stopped=0
poll_only() {
	echo -n "$1" >&3
	sleep 1
	u0=$(usage_halting)
	p0=$(cat $C/cpu0/cpuidle/state0/usage)
	record 2
	u1=$(usage_halting)
	p1=$(cat $C/cpu0/cpuidle/state0/usage)
	res=$(grep 'sched_idle_predict:' $T/trace |
		awk '{ p++ } !/latency_req_ns=0 .* state=0 (entered_state=(0|-1) )?tick_stopped=0( source=[a-z]+)?( horizon_ns=[0-9]+)?$/ { other++ }
			END { printf "%d %d\n", p, other }')
	np=${res% *} nother=${res#* }
	echo "# $1: halting states' usage $u0 -> $u1, cpu0 POLL usage $p0 -> $p1, $np predictions, $nother not latency_req_ns=0 state=0 tick_stopped=0"
	if [ "$u0" = "$u1" ] && [ "$p1" -gt "$p0" ] && [ "$np" -gt 0 ] && [ "$nother" = 0 ]; then
		pass "$2: only POLL, the tick kept"
	else
		fail "$2: only POLL, the tick kept"
		grep 'sched_idle_predict:' $T/trace | grep -Ev 'latency_req_ns=0 .* state=0 (entered_state=(0|-1) )?tick_stopped=0( source=[a-z]+)?( horizon_ns=[0-9]+)?$' |
			head -3 | sed 's/^/# /'
	fi
}
poll_only 0x0000 "latency limit 0"
poll_only -2 "negative latency limit counts as 0"
exec 3>&-

# 9
if [ -e $C/cpu1/online ]; then
	echo 0 > $C/cpu1/online; off=$?
	echo 1 > $C/cpu1/online; on=$?
	set -- $(sums 1)
	a=$2
	sleep 1
	set -- $(sums 1)
	echo "# offline rc $off, online rc $on; cpu1 stats sum $a, then $2 a second later"
	if [ $off = 0 ] && [ $on = 0 ] && [ "$2" -gt "$a" ]; then
		pass "CPU offline and online, then idle periods are counted"
	else
		fail "CPU offline and online, then idle periods are counted"
	fi
else
	skip "CPU offline and online" "cpu1 cannot go offline"
fi

# 10
gov=$(dmesg | grep -c 'cpuidle: cpuidle.governor=menu is obsolete and ignored: idle states are chosen by the scheduler')
hp=$(dmesg | grep -c 'cpuidle: haltpoll.guest_halt_poll_ns=1000 is obsolete and ignored: use cpuidle_haltpoll.guest_halt_poll_ns=1000')
echo "# cmdline: $(cat /proc/cmdline | tr ' ' '\n' | grep -E '^(cpuidle.governor|haltpoll\.)' | tr '\n' ' '); warnings: governor $gov, haltpoll $hp"
if [ "$gov" = 1 ] && [ "$hp" = 1 ]; then
	pass "obsolete cpuidle.governor= and haltpoll.*= are reported once"
else
	fail "obsolete cpuidle.governor= and haltpoll.*= are reported once" \
		"$(dmesg | grep -iE 'governor|haltpoll' | head -5)"
fi

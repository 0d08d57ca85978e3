#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=x86-client SMP=2 TIMEOUT=300 APPEND=cpuidle.governor=menu APPEND=haltpoll.guest_halt_poll_ns=1000
# SPDX-License-Identifier: GPL-2.0
#
# Writes to the prediction statistics of the series,
# /sys/devices/system/cpu/cpuN/cpuidle/stats/{right,under,over}_estimate
# (design/series.md, ABI): they are read-only and monotonic, like the usage
# counters of the states, so every write is refused at open with EACCES
# (mode 0444, no store method: root too), whatever the text and whoever
# writes, and nothing changes: every one of the three counters, on the CPU
# written to and on the other CPU, reads at least its value before the
# write. Before each case the counters are made large (>= 20) so that a
# reset would show. Then the counters are read five times over a second:
# none goes down, and they move.
# Skips on a kernel without the series (no stats directory).
. /sip/tests/lib/tap.sh
C=/sys/devices/system/cpu

cases=11
if [ ! -d $C/cpu0/cpuidle/stats ]; then
	skip_all "no cpuidle/stats on $SIP_KERNEL"
fi
plan $cases

last=$(cd $C && ls -d cpu[0-9]* | sed 's/cpu//' | sort -n | tail -1)

# counters: "right under over" of cpu0 then of the last CPU
counters() {
	for c in 0 $last; do
		for f in right under over; do
			printf '%s ' "$(cat $C/cpu$c/cpuidle/stats/${f}_estimate)"
		done
	done
}

# grow [min]: wait until every counter of cpu0 and the last CPU is >= min
# (default 20; at most 20 s).
grow() {
	i=0
	while [ $i -lt 200 ]; do
		small=$(counters | tr ' ' '\n' | grep . | awk -v m=${1:-20} '$1 < m' | wc -l)
		[ "$small" = 0 ] && return 0
		usleep 100000
		i=$((i + 1))
	done
	return 1
}

# refuse <description> <writer> <cpu> <file> <string> <expected "ERRNO step">
refuse() {
	what=$1 as=$2 cpu=$3 f=$4 str=$5 want=$6
	if ! grow; then
		fail "$what: counters never reached 20 ($(counters))"
		return
	fi
	before=$(counters)
	got=$(sysfs-write -a "$as" $C/cpu$cpu/cpuidle/stats/${f}_estimate "$str" 2>&1)
	after=$(counters)
	diag "$what: '$str' as $as -> $got; before: $before; after: $after"
	if [ "$got" != "$want" ]; then
		fail "$what: got '$got', want '$want'"
		return
	fi
	# Every counter must not have gone down (no reset).
	if echo "$before $after" | awk '{ n = NF / 2; for (i = 1; i <= n; i++)
			if ($(i + n) < $i) exit 1 }'; then
		pass "$what: $want, nothing reset"
	else
		fail "$what: $want but counters went down (reset)"
	fi
}

refuse "zero" root 0 right "0" "EACCES open"
refuse "zero (last CPU)" root $last over "0" "EACCES open"
refuse "garbage" root 0 under "abc" "EACCES open"
refuse "non-zero" root $last right "1" "EACCES open"
refuse "u64 overflow" root 0 over "18446744073709551616" "EACCES open"
refuse "blank" root 0 under " " "EACCES open"
refuse "nobody" nobody 0 right "0" "EACCES open"
refuse "opened as root, written as nobody" drop-after-open 0 under "0" "EACCES open"
refuse "root without CAP_SYS_ADMIN" no-cap-sys-admin $last right "0" "EACCES open"

# The shell's own redirection, as root ("nobody" is covered above: busybox
# su cannot run a shell as nobody in this initramfs).
grow
before=$(counters)
out=$( (echo 0 > $C/cpu0/cpuidle/stats/right_estimate) 2>&1)
rc=$?
after=$(counters)
diag "echo 0 > as root: rc $rc: $out"
if [ $rc != 0 ] && echo "$out" | grep -qi 'right_estimate: permission denied' &&
   echo "$before $after" | awk '{ n = NF / 2; for (i = 1; i <= n; i++)
		if ($(i + n) < $i) exit 1 }'; then
	pass "echo 0 > as root: permission denied, nothing reset"
else
	fail "echo 0 > as root: rc $rc, '$out'"
fi

# Monotonic: five reads 0.2 s apart never go down, and the sum moves.
prev=$(counters) first=$prev down=0
for i in 1 2 3 4 5; do
	usleep 200000
	cur=$(counters)
	echo "$prev $cur" | awk '{ n = NF / 2; for (i = 1; i <= n; i++)
		if ($(i + n) < $i) exit 1 }' || down=$((down + 1))
	prev=$cur
done
moved=$(echo "$first $prev" | awk '{ n = NF / 2; for (i = 1; i <= n; i++) d += $(i + n) - $i; print d }')
diag "monotonic: $first -> $prev, $down decreases, sum moved by $moved"
if [ $down = 0 ] && [ "$moved" -gt 0 ]; then
	pass "counters only grow, and grow"
else
	fail "counters only grow, and grow"
fi
[ "$tap_n" = $cases ] || diag "ran $tap_n of $cases"

#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=x86-client SMP=2 TIMEOUT=300 APPEND=cpuidle.governor=menu APPEND=haltpoll.guest_halt_poll_ns=1000
# SPDX-License-Identifier: GPL-2.0
#
# Bad input to the prediction statistics of the series,
# /sys/devices/system/cpu/cpuN/cpuidle/stats/{right,under,over}_estimate
# (design/series.md, ABI): writing 0 as root resets the three counters of
# that CPU; anything else is refused with the documented errno and resets
# nothing:
#  - a non-root writer cannot open the file (mode 0644): EACCES;
#  - a writer that opened it as root and then became nobody, or root
#    without CAP_SYS_ADMIN: EPERM at write;
#  - garbage, a sign, a non-zero number, a number past u64, trailing junk:
#    EINVAL.
# "Resets nothing" is checked on the counters themselves: they only grow
# between resets, so every one of the three, on the CPU written to and on
# the other CPU, must read at least its value before the write. Before each
# case the counters are made large (>= 20) so that a reset would show.
# Skips on a kernel without the series (no stats directory).
C=/sys/devices/system/cpu
N=0
ok() { N=$((N + 1)); echo "ok $N - $*"; }
nok() { N=$((N + 1)); echo "not ok $N - $*"; }
diag() { echo "# $*"; }

cases=17
if [ ! -d $C/cpu0/cpuidle/stats ]; then
	echo "1..1"
	echo "ok 1 - stats bad input # SKIP no cpuidle/stats on $SIP_KERNEL"
	exit 0
fi
echo "1..$cases"

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
		nok "$what: counters never reached 20 ($(counters))"
		return
	fi
	before=$(counters)
	got=$(sysfs-write -a "$as" $C/cpu$cpu/cpuidle/stats/${f}_estimate "$str" 2>&1)
	after=$(counters)
	diag "$what: '$str' as $as -> $got; before: $before; after: $after"
	if [ "$got" != "$want" ]; then
		nok "$what: got '$got', want '$want'"
		return
	fi
	# Every counter must not have gone down (no reset).
	if echo "$before $after" | awk '{ n = NF / 2; for (i = 1; i <= n; i++)
			if ($(i + n) < $i) exit 1 }'; then
		ok "$what: $want, nothing reset"
	else
		nok "$what: $want but counters went down (reset)"
	fi
}

refuse "garbage" root 0 right "abc" "EINVAL write"
refuse "negative" root 0 under "-1" "EINVAL write"
refuse "minus zero" root 0 over "-0" "EINVAL write"
refuse "non-zero" root 0 right "1" "EINVAL write"
refuse "non-zero with newline" root $last over "$(printf '5\n')" "EINVAL write"
refuse "u64 overflow" root 0 under "18446744073709551616" "EINVAL write"
refuse "huge number" root $last right "99999999999999999999999999999" "EINVAL write"
refuse "zero then junk" root 0 over "0 1" "EINVAL write"
refuse "hex non-zero" root 0 right "0x10" "EINVAL write"
refuse "blank" root 0 under " " "EINVAL write"
refuse "nobody opens" nobody 0 right "0" "EACCES open"
refuse "nobody opens (last CPU)" nobody $last over "0" "EACCES open"
refuse "opened as root, written as nobody" drop-after-open 0 under "0" "EPERM write"
refuse "root without CAP_SYS_ADMIN" no-cap-sys-admin $last right "0" "EPERM write"

# busybox su: the shell's own redirection fails at open as nobody.
grow
before=$(counters)
out=$(su nobody -s /bin/sh -c "echo 0 > $C/cpu0/cpuidle/stats/right_estimate" 2>&1)
rc=$?
after=$(counters)
diag "su nobody: rc $rc: $out"
if [ $rc != 0 ] && echo "$out" | grep -qi 'permission denied' &&
   echo "$before $after" | awk '{ n = NF / 2; for (i = 1; i <= n; i++)
		if ($(i + n) < $i) exit 1 }'; then
	ok "su nobody -c 'echo 0 >': permission denied, nothing reset"
else
	nok "su nobody -c 'echo 0 >': rc $rc, '$out'"
fi

# The valid write: 0 resets the three counters of that CPU only (counted
# again from 0, so each reads less than before right after the write: they
# grow by about 100 per second under TCG, so they are made >= 200 first),
# and the other CPU's counters are untouched.
grow 200
before=$(counters)
got=$(sysfs-write $C/cpu$last/cpuidle/stats/under_estimate 0)
after=$(counters)
diag "reset: $got; before: $before; after: $after"
set -- $before $after
if [ "$got" = "ok 1" ] && [ ${10} -lt $4 ] && [ ${11} -lt $5 ] && [ ${12} -lt $6 ] &&
   [ $7 -ge $1 ] && [ $8 -ge $2 ] && [ $9 -ge $3 ]; then
	ok "0 resets the three counters of cpu$last only"
else
	nok "0 resets the three counters of cpu$last only"
fi

# Same with the shell's echo (a trailing newline) and "0x0" (base 0 parse).
grow 200
before=$(counters)
echo 0 > $C/cpu0/cpuidle/stats/over_estimate
rc=$?
got=$(sysfs-write $C/cpu$last/cpuidle/stats/right_estimate 0x0)
after=$(counters)
diag "echo 0 on cpu0: rc $rc; 0x0 on cpu$last: $got; before: $before; after: $after"
set -- $before $after
if [ $rc = 0 ] && [ "$got" = "ok 3" ] && [ $7 -lt $1 ] && [ $8 -lt $2 ] &&
   [ $9 -lt $3 ] && [ ${10} -lt $4 ] && [ ${11} -lt $5 ] && [ ${12} -lt $6 ]; then
	ok "'echo 0' and '0x0' reset"
else
	nok "'echo 0' and '0x0' reset"
fi
[ $N = $cases ] || echo "# ran $N of $cases"

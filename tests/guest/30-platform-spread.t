#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sip-boot: KERNEL=base PLATFORM=x86-client SMP=2 TIMEOUT=300
#
# The emulated platform lets every vanilla governor choose: under timer
# sleeps of three lengths, 50 us, 300 us and 3 ms, menu, teo and ladder
# each spread the loop CPU's idle entries over several of the Skylake
# client states.
#
# Calibration. In real time (CLOCK=real) a fixed 300 us sleep overshot by
# 50-500 us on the shared host, and that noise alone spread every
# governor's entries (menu POLL 38-74 % C6 24-55 %, ladder C8 72 % C9 23 %).
# In virtual time (the default) the sleeps are exact: on a 300 us loop
# ladder put 79 % of its entries in C8 and 20 % in C9, and 6 or 22 in C7s
# from one boot to the next, so one sleep length cannot ask for a third
# state. Three lengths whose best states differ (C1E/C3 at 50 us, C3/C6 at
# 300 us, C8 at 3 ms) make a governor that chooses visit several states
# whatever the host does, so the test asks for at least three states with
# >= 10 entries each: a platform with one or two usable states, or a
# governor stuck on one state, fails it.
. /sip/tests/guest/platform-lib.sh

plan 7
if [ "$(cur_driver)" = emu_idle ] && [ "$(nstates)" = 9 ]; then
	pass "emu_idle is the cpuidle driver with the 9 x86-client states"
else
	fail "emu_idle is the cpuidle driver (driver $(cur_driver), $(nstates) states)"
fi
LOOPS=2000
for g in menu teo ladder; do
	echo $g > $C/cpuidle/current_governor 2>/dev/null
	if [ "$(cat $C/cpuidle/current_governor)" != $g ]; then
		fail "governor $g selected"
		fail "$g: entries spread over several states # no governor"
		continue
	fi
	pass "governor $g selected"
	before=$(usage_of 1)
	lat=
	for us in 50 300 3000; do
		lat="$lat $(platform-wakelat $us $((LOOPS / 3)) 1 | sed -n 's/.*\(median_ns=[0-9]*\).*/\1/p')"
	done
	after=$(usage_of 1)
	diag "$g: 50 us, 300 us, 3 ms sleeps, $((LOOPS / 3)) each:$lat"
	diag "$g: cpu1 usage before: $before"
	diag "$g: cpu1 usage after:  $after"
	res=$(echo "$before
$after" | awk 'NR == 1 { for (i = 1; i <= NF; i++) b[i] = $i }
		NR == 2 { for (i = 1; i <= NF; i++) { d[i] = $i - b[i]; t += d[i] } n = NF }
		END {
			for (i = 1; i <= n; i++) {
				if (d[i] >= 10) s1++
				if (t && d[i] * 20 >= t) s5++
				printf "state%d=%.1f%% ", i - 1, t ? d[i] * 100 / t : 0
			}
			printf "entries=%d ge10=%d ge5pct=%d\n", t, s1, s5
		}')
	diag "$g: $res"
	s1=$(echo "$res" | sed -n 's/.*ge10=\([0-9]*\).*/\1/p')
	s5=$(echo "$res" | sed -n 's/.*ge5pct=\([0-9]*\).*/\1/p')
	ent=$(echo "$res" | sed -n 's/.*entries=\([0-9]*\).*/\1/p')
	# A sleep whose timer expires before cpu1 reaches idle (vCPU delayed
	# by the host) adds no entry: ladder once saw 1968 for 2000 sleeps.
	if [ "$ent" -ge $((LOOPS / 3 * 3 * 9 / 10)) ] && [ "$s1" -ge 3 ]; then
		pass "$g: $ent entries spread over $s1 states with >= 10 ($s5 with >= 5%)"
	else
		fail "$g: $ent entries (>= $((LOOPS / 3 * 3 * 9 / 10))) spread over $s1 states with >= 10 (need 3)"
	fi
done
echo menu > $C/cpuidle/current_governor

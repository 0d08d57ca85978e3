#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sip-boot: KERNEL=base PLATFORM=none SMP=2 TIMEOUT=300
#
# The energy counters of the emulated platform (debugfs emu_idle/energy):
# they only grow, they agree with what the cpuidle core measured (sysfs
# usage and time) and with the documented model
#	energy_nj = residency_us * power_mw + entries * transition_nj,
# and writing 1 to emu_idle/reset zeroes them while other input is refused.
#
# The driver times each ->enter() call; the core times the same call from a
# little further out (ct_idle_enter/exit and the cpu_idle tracepoint are
# inside its window), so sysfs time is slightly larger, by about 1 us per
# entry under TCG. The 1% tolerance is checked per CPU on the sum over states,
# and per state for states with >= 100 ms of residency, where the per-entry
# difference is well below 1%. A state with fewer entries
# than that is only checked for entries (exact).
. /sip/tests/guest/platform-lib.sh

echo "1..9"
insmod $EMU_KO profile=x86-client
check "insmod emu_idle profile=x86-client" [ "$(cur_driver)" = emu_idle ]

snap() { grep -v '^#' $EMU_DEBUGFS/energy; }
tbl=$(grep -v '^#' $EMU_DEBUGFS/states)

# workload: 300 us sleeps on cpu1, 1 ms sleeps on cpu0
platform-wakelat 300 3000 1 > /dev/null &
w1=$!
platform-wakelat 1000 1000 0 > /dev/null &
w0=$!
prev=$(snap)
grow=yes
for i in 1 2 3 4 5 6; do
	sleep 0.3
	cur=$(snap)
	bad=$(printf '%s\n---\n%s\n' "$prev" "$cur" | awk '
		$0 == "---" { part = 2; next }
		part != 2 { e[$1" "$2] = $4; r[$1" "$2] = $5; E[$1" "$2] = $6; next }
		{ k = $1" "$2
		  if ($4 < e[k] || $5 < r[k] || $6 < E[k])
			print "cpu" $1 " state" $2 ": " e[k] "/" r[k] "/" E[k] " -> " $4 "/" $5 "/" $6 }')
	[ -n "$bad" ] && { grow=no; diag "decreased: $bad"; }
	prev=$cur
done
wait $w1 $w0
first_total=$(echo "$cur" | awk '{ t += $4 } END { print t + 0 }')
check "6 snapshots during a workload: no counter decreased ($first_total entries)" [ $grow = yes ]

d1=$(snap)
sys=$(for c in $C/cpu[0-9]*; do
	cpu=${c##*cpu}
	for d in $c/cpuidle/state*; do
		echo "$cpu ${d##*state} $(cat $d/usage) $(cat $d/time)"
	done
done)
d2=$(snap)
echo "$tbl" | sed 's/^/# states: /'
echo "$d2" | sed 's/^/# energy: /'
echo "$sys" | sed 's/^/# sysfs cpu state usage time_us: /'

# Lines: T idx name exit res power et | A/B cpu idx name entries res_ns nj |
# S cpu idx usage time_us. Each check prints "ok" or the offending values.
cmp_out=$( { echo "$tbl" | sed 's/^/T /'; echo "$d1" | sed 's/^/A /'
	echo "$d2" | sed 's/^/B /'; echo "$sys" | sed 's/^/S /'; } | awk '
	$1 == "T" { P[$2] = $6; Et[$2] = $7; next }
	$1 == "A" { k = $2" "$3; ae[k] = $5; ar[k] = $6; aE[k] = $7; next }
	$1 == "B" { k = $2" "$3; be[k] = $5; br[k] = $6; bE[k] = $7; next }
	$1 == "S" { k = $2" "$3; su[k] = $4; st[k] = $5; cpus[$2] = 1; next }
	END {
		for (k in su) {
			split(k, f, " "); i = f[2]; c = f[1]
			# entries: the core counts the same calls (exact)
			if (su[k] < ae[k] || su[k] > be[k])
				print "ENTRIES cpu" c " state" i ": sysfs " su[k] " not in [" ae[k] ", " be[k] "]"
			# model from the core counters, in nJ
			m = st[k] * P[i] + su[k] * Et[i]
			sm[c] += m; sa[c] += aE[k]; sb[c] += bE[k]
			if (st[k] >= 100000 && (m < aE[k] * 0.99 || m > bE[k] * 1.01))
				print "STATE cpu" c " state" i ": model " m " nJ not within 1% of [" aE[k] ", " bE[k] "] nJ"
			# internal formula: residency_ns * mW / 1000 + entries * Et
			f2 = int((ar[k] * P[i] + ae[k] * Et[i] * 1000) / 1000)
			if (f2 - aE[k] > 1 || aE[k] - f2 > 1)
				print "FORMULA cpu" c " state" i ": " aE[k] " nJ != " f2 " nJ"
			if (st[k] >= 100000)
				printf "INFO cpu%s state%s: model %d nJ, driver %d nJ (%.3f%%)\n", c, i, m, bE[k], (m - bE[k]) * 100 / bE[k]
		}
		for (c in cpus) {
			if (sm[c] < sa[c] * 0.99 || sm[c] > sb[c] * 1.01)
				print "CPU cpu" c ": model " sm[c] " nJ not within 1% of [" sa[c] ", " sb[c] "] nJ"
			printf "INFO cpu%s total: model %d nJ, driver %d nJ (%.3f%%)\n", c, sm[c], sb[c], (sm[c] - sb[c]) * 100 / sb[c]
		}
	}')
echo "$cmp_out" | grep INFO | sort | sed 's/^/# /'
check "entries equal sysfs usage" [ -z "$(echo "$cmp_out" | grep ENTRIES)" ]
check "per CPU: energy within 1% of sysfs time x power + usage x transition" \
	[ -z "$(echo "$cmp_out" | grep '^CPU')" ]
check "per state (>= 100 ms): energy within 1% of the model" \
	[ -z "$(echo "$cmp_out" | grep STATE)" ]
check "energy = residency x power + entries x transition (driver's own counters)" \
	[ -z "$(echo "$cmp_out" | grep FORMULA)" ]
echo "$cmp_out" | grep -v INFO | sed 's/^/# /'

tot() { snap | awk '{ e += $4; E += $6 } END { printf "%d %d\n", e, E }'; }
before=$(tot)
if echo 0 > $EMU_DEBUGFS/reset 2>/dev/null || echo x > $EMU_DEBUGFS/reset 2>/dev/null; then
	not_ok "reset refuses 0 and x"
else
	after=$(tot)
	check "reset refuses 0 and x, counters kept ($before -> $after)" \
		[ "${after% *}" -ge "${before% *}" ]
fi
before=$(tot)
echo 1 > $EMU_DEBUGFS/reset
after=$(tot)
sleep 0.5
later=$(tot)
diag "entries/nJ before reset $before, after $after, 0.5 s later $later"
r=no
[ "${after% *}" -lt 20 ] && [ "${later% *}" -gt "${after% *}" ] &&
	[ "${before% *}" -gt 100 ] && r=yes
check "reset zeroes: entries $before -> $after, then grow again ($later)" [ $r = yes ]
rmmod emu_idle
check "rmmod emu_idle: no driver left" [ "$(cur_driver)" = none ]

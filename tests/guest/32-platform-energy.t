#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sip-boot: KERNEL=base,patched PLATFORM=none SMP=2 TIMEOUT=300
#
# The energy counters of the emulated platform (debugfs emu_idle/energy):
# they only grow, they agree with what the cpuidle core measured (sysfs
# usage and time) and with the documented model
#	energy_nj = residency_us * power_mw + entries * transition_nj,
# and writing 1 to emu_idle/reset zeroes them while other input is refused.
#
# The driver times each ->enter() call; the core times the same call from a
# little further out (ct_idle_enter/exit and the cpu_idle tracepoint are in
# its window), so sysfs time is larger by a per-entry overhead, measured at
# 1-8 us per entry under TCG (POLL, 6688 entries: 800.6 ms in sysfs,
# 782.9 ms in the driver). That overhead is below 1% only for entries of
# 300 us or more: the 1% comparison is made per CPU, on the sum over the
# states whose entries last >= 300 us on average and >= 10 ms in total.
# Per state it would fail now and then: a host preemption of the vCPU in
# the core's window but outside the driver's put 0.7 ms more into sysfs
# for C1E's 54 ms, 1.3%, in one of 8 runs. Every state is checked for
# equal entries and for a sysfs time that encloses the driver's residency
# with less than 20 us per entry plus 5 ms to spare: the host may preempt
# the vCPU thread inside the core's window but outside the driver's (seen
# once in ~20000 entries: 68 us on a single C10 entry); 5 ms is one host
# time slice.
. /sip/tests/guest/platform-lib.sh

plan 9
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

# One grep reads all of sysfs, between two reads of the driver's counters:
# every completed idle period is in d2, and what sysfs shows lies between.
# The driver counts a period at the end of its ->enter(), the core a few
# instructions later; in virtual time one host thread runs the vCPUs in
# turn, so a CPU can be held between the two for up to a tick while the
# other runs this script (design/testbed.md). Running a task on every CPU
# first makes each finish the period it is in; one period per CPU may
# still be in that window, so usage may be one below d1.
for c in $(cd $C && ls -d cpu[0-9]* | sed 's/cpu//'); do taskset -c "$c" true; done
d1=$(snap)
sys=$(grep -H . $C/cpu[0-9]*/cpuidle/state*/usage $C/cpu[0-9]*/cpuidle/state*/time |
	sed 's|.*/cpu\([0-9]*\)/cpuidle/state\([0-9]*\)/\([a-z]*\):| \1 \2 \3 |')
d2=$(snap)
echo "$tbl" | sed 's/^/# states: /'
echo "$d1" | sed 's/^/# energy: /'
echo "$sys" | sed 's/^/# sysfs:/'

# Lines: T idx name exit res power et | A/B cpu idx name entries res_ns nj |
# S cpu idx usage|time value. Prints the offending values, and INFO lines.
cmp_out=$( { echo "$tbl" | sed 's/^/T /'; echo "$d1" | sed 's/^/A /'
	echo "$d2" | sed 's/^/B /'; echo "$sys" | sed 's/^/S/'; } | awk '
	$1 == "T" { P[$2] = $6; Et[$2] = $7; next }
	$1 == "A" { k = $2" "$3; ae[k] = $5; ar[k] = $6; aE[k] = $7; next }
	$1 == "B" { k = $2" "$3; be[k] = $5; br[k] = $6; bE[k] = $7; next }
	$1 == "S" && $4 == "usage" { su[$2" "$3] = $5; next }
	$1 == "S" && $4 == "time" { st[$2" "$3] = $5; next }
	END {
		for (k in su) {
			split(k, f, " "); c = f[1]; i = f[2]
			if (su[k] < ae[k] - 1 || su[k] > be[k])
				print "ENTRIES cpu" c " state" i ": sysfs " su[k] " not in [" ae[k] " - 1, " be[k] "]"
			# the core times a window enclosing the callback
			if (st[k] * 1000 + 1000 <= ar[k] || st[k] * 1000 > br[k] + be[k] * 20000 + 5000000)
				print "ENCLOSE cpu" c " state" i ": sysfs " st[k] " us vs driver [" ar[k] ", " br[k] "] ns"
			f2 = int((ar[k] * P[i] + ae[k] * Et[i] * 1000) / 1000)
			if (f2 - aE[k] > 1 || aE[k] - f2 > 1)
				print "FORMULA cpu" c " state" i ": " aE[k] " nJ != " f2 " nJ"
			if (!su[k])
				continue
			m = st[k] * P[i] + su[k] * Et[i]
			mean = st[k] / su[k]
			info = sprintf("cpu%s state%s: %d entries, mean %d us: model %d nJ, driver [%d, %d] nJ", c, i, su[k], mean, m, aE[k], bE[k])
			if (mean < 300 || st[k] < 10000) {
				print "INFO " info " (not checked)"
				continue
			}
			n1++
			print "INFO " info ": counted"
			sm[c] += m; sa[c] += aE[k]; sb[c] += bE[k]
		}
		for (c in sm) {
			info = sprintf("cpu%s, counted states: model %d nJ, driver [%d, %d] nJ", c, sm[c], sa[c], sb[c])
			if (sm[c] < sa[c] * 0.99 || sm[c] > sb[c] * 1.01)
				print "STATE " info ": not within 1%"
			else
				print "INFO " info ": within 1%"
		}
		print "CHECKED " n1 + 0
	}')
echo "$cmp_out" | grep -v CHECKED | sort | sed 's/^/# /'
checked=$(echo "$cmp_out" | sed -n 's/^CHECKED //p')
check "entries equal sysfs usage" [ -z "$(echo "$cmp_out" | grep ENTRIES)" ]
check "sysfs time encloses the driver's residency (< 20 us/entry + 5 ms more)" \
	[ -z "$(echo "$cmp_out" | grep ENCLOSE)" ]
r=no
[ -z "$(echo "$cmp_out" | grep STATE)" ] && [ "${checked:-0}" -ge 2 ] && r=yes
check "per CPU, energy within 1% of sysfs time x power + usage x transition ($checked states >= 300 us/entry)" \
	[ $r = yes ]
check "energy = residency x power + entries x transition (driver's own counters)" \
	[ -z "$(echo "$cmp_out" | grep FORMULA)" ]

# From one snapshot on stdin: "entries nJ" in all, "cpu entries" per CPU.
tot_of() { awk '{ e += $4; E += $6 } END { printf "%d %d\n", e, E }'; }
per_cpu_of() { awk '{ e[$1] += $4 } END { for (c in e) print c, e[c] }' | sort -n; }
tot() { snap | tot_of; }
before=$(tot)
if echo 0 > $EMU_DEBUGFS/reset 2>/dev/null || echo x > $EMU_DEBUGFS/reset 2>/dev/null; then
	fail "reset refuses 0 and x"
else
	after=$(tot)
	check "reset refuses 0 and x, counters kept ($before -> $after)" \
		[ "${after% *}" -ge "${before% *}" ]
fi
s=$(snap)
before=$(echo "$s" | tot_of) before_cpu=$(echo "$s" | per_cpu_of)
echo 1 > $EMU_DEBUGFS/reset
s=$(snap)
after=$(echo "$s" | tot_of) after_cpu=$(echo "$s" | per_cpu_of)
sleep 0.5
later=$(tot)
diag "entries/nJ before reset $before, after $after, 0.5 s later $later"
diag "entries per CPU before reset: $(echo $before_cpu), after: $(echo $after_cpu)"
# Idle periods go on between the reset and the read, some ms under TCG
# (33 entries in one run, at about 80 per second): every CPU must be back
# below a tenth of what it had, having had hundreds, and then grow.
r=no
[ "${later% *}" -gt "${after% *}" ] && [ "${before% *}" -gt 100 ] &&
	printf '%s %s\n' $before_cpu | awk -v after="$(echo $after_cpu)" '
		BEGIN { n = split(after, a, " "); for (i = 1; i < n; i += 2) e[a[i]] = a[i + 1] }
		{ cpus++; if ($2 < 100 || !($1 in e) || e[$1] * 10 >= $2) bad++ }
		END { exit bad > 0 || cpus < 2 }' && r=yes
check "reset zeroes every CPU: entries $before -> $after, then grow again ($later)" [ $r = yes ]
rmmod emu_idle
check "rmmod emu_idle: no driver left" [ "$(cur_driver)" = none ]

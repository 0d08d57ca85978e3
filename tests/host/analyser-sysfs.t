#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sip-idle-report against the kernel's own cpuidle counters: boot the base
# kernel with the menu governor on the emulated x86-client platform, record
# 3 s of the mixed workload with trace-scripts/guest/record.sh, and hold the
# analyser's figures for the window between the trace markers against the
# deltas of /sys/devices/system/cpu/cpuN/cpuidle/stateK/{usage,above,below},
# which record.sh reads just outside the markers (cpuidle-{before,after}.txt).
#
# How 6.12 counts (drivers/cpuidle/cpuidle.c, cpuidle_enter_state(), after
# ->enter() returned a state s >= 0, with diff = the time around ->enter();
# the rules and the tracepoints' places are 6.1's, only the clock reads
# became local_clock_noinstr()):
#
#	usage++
#	diff < target_residency(s), and a shallower state is enabled: above++
#	else if diff > exit_latency(s), t = the next deeper enabled state, and
#	diff - exit_latency(s) >= target_residency(t): below++
#
# with power:cpu_idle_miss emitted beside each above/below increment (the
# analyser's kernel_above/kernel_below). The analyser's own too_deep and
# too_shallow apply the same rules (too_shallow with the latency limit as
# well) to the traced length d, the time between the tracepoints, which
# under TCG is some us longer than diff: a period within a few us of a
# threshold can get another verdict from each (see BORDER_NS below). The
# per-state comparison of the analyser's own verdicts is made where a state
# has >= 100 entries, and per CPU over all states.
#
# Tolerance: 2% of the kernel's figure, or the CPU's edge periods when
# they are more. The counters are read before the start marker and after
# the end marker with shell builtins (record.sh), with the emulated
# platform's counters and the other CPU's sysfs files read in between,
# some 10-20 ms under TCG. An idle period of CPU c that ends between its
# sysfs read and the start marker, straddles the start marker, or ends
# between the end marker and the read is counted by the kernel and not in
# the window. record.sh writes the marker "sip-cpuidle read" before the
# first read and after the second, so these periods can be counted in the
# trace: edge(c) = the exits of c between "sip-cpuidle read" and
# "sip-window start", plus those between "sip-window end" and the last
# "sip-cpuidle read", plus 1 for the period straddling the start. The
# slack is thus measured, not guessed; a wrong pairing of entries and
# exits, a lost event or a wrong verdict rule is off by far more on the
# >= 500 periods of the window.
#
# KERNEL=<name> tests another kernel with a cpuidle governor (default base).
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh
kernel=${KERNEL:-base}
smp=2
out=$SIP_TEST_OUT/analyser-sysfs
plan 13
need_analyser

g=/sys/devices/system/cpu/cpuidle
record_mixed "$out" "cat $g/current_governor_ro > /results/governor.txt" \
	KERNEL=$kernel SMP=$smp PLATFORM=x86-client APPEND=cpuidle.governor=menu
gov=$(cat $out/governor.txt 2>/dev/null)
[ -s $out/trace.dat ] && [ -s $out/platform.txt ] && [ -s $out/cpuidle-before.txt ] &&
	[ -s $out/cpuidle-after.txt ] && [ "$gov" = menu ]
ok $? "trace.dat, platform.txt and the sysfs counters came back; governor '$gov' (menu)"

# --to-exit: the kernel judges the time around ->enter(), entry to exit.
read_window "$out" --to-exit --periods "$out/periods.tsv"
lost=$(awk -F, '$1 == "run" && $5 == "lost_events" { print $6 }' $out/window.csv)
periods=$(awk -F, '$1 == "cpu" && $2 == "all" && $5 == "idle_periods" { print $6 }' $out/window.csv)
ok "$([ "$lost" = 0 ] && [ "${periods:-0}" -ge 500 ]; echo $?)" \
	"no lost events (got '$lost'), the window holds $periods idle periods (>= 500)"

# edge periods per CPU, from the trace
trace-cmd report -i $out/trace.dat > $out/report.txt 2>/dev/null
edge_periods $out/report.txt $smp > $out/edge.txt
nmark=$(count_markers $out/report.txt)
ok "$([ "$nmark" = 2 ] && [ "$(wc -l < $out/edge.txt)" = $smp ]; echo $?)" \
	"the trace has both \"sip-cpuidle read\" markers ($nmark); edge periods per CPU:$(awk '{ printf " cpu%s %s", $1, $2 }' $out/edge.txt)"

# sysfs deltas: "cpu state usage above below" per CPU and state
join <(awk '{ print $1 "/" $2, $3, $4, $5 }' $out/cpuidle-after.txt | sort) \
	<(awk '{ print $1 "/" $2, $3, $4, $5 }' $out/cpuidle-before.txt | sort) |
	awk '{ split($1, k, "/"); print k[1], k[2], $2 - $5, $3 - $6, $4 - $7 }' |
	sort -n -k1,1 -k2,2 > $out/sysfs-delta.txt
# the analyser's figures, same layout: cpu state entries too_deep
# too_shallow kernel_above kernel_below
awk -F, '$1 == "state" && $2 != "all" { v[$2 " " $3, $5] = $6; k[$2 " " $3] = 1 }
	END { for (x in k) print x, v[x, "entries"] + 0, v[x, "too_deep"] + 0,
		v[x, "too_shallow"] + 0, v[x, "kernel_above"] + 0, v[x, "kernel_below"] + 0 }' \
	$out/window.csv | sort -n -k1,1 -k2,2 > $out/analyser.txt
join <(awk '{ print $1 "/" $2, $3, $4, $5 }' $out/sysfs-delta.txt | sort) \
	<(awk '{ print $1 "/" $2, $3, $4, $5, $6, $7 }' $out/analyser.txt | sort) |
	tr '/' ' ' | sort -n -k1,1 -k2,2 > $out/compare.txt
echo "# cpu state: sysfs usage/above/below | analyser entries/too_deep/too_shallow | kernel_above/kernel_below"
awk '{ printf "# cpu%s state%s: %d/%d/%d | %d/%d/%d | %d/%d\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' \
	$out/compare.txt
nsys=$(wc -l < $out/sysfs-delta.txt)
ncmp=$(wc -l < $out/compare.txt)
ok "$([ "$nsys" -ge $((9 * smp)) ] && [ "$ncmp" = "$nsys" ]; echo $?)" \
	"sysfs has $nsys CPU states (>= $((9 * smp))), all of them in the report ($ncmp)"

# Borderline periods. The analyser judges the traced length d, the kernel
# the time around ->enter(), which under TCG is some us shorter (about 10
# us for POLL, design/analysis.md). A period whose d is within BORDER_NS
# of the rule's threshold can get another verdict from each, and its
# count is added to the slack of the too_deep and too_shallow comparisons:
# in one run, 4 of cpu0's 159 C6 "below" differed, all of them among the 7
# C6 periods whose residency minus exit latency was 2-7 us above C7s's
# target residency. A rule off by an exit latency (85 us for C6) or a
# pairing error is still far outside. Per CPU and state: deep = periods
# of state s > 0 with |d - target_residency(s)| < BORDER_NS, shallow =
# those with |d - exit_latency(s) - target_residency(t)| < BORDER_NS, t
# the next deeper enabled state (the one the kernel's "below" looks at).
# periods.tsv is the --periods output of the report above.
BORDER_NS=20000
awk -v b=$BORDER_NS '
	function near(x, y) { return x - y < b && y - x < b }
	FNR == NR { if ($1 == "state") { lat[$2] = $4 * 1000; res[$2] = $5 * 1000
			on[$2] = $8 == "enabled"; if ($2 + 1 > ns) ns = $2 + 1 }
		next }
	/^#/ { next }
	{ s = $4; k = $1 " " s; seen[k] = 1
	  if (s > 0 && near($3, res[s])) deep[k]++
	  for (t = s + 1; t < ns && !on[t]; t++) ;
	  if (t < ns && near($3 - lat[s], res[t])) shallow[k]++ }
	END { for (k in seen) print k, deep[k] + 0, shallow[k] + 0 }' \
	FS=' ' $out/platform.txt FS='\t' $out/periods.tsv | sort -n -k1,1 -k2,2 > $out/border.txt

# compare <kernel column> <analyser column> <what> [<border column>]: per
# CPU, summed over states; then per CPU and state where the kernel counted
# >= 100. Border column: 3 deep, 4 shallow (border.txt), none by default.
compare() {
	awk -v kc="$1" -v ac="$2" -v what="$3" -v bc="${4:-0}" '
	function bad(k, a, slack,	d, tol) {
		d = a - k; if (d < 0) d = -d
		tol = 0.02 * k; if (tol < slack) tol = slack
		return d > tol
	}
	FILENAME ~ /edge.txt$/ { edge[$1] = $2; next }
	FILENAME ~ /border.txt$/ { if (bc) { bd[$1 " " $2] = $bc; bs[$1] += $bc }; next }
	{ ks[$1] += $kc; as[$1] += $ac
	  if ($kc >= 100) { n++; if (bad($kc, $ac, edge[$1] + bd[$1 " " $2])) f++
		st = st sprintf(" cpu%s/%s %d/%d", $1, $2, $ac, $kc) } }
	END {
		for (c in ks) { if (bad(ks[c], as[c], edge[c] + bs[c])) f++
			tot = tot sprintf(" cpu%s %d/%d", c, as[c], ks[c]) }
		printf "%s per CPU (analyser/kernel):%s; states >= 100:%s", what, tot, (n ? st : " none")
		if (bc) { printf "; borderline (< %d us) per CPU:", b / 1000
			for (c in bs) printf " cpu%s %d", c, bs[c] }
		printf "\n"
		exit f > 0
	}' b=$BORDER_NS $out/edge.txt $out/border.txt $out/compare.txt
}
# the columns of compare.txt: 3 usage 4 above 5 below | 6 entries
# 7 too_deep 8 too_shallow | 9 kernel_above 10 kernel_below
m=$(compare 3 6 "entries vs usage"); ok $? "$m"
m=$(compare 4 9 "power:cpu_idle_miss above vs above"); ok $? "$m"
m=$(compare 5 10 "power:cpu_idle_miss below vs below"); ok $? "$m"
m=$(compare 4 7 "too_deep vs above" 3); ok $? "$m"
m=$(compare 5 8 "too_shallow vs below" 4); ok $? "$m"
# the comparisons above must have had something to compare
kb=$(awk '{ s += $5 } END { print s + 0 }' $out/compare.txt)
ka=$(awk '{ s += $4 } END { print s + 0 }' $out/compare.txt)
ok "$([ "$kb" -ge 100 ] && [ "$ka" -ge 10 ]; echo $?)" \
	"the kernel counted $ka above (>= 10) and $kb below (>= 100) in the run"
# every state the kernel entered >= 100 times is judged per state
big=$(awk '$3 >= 100' $out/compare.txt | wc -l)
ok "$([ "$big" -ge "$smp" ]; echo $?)" "$big CPU states with >= 100 entries compared one by one (>= $smp)"

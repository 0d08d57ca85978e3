#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sip-idle-plot.sh REPORT-BINARY TRACE.dat OUTDIR [platform.txt]
#
# PNG plots of one trace, from sip-idle-report's CSV and per-period output:
#   residency.png     share of idle time per state, one bar group per CPU
#   judgement.png     correct / too deep / too shallow entries per state
#   idle-length.png   idle period lengths per state (what the states saw)
#   wakeup-latency.png  wake-up to running, p50/p99, by the idle state the
#                     target CPU was in (when the trace has wake-ups)
#   prediction.png    predicted vs actual idle length, by source (only when
#                     the trace has the prediction event)
# and the tables behind the bar charts, residency.dat, judgement.dat and
# wakeup-latency.dat.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 REPORT-BINARY TRACE.dat OUTDIR [platform.txt]" >&2; exit 1; }
rep=$1 trace=$2 out=$3
plat=()
[ $# -ge 4 ] && plat=(-p "$4")
command -v gnuplot >/dev/null || { echo "sip-idle-plot: gnuplot not installed" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$rep" "${plat[@]}" -f csv --periods "$tmp/periods.tsv" -o "$tmp/report.csv" "$trace"
title=$(basename "$(dirname "$(readlink -f "$trace")")")/$(basename "$trace")

# residency: rows = state, columns = CPUs (percent of that CPU's idle time)
awk -F, '
	$1 == "state" && $5 == "residency_ns" { r[$2, $3] = $6; name[$3] = $4; if ($2 != "all") cpus[$2] = 1; if ($3 + 0 > ns) ns = $3 + 0 }
	$1 == "cpu" && $5 == "idle_ns" { tot[$2] = $6 }
	END {
		printf "state"; nc = 0
		for (c in cpus) nc++
		for (c = 0; c < nc; c++) printf "\tcpu%d", c
		printf "\tall\n"
		for (s = 0; s <= ns; s++) {
			printf "%s", name[s]
			for (c = 0; c < nc; c++) printf "\t%.3f", tot[c] ? 100 * r[c, s] / tot[c] : 0
			printf "\t%.3f\n", tot["all"] ? 100 * r["all", s] / tot["all"] : 0
		}
	}' "$tmp/report.csv" > "$tmp/residency.dat"
ncol=$(head -1 "$tmp/residency.dat" | awk -F'\t' '{ print NF }')

# judgement: rows = state, columns correct too_deep too_shallow (all CPUs)
awk -F, '
	$1 == "state" && $2 == "all" { v[$3, $5] = $6; name[$3] = $4; if ($3 + 0 > ns) ns = $3 + 0 }
	END {
		print "state\tcorrect\ttoo_deep\ttoo_shallow"
		for (s = 0; s <= ns; s++)
			printf "%s\t%d\t%d\t%d\n", name[s], v[s, "correct"], v[s, "too_deep"], v[s, "too_shallow"]
	}' "$tmp/report.csv" > "$tmp/judgement.dat"

gnuplot <<EOF
set terminal pngcairo size 1000,560 font "sans,10"
set style data histograms
set style fill solid 0.85 border -1
set grid ytics
set key outside right top

set output "$out/residency.png"
set title "Idle residency per state: $title"
set ylabel "share of the CPU's idle time (%)"
set yrange [0:100]
set style histogram clustered gap 1
plot for [i=2:$ncol] "$tmp/residency.dat" using i:xtic(1) title columnheader(i)

set output "$out/judgement.png"
set title "Idle state choices judged in hindsight, all CPUs: $title"
set ylabel "idle periods"
set autoscale y
set yrange [0:*]
set style histogram rowstacked
plot "$tmp/judgement.dat" using 2:xtic(1) title "correct" lc rgb "#2ca02c", \
     "" using 3 title "too deep" lc rgb "#d62728", \
     "" using 4 title "too shallow" lc rgb "#1f77b4"
EOF

# idle-length: every period, x = its length, y = the state entered (jittered)
nstates=$(tail -n +2 "$tmp/judgement.dat" | wc -l)
awk -F'\t' -v n="$nstates" '
	BEGIN { srand(1) }
	/^#/ { next }
	$3 > 0 { printf "%.3f\t%.3f\t%s\n", $3 / 1000, $4 + (rand() - 0.5) * 0.5, $7 }' \
	"$tmp/periods.tsv" > "$tmp/lengths.dat"
tics=$(awk -F'\t' 'NR > 1 { printf "%s\"%s\" %d", (NR > 2 ? ", " : ""), $1, NR - 2 }' "$tmp/judgement.dat")
if [ -s "$tmp/lengths.dat" ]; then
	gnuplot <<EOF
set terminal pngcairo size 1000,560 font "sans,10"
set output "$out/idle-length.png"
set title "Idle period lengths by state entered: $title"
set xlabel "idle period length (us)"
set logscale x
set ytics ($tics)
set yrange [-0.6:$nstates - 0.4]
set grid xtics
set key outside right top
plot "$tmp/lengths.dat" using 1:(stringcolumn(3) eq "correct" ? \$2 : 1/0) with points pt 7 ps 0.4 lc rgb "#2ca02c" title "correct", \
     "" using 1:(stringcolumn(3) eq "too_deep" ? \$2 : 1/0) with points pt 7 ps 0.4 lc rgb "#d62728" title "too deep", \
     "" using 1:(stringcolumn(3) eq "too_shallow" ? \$2 : 1/0) with points pt 7 ps 0.4 lc rgb "#1f77b4" title "too shallow", \
     "" using 1:(stringcolumn(3) eq "unclassified" ? \$2 : 1/0) with points pt 7 ps 0.4 lc rgb "#7f7f7f" title "not judged"
EOF
fi

# wakeup-latency: sched_wakeup -> running, by the idle state the target CPU
# was in (p50 and p99; a state nobody was woken from is left out)
awk -F, '
	$1 == "latency" && $4 ~ /^wake_to_run_in_/ {
		n = substr($4, 16)
		if (!(n in seen)) { seen[n] = 1; order[++k] = n }
		v[n, $5] = $6
	}
	END {
		print "state\tp50_us\tp99_us"
		for (i = 1; i <= k; i++)
			if (v[order[i], "count"] > 0)
				printf "%s\t%.3f\t%.3f\n", order[i], v[order[i], "p50_ns"] / 1000,
				       v[order[i], "p99_ns"] / 1000
	}' "$tmp/report.csv" > "$tmp/wakeup-latency.dat"
if [ "$(wc -l < "$tmp/wakeup-latency.dat")" -gt 1 ]; then
	gnuplot <<EOF
set terminal pngcairo size 1000,560 font "sans,10"
set output "$out/wakeup-latency.png"
set title "Wake-up to running, by the idle state the target CPU was in: $title"
set ylabel "latency (us)"
set logscale y
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set grid ytics
set key outside right top
plot "$tmp/wakeup-latency.dat" using 2:xtic(1) title "p50" lc rgb "#1f77b4", \
     "" using 3 title "p99" lc rgb "#ff7f0e"
EOF
else
	rm -f "$out/wakeup-latency.png"
fi

# prediction: predicted vs actual, one point per period with a prediction
awk -F'\t' '/^#/ { next } $8 != "-" && $3 > 0 && $8 > 0 { printf "%.3f\t%.3f\t%s\n", $8 / 1000, $3 / 1000, $9 }' \
	"$tmp/periods.tsv" > "$tmp/pred.dat"
# periods predicted at 0 ns cannot be placed on a log axis: counted instead
zero=$(awk -F'\t' '/^#/ { next } $8 == "0" { n++ } END { print n + 0 }' "$tmp/periods.tsv")
if [ -s "$tmp/pred.dat" ]; then
	# the same decades on both axes, so that the diagonal is the diagonal
	read -r lo hi < <(awk '{ for (i = 1; i <= 2; i++) { if (!n++ || $i < lo) lo = $i; if ($i > hi) hi = $i } }
		END { l = 10 ^ int(log(lo) / log(10) - (lo < 1)); h = 10 ^ int(log(hi) / log(10) + 1); print l, h }' "$tmp/pred.dat")
	gnuplot <<EOF
set terminal pngcairo size 800,760 font "sans,10"
set output "$out/prediction.png"
set title "Predicted vs actual idle length: $title\n($zero periods predicted at 0 ns not shown)"
set xlabel "predicted (us)"
set ylabel "actual (us)"
set logscale xy
set xrange [$lo:$hi]
set yrange [$lo:$hi]
set format xy "10^{%L}"
set grid
set key top left
set size square
plot "$tmp/pred.dat" using 1:(stringcolumn(3) eq "timer" ? \$2 : 1/0) with points pt 7 ps 0.7 lc rgb "#1f77b4" title "source: timer", \
     "" using 1:(stringcolumn(3) eq "io" ? \$2 : 1/0) with points pt 7 ps 0.7 lc rgb "#ff7f0e" title "source: io", \
     "" using 1:(stringcolumn(3) eq "task" ? \$2 : 1/0) with points pt 7 ps 0.7 lc rgb "#2ca02c" title "source: task", \
     "" using 1:(stringcolumn(3) eq "history" ? \$2 : 1/0) with points pt 7 ps 0.7 lc rgb "#d62728" title "source: history", \
     x with lines lc rgb "#555555" dt 2 title "actual = predicted"
EOF
else
	rm -f "$out/prediction.png"
fi
# the tables behind the bars, for reading and for tests
cp "$tmp/residency.dat" "$tmp/judgement.dat" "$tmp/wakeup-latency.dat" "$out/"
ls "$out"/*.png | sed 's/^/plot: /'

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-plot.sh OUT - PNG plots of `make bench` from OUT/bench/*.dat (written
# by bench-report.py): per metric, one group of bars per workload, one bar
# per policy (median), error bars from min to max over the repetitions.
# The policies are the columns the .dat header names ("# workload menu
# menu_min menu_max teo ..."), in the bench table's order.
set -eu
out=${1:?usage: bench-plot.sh OUT}
for m in correct_pct too_deep_pct too_shallow_pct energy_vs_oracle wake_p50_us \
	 wake_p99_us throughput entries; do
	dat=$out/bench/$m.dat
	[ -s "$dat" ] || { echo "bench-plot.sh: $dat missing" >&2; exit 1; }
	logscale=
	case $m in wake_*|throughput|entries) logscale="set logscale y" ;; esac
	# one plot clause per policy: median, min, max columns
	plot=$(head -1 "$dat" | awk -v q="'" -v dat="$dat" '{
		for (i = 3; i <= NF; i += 3)
			printf "%s%s using %d:%d:%d%s title %s", (i > 3 ? ", " : ""),
				q (i > 3 ? "" : dat) q, i - 1, i, i + 1, (i > 3 ? "" : ":xtic(1)"), q $i q
	}')
	gnuplot 2>&1 <<GP | grep -v "Skipping data file with no valid points" >&2 || true
set terminal pngcairo size 1400,600 noenhanced
set output '$out/bench-$m.png'
set title '$m: median, min-max over the repetitions'
set datafile missing '?'
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.7 border -1
set xtics rotate by -30
set key outside right top
set grid ytics
$logscale
plot $plot
GP
done
echo "bench-plot.sh: $out/bench-*.png"

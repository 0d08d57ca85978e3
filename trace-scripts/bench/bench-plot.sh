#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-plot.sh OUT - PNG plots of `make bench` from OUT/bench/*.dat (written
# by bench-report.py): per metric, one group of bars per workload, one bar
# per policy (median), error bars from min to max over the repetitions.
set -eu
out=${1:?usage: bench-plot.sh OUT}
for m in correct_pct too_deep_pct too_shallow_pct energy_vs_oracle wake_p50_us \
	 wake_p99_us throughput entries; do
	dat=$out/bench/$m.dat
	[ -s "$dat" ] || { echo "bench-plot.sh: $dat missing" >&2; exit 1; }
	logscale=
	case $m in wake_*|throughput|entries) logscale="set logscale y" ;; esac
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
plot '$dat' using 2:3:4:xtic(1) title 'menu', \
     '' using 5:6:7 title 'teo', \
     '' using 8:9:10 title 'ladder', \
     '' using 11:12:13 title 'sched'
GP
done
echo "bench-plot.sh: $out/bench-*.png"

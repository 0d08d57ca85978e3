#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sip-idle-plot.sh on the known-answer traces: every plot is a PNG of the
# expected size with more than the background in it, prediction.png only
# when the trace has the prediction event, and a bad trace fails the script.
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh
need_analyser
command -v gnuplot >/dev/null || skip_all "gnuplot not installed"
scratch
# png_ok <file> <width> <height>: a PNG of that size with > 3 colours
png_ok() {
	local sig w h
	[ -s "$1" ] || return 1
	sig=$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || return 1
	w=$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
	h=$(od -An -tu1 -j20 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
	[ "$w" = "$2" ] && [ "$h" = "$3" ] || return 1
	if command -v identify >/dev/null; then
		[ "$(identify -format '%k' "$1")" -gt 3 ] || return 1
	fi
}

./trace-scripts/sip-idle-plot.sh "$R" $D/base.dat "$tmp/base" >/dev/null
ok $? "plots of base.dat"
for p in residency judgement idle-length; do
	png_ok "$tmp/base/$p.png" 1000 560; ok $? "base: $p.png is a 1000x560 PNG with content"
done
png_ok "$tmp/base/wakeup-latency.png" 1000 560; ok $? "base: wakeup-latency.png is a 1000x560 PNG with content"
ok "$([ "$(tail -n +2 "$tmp/base/wakeup-latency.dat" | tr '\t\n' '  ')" = "C2 53.000 53.000 C3 3931.000 3931.000 " ]; echo $?)" \
	"base: wakeup-latency.dat: woken from C2 53 us, from C3 3931 us"
[ ! -e "$tmp/base/prediction.png" ]; ok $? "base: no prediction.png without the prediction event"
./trace-scripts/sip-idle-plot.sh "$R" $D/predict.dat "$tmp/pred" >/dev/null
ok $? "plots of predict.dat"
png_ok "$tmp/pred/prediction.png" 800 760; ok $? "predict: prediction.png is an 800x760 PNG with content"
# The plotted tables are the report's figures (tests/data/analyser/README.md).
ok "$([ "$(tail -n +2 "$tmp/base/judgement.dat" | tr '\t\n' ' ')" = "POLL 1 0 0 C1 0 1 1 C2 1 1 0 C3 1 0 0 " ]; echo $?)" \
	"base: judgement.dat holds correct/too deep/too shallow per state"
ok "$([ "$(awk -F'\t' '$1 == "C3" { print $3, $4 }' "$tmp/base/residency.dat")" = "100.000 54.603" ]; echo $?)" \
	"base: residency.dat: C3 is 100% of cpu1's idle time, 54.603% of all"
: > "$tmp/bad.dat"
./trace-scripts/sip-idle-plot.sh "$R" "$tmp/bad.dat" "$tmp/bad" >/dev/null 2>&1
ok "$([ $? != 0 ]; echo $?)" "an empty trace fails the plot script"
plan $tap_n

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KernelShark plugin (trace-scripts/kshark-sip-idle/), loaded into
# KernelShark on a virtual X server, judged from screenshots. Its marks have
# colours KernelShark itself does not draw: pure green (0,255,0) where an
# idle period ended, a triangle where its prediction said it would end in
# the colour of the prediction's source (timer magenta (255,0,255), io
# orange (255,128,0), task teal (0,176,176), history olive (128,128,0)),
# blue (0,0,255) joining the two when the CPU slept past the prediction.
# On tests/data/analyser/predict.dat (five periods, one late by 1 ms,
# derivation in its README; the event's older layout, so the source is
# derived: three timer, two io) the screenshot must show exactly five
# green marks, three magenta and two orange triangles and one blue line,
# and none of these colours without the plugin; on a trace with every
# source (3 timer, 2 io, 4 task, 1 history) each colour as many times as
# its source; on a real guest trace, green marks all along both CPUs.
# Screenshots are kept in $SIP_TEST_OUT/analyser-kshark/ (results/test).
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh
out=$SIP_TEST_OUT/analyser-kshark
for c in kernelshark xvfb-run import convert; do
	command -v $c >/dev/null || skip_all "$c not installed"
done
# libkshark.h includes json-c's header (Debian: libjson-c-dev)
if [ ! -f /usr/include/json-c/json.h ] || [ ! -f /usr/include/kernelshark/libkshark.h ]; then
	skip_all "libkshark-dev or libjson-c-dev not installed"
fi
need_analyser analyser kshark-plugin
P=$TOOLS/kshark/plugin-sip_idle.so
shot=./trace-scripts/kshark-sip-idle/ks-screenshot.sh
rm -rf "$out"; mkdir -p "$out"
# clusters <png> <#RRGGBB>: runs of screen columns holding that colour
# (columns less than 3 px apart belong to one mark)
clusters() {
	convert "$1" -depth 8 txt:- | awk -v c="$2" '
		$3 == c { split($1, a, ","); x[a[1] + 0] = 1 }
		END { n = 0; last = -10
		      for (i = 0; i < 4000; i++) if (i in x) { if (i - last > 2) n++; last = i }
		      print n }'
}
columns() {
	convert "$1" -depth 8 txt:- | awk -v c="$2" '
		$3 == c { split($1, a, ","); x[a[1] + 0] = 1 } END { print length(x) }'
}

# the triangle colour of each source: timer io task history
SRC_COLS="#FF00FF #FF8000 #00B0B0 #808000"
# by_source <png>: the triangles of each source, "timer io task history"
by_source() {
	local c n=()
	for c in $SRC_COLS; do n+=("$(clusters "$1" "$c")"); done
	echo "${n[*]}"
}

WAIT=12 $shot "$out/predict-without.png" $D/predict.dat 2>"$out/err1"
ok $? "KernelShark shows predict.dat without the plugin $(head -1 "$out/err1")"
WAIT=12 $shot "$out/predict-plugin.png" $D/predict.dat "$P" 2>"$out/err2"
ok $? "KernelShark shows predict.dat with the plugin $(head -1 "$out/err2")"
n=$(echo $(clusters "$out/predict-without.png" "#00FF00") $(by_source "$out/predict-without.png"))
ok "$([ "$n" = "0 0 0 0 0" ]; echo $?)" "without the plugin: no green mark, no source colour (got $n)"
n=$(clusters "$out/predict-plugin.png" "#00FF00")
ok "$([ "$n" = 5 ]; echo $?)" "with the plugin: 5 actual idle ends (green), got $n"
n=$(by_source "$out/predict-plugin.png")
ok "$([ "$n" = "3 2 0 0" ]; echo $?)" "older layout, source derived: 3 timer (magenta) and 2 io (orange) predicted ends, got $n"
n=$(clusters "$out/predict-plugin.png" "#0000FF")
ok "$([ "$n" = 1 ]; echo $?)" "with the plugin: 1 late wake-up line (blue, p4: predicted 16 ms, woke at 17 ms), got $n"

# Every source, in the event's current layout: ten periods of 1 ms, 2 ms
# apart, each predicted to end after 1 ms (so every mark is on screen):
# timer x3, io x2, task x4 (next_task_ns 1 ms), history x1.
{
	echo '%include sched_idle_predict'
	i=0
	for src in 0 0 0 1 1 2 2 2 2 3; do
		ts=$(( (i * 2 + 1) * 1000000 ))
		nt=0; [ $src = 2 ] && nt=1000000
		echo "$((ts - 1000)) 0 sched_idle_predict cpu=0 next_timer_ns=5000000 next_task_ns=$nt latency_req_ns=1000000 predicted_ns=1000000 duration_ns=1000000 state=2 source=$src"
		echo "$ts 0 cpu_idle state=2 cpu_id=0"
		echo "$((ts + 1000000)) 0 cpu_idle state=4294967295 cpu_id=0"
		i=$((i + 1))
	done
} > "$out/sources.txt"
python3 tests/data/synth-trace.py "$out/sources.txt" "$out/sources.dat"
WAIT=12 $shot "$out/sources-plugin.png" "$out/sources.dat" "$P" 2>"$out/err4"
ok $? "KernelShark shows a trace with every source, with the plugin $(head -1 "$out/err4")"
n=$(by_source "$out/sources-plugin.png")
ok "$([ "$n" = "3 2 4 1" ]; echo $?)" "every source: 3 timer, 2 io, 4 task, 1 history predicted ends in their colours, got $n"
n=$(clusters "$out/sources-plugin.png" "#00FF00")
ok "$([ "$n" = 10 ]; echo $?)" "every source: 10 actual idle ends (green), got $n"

# A real trace: the guest trace of analyser-guest.t when it ran, else a
# 2 s recording of our own.
real=$SIP_TEST_OUT/analyser-guest/trace.dat
if [ ! -s "$real" ]; then
	real=$out/guest/trace.dat
	make --no-print-directory boot KERNEL=${KERNEL:-base} PLATFORM=x86-client \
		DISKS='100us 2ms' TIMEOUT=240 RESULTS=$out/guest \
		CMD='/sip/trace-scripts/guest/record.sh -t 2 -w mixed' >"$out/boot.log" 2>&1
fi
[ -s "$real" ]; ok $? "a real guest trace: $real"
$shot "$out/guest-plugin.png" "$real" "$P" 2>"$out/err3"
ok $? "KernelShark shows the guest trace with the plugin $(head -1 "$out/err3")"
n=$(columns "$out/guest-plugin.png" "#00FF00")
ok "$([ "${n:-0}" -ge 100 ]; echo $?)" "guest trace: idle ends marked in $n screen columns (>= 100)"
pred=$($R -P -f csv "$real" | awk -F, '$1 == "run" && $5 == "has_predict" { print $6 }')
n=$(( $(by_source "$out/guest-plugin.png" | tr ' ' '+') ))
if [ "$pred" = 1 ]; then
	ok "$([ "${n:-0}" -ge 10 ]; echo $?)" "guest trace has predictions: $n predicted ends marked (>= 10)"
else
	ok "$([ "$n" = 0 ]; echo $?)" "guest trace has no prediction event: no predicted ends marked (got $n)"
fi
plan $tap_n

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sip-idle-report's decisions by source and sleep prediction figures on the
# known-answer traces (derivations in tests/data/analyser/README.md):
# sources.dat has sched_idle_predict in its current layout (next_task_ns,
# source) and sched_sleep_predict; predict.dat has the older layout, whose
# source the analyser derives; small inline traces pin the derivation rule
# and the handling of an unknown source value.
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh
need_analyser
scratch

# csv <file> <section> <name> <metric>: one value of the CSV (cpu "all")
csv() {
	awk -F, -v s="$2" -v k="$3" -v m="$4" \
		'$1 == s && $2 == "all" && $4 == k && $5 == m { print $6 }' "$1"
}
# row <file> <section> <name> <metric>...: several values on one line
row() {
	local f=$1 s=$2 n=$3 m out=()
	shift 3
	for m in "$@"; do out+=("$(csv "$f" "$s" "$n" "$m")"); done
	echo "${out[*]}"
}
synth() {	# <name> <script lines...>
	local n=$1
	shift
	printf '%s\n' "$@" > "$tmp/$n.txt"
	python3 tests/data/synth-trace.py "$tmp/$n.txt" "$tmp/$n.dat"
}

# --- sources.dat: every source, with known errors -------------------------
S=$tmp/sources.csv
$R -f csv $D/sources.dat > "$S"; ok $? "sources.dat: exit status 0"
is "sources: prediction and sleep events found" "1 1" "$(row "$S" run "" has_predict has_sleep_predict)"
is "sources: 20 periods with a prediction, none mismatched" "20 0" \
	"$(echo $(awk -F, '$1 == "cpu" && $2 == "all" && ($5 == "predicted" || $5 == "pred_state_mismatch") { print $6 }' "$S"))"
is "sources: periods timer io task history" "4 2 10 4" \
	"$(echo $(for s in timer io task history; do csv "$S" source $s periods; done))"
is "sources: share of periods timer io task history" "20.000000 10.000000 50.000000 20.000000" \
	"$(echo $(for s in timer io task history; do csv "$S" source $s share_pct; done))"
is "sources: no source derived (the trace has the field)" "0 0 0 0" \
	"$(echo $(for s in timer io task history; do csv "$S" source $s derived; done))"
# task: |duration - actual| 400 300 200 100 0 100 200 500 800 1500 us
is "task: 10 errors, |duration - actual| p50 200 us, p90 800 us" "10 200000 800000" \
	"$(row "$S" source task_duration_abs_error count p50_ns p90_ns)"
is "task: correct 9, too deep 0, too shallow 1 (2500 us in C2)" "10 9 0 1" \
	"$(row "$S" source task judged correct too_deep too_shallow)"
is "task: 90% correct, 10% too shallow" "90.000000 0.000000 10.000000" \
	"$(row "$S" source task correct_pct too_deep_pct too_shallow_pct)"
# timer: 0 0 0 4000 us; t2 (tick kept) is 0 against duration, 8500 us against predicted
is "timer: |duration - actual| p50 0, p90 4000 us" "4 0 4000000" \
	"$(row "$S" source timer_duration_abs_error count p50_ns p90_ns)"
is "timer: the tick-kept period t2 is 8500 us off predicted_ns (|error| max)" 8500000 \
	"$(csv "$S" prediction timer_abs_error max_ns)"
is "timer: correct 3, too deep 1 (C3 for 1 ms)" "3 1 0" \
	"$(row "$S" source timer correct too_deep too_shallow)"
is "io: |duration - actual| p50 100 us, p90 200 us, all correct" "100000 200000 2" \
	"$(row "$S" source io_duration_abs_error p50_ns p90_ns) $(csv "$S" source io correct)"
is "history: |duration - actual| 20 30 200 4900 us: p50 30 us, p90 4900 us" "30000 4900000" \
	"$(row "$S" source history_duration_abs_error p50_ns p90_ns)"
is "history: correct 2, too deep 1, too shallow 1" "50.000000 25.000000 25.000000" \
	"$(row "$S" source history correct_pct too_deep_pct too_shallow_pct)"
is "history: the inputs alone (actual - predicted_ns) p50 -19880 us, all early" "-19880000 4 0" \
	"$(csv "$S" prediction history_error p50_ns) $(row "$S" prediction history early late)"
is "task: actual - predicted p50 0, early 4, late 5" "0 4 5" \
	"$(csv "$S" prediction task_error p50_ns) $(row "$S" prediction task early late)"

# sleeps: s2/s3 and s4/s5 straddle predicted * sqrt(2) and predicted / sqrt(2)
is "sleep: 10 sleeps, 8 predicted, 4 in the bucket, 3 woken elsewhere" "10 8 4 3" \
	"$(row "$S" sleep "" sleeps predicted in_bucket elsewhere)"
is "sleep: 80% predicted, 50% of those in the bucket, 30% woken elsewhere" \
	"80.000000 50.000000 30.000000" "$(row "$S" sleep "" predicted_pct in_bucket_pct elsewhere_pct)"
is "sleep: slept p50 1000 us, p90 4000 us" "10 1000000 4000000" "$(row "$S" sleep slept count p50_ns p90_ns)"
is "sleep: woken elsewhere (1414.214, 3000, 8000 us): p50 3000 us" "3 3000000" \
	"$(row "$S" sleep slept_elsewhere count p50_ns)"
is "sleep: |slept - predicted| p50 292.894 us, p90 6000 us" "8 292894 6000000" \
	"$(row "$S" sleep abs_error count p50_ns p90_ns)"

# The same in JSON and in the text report.
$R -f json $D/sources.dat > "$tmp/sources.json"
is "sources: JSON agrees with the CSV" "10 50.0 200000 800000 90.0 4 50.0 3000000" "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
t, s = r["sources"]["task"], r["sleep_predict"]
print(t["periods"], t["share_pct"], t["duration_abs_error"]["p50_ns"],
      t["duration_abs_error"]["p90_ns"], t["correct_pct"], s["in_bucket"],
      s["in_bucket_pct"], s["slept_elsewhere"]["p50_ns"])' "$tmp/sources.json" 2>&1)"
$R $D/sources.dat > "$tmp/sources.txt"
grep -qE '^  task +10 +50\.0% +200\.0 +800\.0 +90\.0% +0\.0% +10\.0%$' "$tmp/sources.txt"
ok $? "sources: text row of the task source"
grep -qE '^  history +4 +20\.0% +30\.0 +4900\.0 +50\.0% +25\.0% +25\.0%$' "$tmp/sources.txt"
ok $? "sources: text row of the history source"
grep -q '^  sleeps 10, with a prediction 8 (80.0%), in the predicted bucket (within a factor sqrt(2)) 4 (50.0% of predicted)$' \
	"$tmp/sources.txt"
ok $? "sources: text line of the sleep prediction"
grep -q '^  woken elsewhere (wake_cpu != block_cpu) 3 (30.0%), their sleep p50 3000.0 us$' "$tmp/sources.txt"
ok $? "sources: text line of the sleeps woken elsewhere"
! grep -q 'source derived' "$tmp/sources.txt"; ok $? "sources: no derived-source note"
$R --periods "$tmp/p.tsv" -o /dev/null $D/sources.dat
is "sources: --periods, period t2: source, predicted, duration, next_task" "timer 10000000 1500000 0" \
	"$(awk -F'\t' '!/^#/ && $3 == 1500000 && $9 == "timer" { print $9, $8, $11, $12 }' "$tmp/p.tsv")"
is "sources: --periods, the task periods carry next_task_ns 1000 us" 10 \
	"$(awk -F'\t' '!/^#/ && $9 == "task" && $12 == 1000000' "$tmp/p.tsv" | wc -l)"

# --- predict.dat: the layout without next_task_ns and source -------------
P=$tmp/predict.csv
$R -f csv $D/predict.dat > "$P"; ok $? "predict.dat (older layout): exit status 0"
is "predict: sources derived: timer 3, io 2, task 0, history 0" "3 2 0 0 / 3 2 0 0" \
	"$(echo $(for s in timer io task history; do csv "$P" source $s periods; done) / \
		$(for s in timer io task history; do csv "$P" source $s derived; done))"
is "predict: io |duration - actual| 50 and 1000 us: p50 50 us, p90 1000 us" "50000 1000000" \
	"$(row "$P" source io_duration_abs_error p50_ns p90_ns)"
is "predict: io correct 1, too shallow 1; timer correct 3" "1 1 3" \
	"$(row "$P" source io correct too_shallow) $(csv "$P" source timer correct)"
is "predict: no sleep event" "0 0" \
	"$(csv "$P" run "" has_sleep_predict) $(grep -c '^sleep,' "$P")"
$R $D/predict.dat > "$tmp/predict.txt"
grep -q '^  source derived for 5 periods' "$tmp/predict.txt"; ok $? "predict: text says the source was derived"
grep -q '^  n/a: no sched_sleep_predict events$' "$tmp/predict.txt"; ok $? "predict: text says there are no sleep events"
is "predict: JSON sleep_predict null, sources.io.derived 2" "None 2" "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["sleep_predict"], r["sources"]["io"]["derived"])' <($R -f json $D/predict.dat) 2>&1)"
# base kernel: neither section
$R -f json $D/base.dat > "$tmp/base.json"
is "base: JSON sources and sleep_predict null" "None None" "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["sources"], r["sleep_predict"])' "$tmp/base.json" 2>&1)"

# The derivation rule for the older layout: io when next_io_ns != 0 and
# next_io_ns == predicted_ns, even when the next timer is as near (a);
# timer when next_io_ns is not the prediction (b) or is 0 (c).
synth old '%layout sched_idle_predict v1' '%include sched_idle_predict' \
	'1000 0 sched_idle_predict cpu=0 next_timer_ns=500000 next_io_ns=500000 latency_req_ns=1000000 predicted_ns=500000 duration_ns=500000 state=2' \
	'2000 0 cpu_idle state=2 cpu_id=0' '502000 0 cpu_idle state=4294967295 cpu_id=0' \
	'600000 0 sched_idle_predict cpu=0 next_timer_ns=300000 next_io_ns=600000 latency_req_ns=1000000 predicted_ns=300000 duration_ns=300000 state=2' \
	'601000 0 cpu_idle state=2 cpu_id=0' '901000 0 cpu_idle state=4294967295 cpu_id=0' \
	'1000000 0 sched_idle_predict cpu=0 next_timer_ns=300000 latency_req_ns=1000000 predicted_ns=300000 duration_ns=300000 state=2' \
	'1001000 0 cpu_idle state=2 cpu_id=0' '1301000 0 cpu_idle state=4294967295 cpu_id=0'
$R -P -f csv "$tmp/old.dat" > "$tmp/old.csv"
is "older layout: a tie of io and timer is io, io beyond the prediction is timer" "1 2 3" \
	"$(echo $(row "$tmp/old.csv" source io periods) $(row "$tmp/old.csv" source timer periods) \
		$(( $(csv "$tmp/old.csv" source io derived) + $(csv "$tmp/old.csv" source timer derived) )))"
# Current layout: the traced source wins over the inputs; a value the
# analyser does not know is derived like an older trace's.
synth new '%include sched_idle_predict' \
	'1000 0 sched_idle_predict cpu=0 next_timer_ns=500000 next_io_ns=500000 latency_req_ns=1000000 predicted_ns=500000 duration_ns=500000 state=2 source=3' \
	'2000 0 cpu_idle state=2 cpu_id=0' '502000 0 cpu_idle state=4294967295 cpu_id=0' \
	'600000 0 sched_idle_predict cpu=0 next_timer_ns=900000 next_io_ns=300000 latency_req_ns=1000000 predicted_ns=300000 duration_ns=300000 state=2 source=7' \
	'601000 0 cpu_idle state=2 cpu_id=0' '901000 0 cpu_idle state=4294967295 cpu_id=0'
$R -P -f csv "$tmp/new.dat" > "$tmp/new.csv"
is "current layout: source history as traced; unknown source 7 derived as io" "1 0 1 1" \
	"$(row "$tmp/new.csv" source history periods derived) $(row "$tmp/new.csv" source io periods derived)"
is "without a platform: no judgement per source" "0 -" \
	"$(csv "$tmp/new.csv" source history judged) $($R -P "$tmp/new.dat" | awk '$1 == "history" && NF == 8 { print $6 }')"
# Horizons (model.c): a history guess with horizon_ns 110 us ended by its
# timer at 108 us (entry 2 us after the prediction) reached it; one whose
# intercept came at 40 us did not; a timer period sets none. The next pass
# after the first is a timer period of its own.
synth horizon '%include sched_idle_predict' \
	'1000 0 sched_idle_predict cpu=0 next_timer_ns=3000000 latency_req_ns=1000000 predicted_ns=3000000 duration_ns=20000 state=2 source=3 horizon_ns=110000' \
	'3000 0 cpu_idle state=2 cpu_id=0' '111000 0 cpu_idle state=4294967295 cpu_id=0' \
	'112000 0 sched_idle_predict cpu=0 next_timer_ns=2889000 latency_req_ns=1000000 predicted_ns=2889000 duration_ns=2889000 state=6 source=0' \
	'113000 0 cpu_idle state=6 cpu_id=0' '3001000 0 cpu_idle state=4294967295 cpu_id=0' \
	'3100000 0 sched_idle_predict cpu=0 next_timer_ns=3000000 latency_req_ns=1000000 predicted_ns=3000000 duration_ns=20000 state=2 source=3 horizon_ns=110000' \
	'3101000 0 cpu_idle state=2 cpu_id=0' '3141000 0 cpu_idle state=4294967295 cpu_id=0'
$R -P -f csv "$tmp/horizon.dat" > "$tmp/horizon.csv"
is "horizons: set 2, reached 1 (csv)" "2 1" \
	"$(row "$tmp/horizon.csv" prediction history horizon_set horizon_reached)"
is "horizons: the text report says so" "history horizons set 2, reached 1" \
	"$($R -P "$tmp/horizon.dat" | grep -o 'history horizons set [0-9]*, reached [0-9]*')"
is "horizons: none in a trace without the field" "" \
	"$(row "$tmp/old.csv" prediction history horizon_set | tr -d ' ')"
plan $tap_n

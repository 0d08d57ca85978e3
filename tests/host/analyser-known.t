#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sip-idle-report on the known-answer traces of tests/data/analyser/: every
# figure checked here is derived by hand in tests/data/analyser/README.md.
cd "$(dirname "$0")/../.."
. tests/host/lib.sh
need_analyser analyser-tests
scratch

# csv <file> <section> <cpu> <state|name> <metric>: one value of the CSV
csv() {
	awk -F, -v s="$2" -v c="$3" -v k="$4" -v m="$5" \
		'$1 == s && $2 == c && ($3 == k || $4 == k) && $5 == m { print $6 }' "$1"
}

# The synthetic writer is deterministic: the committed traces are its output.
for n in base predict window sources; do
	python3 tests/data/synth-trace.py $D/$n.txt "$tmp/$n.dat"
	cmp -s $D/$n.dat "$tmp/$n.dat"; is "$n.dat is synth-trace.py's output of $n.txt" 0 $?
done

$R -f csv $D/base.dat > "$tmp/base.csv"; is "base.dat: exit status" 0 $?
B="$tmp/base.csv"
is "base: 2 CPUs" 2 "$(csv $B run all "" cpus)"
is "base: duration" 5520000 "$(csv $B run all "" duration_ns)"
is "base: events" 36 "$(csv $B run all "" events)"
is "base: lost events" 3 "$(csv $B run all "" lost_events)"
is "base: no prediction event" 0 "$(csv $B run all "" has_predict)"
is "base: idle periods" 6 "$(csv $B cpu all "" idle_periods)"
is "base: idle time" 9157000 "$(csv $B cpu all "" idle_ns)"
is "base: cpu0 periods" 5 "$(csv $B cpu 0 "" idle_periods)"
is "base: cpu1 periods" 1 "$(csv $B cpu 1 "" idle_periods)"
is "base: discarded (lost events)" "0 1 1" "$(echo $(csv $B cpu 0 "" discarded) $(csv $B cpu 1 "" discarded) $(csv $B cpu all "" discarded))"
is "base: cpu1 lost events" 3 "$(csv $B cpu 1 "" lost_events)"
is "base: open at end" 1 "$(csv $B cpu all "" open_at_end)"
is "base: entries POLL C1 C2 C3" "1 2 2 1" \
	"$(echo $(for s in 0 1 2 3; do csv $B state all $s entries; done))"
is "base: residency POLL C1 C2 C3" "2000 3005000 1150000 5000000" \
	"$(echo $(for s in 0 1 2 3; do csv $B state all $s residency_ns; done))"
is "base: correct per state" "1 0 1 1" "$(echo $(for s in 0 1 2 3; do csv $B state all $s correct; done))"
is "base: too deep per state" "0 1 1 0" "$(echo $(for s in 0 1 2 3; do csv $B state all $s too_deep; done))"
is "base: too shallow per state" "0 1 0 0" "$(echo $(for s in 0 1 2 3; do csv $B state all $s too_shallow; done))"
is "base: latency violations per state" "0 0 0 1" \
	"$(echo $(for s in 0 1 2 3; do csv $B state all $s latency_violations; done))"
is "base: oracle entries per state" "2 1 3 0" \
	"$(echo $(for s in 0 1 2 3; do csv $B state all $s oracle_entries; done))"
is "base: kernel cpu_idle_miss above on cpu0 C1" 1 "$(csv $B state 0 1 kernel_above)"
is "base: run energy" 2114.500000 "$(csv $B cpu all "" energy_uj)"
is "base: oracle energy" 1242.000000 "$(csv $B cpu all "" oracle_energy_uj)"
is "base: energy ratio" 1.702496 "$(csv $B cpu all "" energy_ratio)"
is "base: cpu0 energy ratio" 2.738965 "$(csv $B cpu 0 "" energy_ratio)"
is "base: cpu1 energy ratio" 0.538462 "$(csv $B cpu 1 "" energy_ratio)"
is "base: wake-to-run n p50 p99" "3 53000 3931000" \
	"$(echo $(for m in count p50_ns p99_ns; do csv $B latency all wake_to_run $m; done))"
is "base: wake-to-run, idle target, n p50 p99" "2 53000 3931000" \
	"$(echo $(for m in count p50_ns p99_ns; do csv $B latency all wake_to_run_idle $m; done))"
is "base: wake-to-run by the target's idle state: C2 n p50, C3 n p50" "1 53000 1 3931000" \
	"$(echo $(csv $B latency all wake_to_run_in_C2 count) $(csv $B latency all wake_to_run_in_C2 p50_ns) $(csv $B latency all wake_to_run_in_C3 count) $(csv $B latency all wake_to_run_in_C3 p50_ns))"
is "base: exit-to-switch n p50 p99" "5 3000 6000" \
	"$(echo $(for m in count p50_ns p99_ns; do csv $B latency all exit_to_switch $m; done))"
is "base: idle exits with nothing to run" 1 "$(csv $B cpu all "" spurious_wakeups)"
is "base: block 252:0 n p50 p99" "2 20000 1008500" \
	"$(echo $(for m in count p50_ns p99_ns; do csv $B block all 252:0 $m; done))"
is "base: block 252:16 n p50" "1 40000" \
	"$(echo $(for m in count p50_ns; do csv $B block all 252:16 $m; done))"

$R -f csv $D/predict.dat > "$tmp/predict.csv"; is "predict.dat: exit status" 0 $?
P="$tmp/predict.csv"
is "predict: prediction event found" 1 "$(csv $P run all "" has_predict)"
is "predict: duration" 20901000 "$(csv $P run all "" duration_ns)"
is "predict: entries C2 C3" "4 1" "$(echo $(csv $P state all 2 entries) $(csv $P state all 3 entries))"
is "predict: correct C2 C3" "3 1" "$(echo $(csv $P state all 2 correct) $(csv $P state all 3 correct))"
is "predict: too shallow C2" 1 "$(csv $P state all 2 too_shallow)"
is "predict: oracle C2 C3" "3 2" "$(echo $(csv $P state all 2 oracle_entries) $(csv $P state all 3 oracle_entries))"
is "predict: energy run oracle ratio" "1430.000000 1340.000000 1.067164" \
	"$(echo $(csv $P cpu all "" energy_uj) $(csv $P cpu all "" oracle_energy_uj) $(csv $P cpu all "" energy_ratio))"
is "predict: predicted, state mismatch" "5 1" \
	"$(echo $(csv $P cpu all "" predicted) $(csv $P cpu all "" pred_state_mismatch))"
is "predict: tick stopped, tick-stop misses" "4 3" \
	"$(echo $(csv $P cpu all "" tick_stopped) $(csv $P cpu all "" tick_stop_misses))"
is "predict: timer n early late p50" "3 0 0 0" \
	"$(echo $(csv $P prediction all timer_error count) $(csv $P prediction all timer early) $(csv $P prediction all timer late) $(csv $P prediction all timer_error p50_ns))"
is "predict: io n early late" "2 1 1" \
	"$(echo $(csv $P prediction all io_error count) $(csv $P prediction all io early) $(csv $P prediction all io late))"
is "predict: io error p50 p99 mean" "-50000 1000000 475000.000000" \
	"$(echo $(csv $P prediction all io_error p50_ns) $(csv $P prediction all io_error p99_ns) $(csv $P prediction all io_error mean_ns))"
is "predict: io |error| p50 p99" "50000 1000000" \
	"$(echo $(csv $P prediction all io_abs_error p50_ns) $(csv $P prediction all io_abs_error p99_ns))"

# JSON: valid, and the same figures as the CSV.
for n in base predict; do
	$R -f json $D/$n.dat > "$tmp/$n.json"
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/$n.json" 2>/dev/null
	is "$n: JSON parses" 0 $?
done
is "base: JSON totals agree with CSV" "6 2114.5 1.702496 3931000 3" "$(python3 -c '
import json,sys
r = json.load(open(sys.argv[1]))
t = r["total"]
print(t["idle_periods"], t["energy_uj"], t["energy_ratio"],
      r["latency"]["wake_to_run"]["p99_ns"], r["lost_events"])' "$tmp/base.json")"
is "predict: JSON prediction io p50 agrees" "-50000 3" "$(python3 -c '
import json,sys
r = json.load(open(sys.argv[1]))
print(r["prediction"]["io"]["error"]["p50_ns"], r["total"]["tick_stop_misses"])' "$tmp/predict.json")"

# Text: the lost-event count is printed with every report; no terminal
# escapes when stdout is not a terminal, bold headings when it is.
$R $D/base.dat > "$tmp/base.txt"
grep -q '^lost events: 3;' "$tmp/base.txt"; is "base: text report prints lost events" 0 $?
is "base: no escape sequences into a pipe" 0 "$(grep -c $'\033' "$tmp/base.txt")"
if command -v script >/dev/null; then
	script -qc "$R $D/base.dat" /dev/null > "$tmp/tty.txt" 2>&1
	is "base: bold headings on a terminal" 1 "$(grep -c $'\033\\[1mjudgement' "$tmp/tty.txt")"
fi
# Without the platform description: counts, no judgement.
$R -P -f csv $D/base.dat > "$tmp/noplat.csv"
is "base -P: entries still counted, no judgement" "6 0" \
	"$(echo $(csv $tmp/noplat.csv cpu all "" idle_periods) $(csv $tmp/noplat.csv state all 1 too_deep))"
# Per-period output for the plots: one line per period.
$R --periods "$tmp/p.tsv" -o /dev/null $D/predict.dat
is "predict: --periods writes 5 periods" 5 "$(grep -vc '^#' "$tmp/p.tsv")"
is "predict: period p4 line" "io 2000000 3000000 too_shallow" \
	"$(awk '$9 == "io" && $3 == 3000000 { print $9, $8, $3, $7 }' "$tmp/p.tsv")"
# A prediction with state -1 (no cpuidle state chosen: no driver, or a
# latency limit of 0) is not compared with the state the default idle
# reports; the signed field must read as -1, not 4294967295.
printf '%s\n' '%include sched_idle_predict' \
	'1000 0 sched_idle_predict cpu=0 next_timer_ns=50000 latency_req_ns=0 predicted_ns=50000 duration_ns=50000 state=-1 tick_stopped=0' \
	'2000 0 cpu_idle state=1 cpu_id=0' '52000 0 cpu_idle state=4294967295 cpu_id=0' \
	'60000 0 sched_idle_predict cpu=0 next_timer_ns=50000 latency_req_ns=0 predicted_ns=50000 duration_ns=50000 state=2 tick_stopped=0' \
	'61000 0 cpu_idle state=1 cpu_id=0' '111000 0 cpu_idle state=4294967295 cpu_id=0' > "$tmp/nostate.txt"
python3 tests/data/synth-trace.py "$tmp/nostate.txt" "$tmp/nostate.dat"
$R -P -f csv "$tmp/nostate.dat" > "$tmp/nostate.csv"
N="$tmp/nostate.csv"
is "state -1 prediction: no state 1, mismatch 1 (the state 2 one), predicted 2" "1 1 2" \
	"$(echo $(csv $N cpu all "" pred_no_state) $(csv $N cpu all "" pred_state_mismatch) $(csv $N cpu all "" predicted))"

# --window: only the periods between the trace markers.
$R --window -f csv $D/window.dat > "$tmp/window.csv"; is "window.dat --window: exit status" 0 $?
W="$tmp/window.csv"
is "window: periods, open at end, idle time" "2 1 305000" \
	"$(echo $(csv $W cpu all "" idle_periods) $(csv $W cpu all "" open_at_end) $(csv $W cpu all "" idle_ns))"
is "window: entries POLL C1 C2" "1 0 1" "$(echo $(for s in 0 1 2; do csv $W state all $s entries; done))"
is "window: duration, events" "470000 5" "$(echo $(csv $W run all "" duration_ns) $(csv $W run all "" events))"
is "window.dat without --window: 5 periods" 5 "$($R -f csv $D/window.dat | awk -F, '$1 == "cpu" && $2 == "all" && $5 == "idle_periods" { print $6 }')"
$R --window $D/base.dat >/dev/null 2>"$tmp/err"; rc=$?
is "base.dat --window: no markers, status 1, one line" "1 1" "$rc $(wc -l < "$tmp/err")"
plan $tap_n

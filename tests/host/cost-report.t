#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cost-report.py (make bench-cost) on synthetic guest output: instructions
# per operation are (elapsed - idle) / ops, a row's figure is the median
# of its runs, patched/base is the base's figure over the patched one's
# with the spread of the worst and best pairing, the idle entry figures
# are the counts' statistics; a missing or malformed file, or kernels that
# ran different rows, is one line on stderr naming it and status 1; a
# variant's inputs cost its figure less the all-on one, in % of the base.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
C=trace-scripts/bench/cost-report.py
plan 10

# rows <kernel-view> <row:ops:elapsed:idle ...>: one run per argument
rows() {
	mkdir -p "$tmp/raw/$1"
	local d=$tmp/raw/$1 s n=0
	shift
	: > "$d/cost-rows.txt"
	for s in "$@"; do
		IFS=: read -r r o e i <<< "$s"
		n=$((n + 1))
		echo "row $r rep $n ops $o elapsed_ns $e idle_ns $i idle_entries 2" >> "$d/cost-rows.txt"
	done
}
# base: pipe 1000, 1100, 1050 instructions per op (1000 ops, idle 0 or
# subtracted); patched: 1100, 1100, 1200
rows base-states pipe:1000:1000000:0 pipe:1000:1200000:100000 pipe:1000:1050000:0
rows patched-states pipe:1000:1100000:0 pipe:1000:1100000:0 pipe:1000:1300000:100000
rows base-poll pipe:2000:2000000:0
rows patched-poll pipe:2000:2000000:0
printf '%s\n' 10 20 30 40 50 60 70 80 90 100 -60000000 60000000 > "$tmp/raw/base-states/entry-teo.txt"
printf '%s\n' 5 5 5 > "$tmp/raw/patched-states/entry-sched.txt"

$C --raw "$tmp/raw" --out "$tmp/out" --policies "teo sched" --platform x86-client 2> "$tmp/err"
ok $? "a complete set of boots is reported $(head -1 "$tmp/err")"

jq() { python3 -c "import json,sys; d=json.load(open('$tmp/out/cost.json')); print($1)"; }
[ "$(jq "d['views']['states'][0]['base']['instructions_per_op']")" = 1050.0 ] &&
	[ "$(jq "d['views']['states'][0]['patched']['instructions_per_op']")" = 1100.0 ]
ok $? "instructions per op: the median of (elapsed - idle) / ops over the runs"

[ "$(jq "d['views']['states'][0]['ratio']")" = 0.9545 ] &&
	[ "$(jq "d['views']['states'][0]['ratio_min']")" = 0.8333 ] &&
	[ "$(jq "d['views']['states'][0]['ratio_max']")" = 1.0 ]
ok $? "patched/base 1050/1100 = 0.9545, spread 1000/1200 to 1100/1100"

[ "$(jq "d['views']['poll'][0]['ratio']")" = 1.0 ] &&
	[ "$(jq "d['views']['states'][0]['base']['idle_entries_per_kop']")" = 2.0 ]
ok $? "the poll view, and idle entries per 1000 ops (6 in 3000)"

[ "$(jq "d['idle_entry']['teo']['mean'], d['idle_entry']['teo']['median'], d['idle_entry']['teo']['p90']")" = "55.0 55.0 90" ] &&
	[ "$(jq "d['idle_entry']['sched']['entries']")" = 3 ]
ok $? "idle entry statistics: mean, median, p90, entries; the pairs 60 ms apart either way dropped"

grep -q '^| pipe | 1050 | 1100 | 0.955 | 0.833-1.000 | 2, 2 |$' "$tmp/out/cost.md" &&
	grep -q '^| teo | 10 | 2 | 55 | 20 | 90 | 100 | 55 |$' "$tmp/out/cost.md"
ok $? "cost.md has the row and the idle entry lines"

# a variant: the inputs it switches off cost (1100 - 1000) / 1050 of the base
rows patched-states-no-task pipe:1000:1000000:0
printf '%s\n' 4 4 > "$tmp/raw/patched-states-no-task/entry-sched.txt"
$C --raw "$tmp/raw" --out "$tmp/outv" --policies "teo sched" --variants no-task 2> "$tmp/err"
rc=$?
d=$tmp/outv/cost.json
[ $rc = 0 ] &&
	[ "$(python3 -c "import json; v=json.load(open('$d'))['variants']['no-task']; print(v['rows'][0]['ratio'], v['rows'][0]['inputs_cost_pct'], v['idle_entry']['mean'])")" = "1.05 9.52 4.0" ] &&
	grep -q '^| pipe | 0.955 | 1.050 (+9.5 %) |$' "$tmp/outv/cost.md"
ok $? "a variant: its ratio 1.05 and its inputs' cost 9.52 % of the base $(head -1 "$tmp/err")"

# bad input
cp -r "$tmp/raw" "$tmp/bad1"
rm "$tmp/bad1/patched-poll/cost-rows.txt"
$C --raw "$tmp/bad1" --out "$tmp/o1" 2> "$tmp/err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "patched-poll/cost-rows.txt" "$tmp/err"
ok $? "a missing boot: status $rc, $(cat "$tmp/err")"

cp -r "$tmp/raw" "$tmp/bad2"
echo "row pipe rep x ops" >> "$tmp/bad2/base-states/cost-rows.txt"
$C --raw "$tmp/bad2" --out "$tmp/o2" 2> "$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "base-states/cost-rows.txt:4: not a cost row" "$tmp/err" && [ ! -e "$tmp/o2" ]
ok $? "a malformed line: status $rc, $(cat "$tmp/err"), nothing written"

cp -r "$tmp/raw" "$tmp/bad3"
echo "row fork rep 1 ops 5 elapsed_ns 5000 idle_ns 0 idle_entries 0" >> "$tmp/bad3/base-poll/cost-rows.txt"
$C --raw "$tmp/bad3" --out "$tmp/o3" 2> "$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "poll: the kernels ran different rows" "$tmp/err"
ok $? "kernels with different rows: status $rc, $(cat "$tmp/err")"

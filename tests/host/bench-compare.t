#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-compare.py on synthetic bench.json files: a figure is worse only
# when the two runs' ranges do not overlap and the second is on the bad
# side (correct % and throughput up, energy and wake-up p99 down) by
# more than the tolerance (a smaller move is listed apart), a
# figure one run lacks is not compared, workloads of one run only are
# named, and bad input is one line on stderr with status 2.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
C=trace-scripts/bench/bench-compare.py
plan 15

# run <file> <workload:figure=median,lo,hi ...>: a bench.json whose policy
# sched has these figures (a median "none" is a figure without a value);
# every other figure of every workload named is 50, range 50-50.
run() {
	python3 - "$@" <<'PY'
import json, sys
out, specs = sys.argv[1], sys.argv[2:]
figs = ["correct_pct", "energy_vs_oracle", "wake_p99_us", "throughput"]
d = {"repetitions": 3, "workloads": {}, "ranges": {}}
for s in specs:
    w, _, rest = s.partition(":")
    d["workloads"].setdefault(w, {"sched": {f: 50.0 for f in figs}, "teo": {}})
    d["ranges"].setdefault(w, {"sched": {f: [50.0, 50.0] for f in figs}})
    if not rest:
        continue
    f, _, v = rest.partition("=")
    med, lo, hi = v.split(",")
    if med == "none":
        d["workloads"][w]["sched"][f] = None
        d["ranges"][w]["sched"][f] = [None, None]
    else:
        d["workloads"][w]["sched"][f] = float(med)
        d["ranges"][w]["sched"][f] = [float(lo), float(hi)]
json.dump(d, open(out, "w"))
PY
}

# 1-2: the same run twice: nothing worse, status 0, every workload a row
run $tmp/a.json io-fast timer-1ms
"$C" $tmp/a.json $tmp/a.json > $tmp/out 2> $tmp/err
ok $? "the same run twice: status 0"
check_sh "two rows, no figure worse ($(tail -1 $tmp/out))" \
	"[ \$(grep -c '^| io-fast\|^| timer-1ms' $tmp/out) = 2 ] && grep -q 'No figure worse in after on 2 workloads' $tmp/out"

# 3-4: correct % lower and its range below the other's: worse, status 1
run $tmp/b.json io-fast:correct_pct=90,89,91 timer-1ms
run $tmp/c.json io-fast:correct_pct=80,79,88 timer-1ms
"$C" --labels v1,v7 $tmp/b.json $tmp/c.json > $tmp/out 2> $tmp/err
is "correct % 80 (79-88) after 90 (89-91): status 1" 1 $?
check_sh "the worse figure is marked and listed" \
	"grep -q '80.0 (79.0-88.0) \*\*worse\*\*' $tmp/out && grep -q '^- io-fast: correct % 90.0 (89.0-91.0) -> 80.0 (79.0-88.0)' $tmp/out && grep -q '^1 figures worse in v7' $tmp/out"

# 5: lower median whose range reaches the other's: not worse
run $tmp/d.json io-fast:correct_pct=85,80,89 timer-1ms
"$C" $tmp/b.json $tmp/d.json > $tmp/out 2> $tmp/err
is "correct % 85 (80-89) after 90 (89-91): ranges overlap, status 0" 0 $?

# 6-7: lower is better for energy and wake-up p99: a lower one is not
# worse, a higher one with its range above is
run $tmp/e.json io-fast:energy_vs_oracle=1.2,1.1,1.3
run $tmp/f.json io-fast:energy_vs_oracle=1.0,0.9,1.05
"$C" $tmp/e.json $tmp/f.json > /dev/null 2>&1
is "energy 1.0 after 1.2: better, status 0" 0 $?
"$C" $tmp/f.json $tmp/e.json > $tmp/out 2>&1
check_sh "energy 1.2 (1.1-1.3) after 1.0 (0.9-1.05): worse" \
	"grep -q '^- io-fast: energy/oracle' $tmp/out"

# 8-10: a move to the bad side within the tolerance (1 %: 100 -> 100.5
# us of wake-up p99, no spread) is listed apart and does not count;
# with --tolerance 0 it does
run $tmp/t1.json io-fast:wake_p99_us=100,100,100
run $tmp/t2.json io-fast:wake_p99_us=100.5,100.5,100.5
"$C" $tmp/t1.json $tmp/t2.json > $tmp/out 2>&1
rc=$?
check_sh "wake p99 100 -> 100.5 us: within 1 %, status 0, listed apart" \
	"[ $rc = 0 ] && grep -q '100.5 (within)' $tmp/out && grep -q '^1 figures on the bad side by at most 1 %' $tmp/out"
"$C" --tolerance 0 $tmp/t1.json $tmp/t2.json > $tmp/out 2>&1
is "the same with --tolerance 0: worse, status 1" 1 $?
"$C" --tolerance 100 $tmp/t1.json $tmp/t2.json > $tmp/out 2> $tmp/err
rc=$?
check_sh "--tolerance 100: status 2 ($(cat $tmp/err))" \
	"[ $rc = 2 ] && [ ! -s $tmp/out ] && grep -q 'a percentage, at least 0 and below 100' $tmp/err"

# 11: a figure without a value in one run (the idle workload's throughput)
# is not compared
run $tmp/g.json io-fast:throughput=none,0,0
run $tmp/h.json io-fast:throughput=10,9,11
"$C" $tmp/h.json $tmp/g.json > $tmp/out 2>&1
is "throughput in one run only: not compared, status 0" 0 $?

# 12: workloads of one run only are named, not compared
run $tmp/i.json io-fast idle
"$C" $tmp/a.json $tmp/i.json > $tmp/out 2>&1
check_sh "idle and timer-1ms named as in one run only" \
	"grep -q '^Not compared (in one run only): idle, timer-1ms.' $tmp/out"

# 13-15: bad input: status 2, one line on stderr naming the cause, no table
"$C" $tmp/a.json $tmp/missing.json > $tmp/out 2> $tmp/err
rc=$?
check_sh "a missing file: status 2, one line ($(cat $tmp/err))" \
	"[ $rc = 2 ] && [ ! -s $tmp/out ] && [ \$(wc -l < $tmp/err) = 1 ] && grep -q 'missing.json' $tmp/err"
"$C" --policy menu $tmp/a.json $tmp/a.json > $tmp/out 2> $tmp/err
rc=$?
check_sh "a policy the runs do not have: status 2 ($(cat $tmp/err))" \
	"[ $rc = 2 ] && [ ! -s $tmp/out ] && grep -q 'no figures of policy menu' $tmp/err"
echo '{"workloads": 3}' > $tmp/bad.json
"$C" $tmp/bad.json $tmp/a.json > $tmp/out 2> $tmp/err
rc=$?
check_sh "not a bench.json: status 2 ($(cat $tmp/err))" \
	"[ $rc = 2 ] && [ ! -s $tmp/out ] && grep -q 'not a bench.json' $tmp/err"

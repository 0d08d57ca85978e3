#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-report.py (design/bench.md) on synthetic boots: the bucket replay
# reproduces the worked example of kernel/sched/io_latency.c and checks
# itself against traced predictions; medians and min-max of the analyser's
# figures of a known-answer trace land in bench.json with the schema of
# the contract; sipwl's raw wake-up lateness samples (with mix's timer
# task) and the cost pass's raw call durations get their percentiles,
# medians and tables; a boot with a missing file fails with one line.
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh
need_analyser
scratch
plan 11

# 1-2: the replay (bucketpred.py, which bench-report.py imports) against the
# worked example (20, 200 x 5, 20, 20 us): predictions before each wait 0,
# 20, 20, 20, 20, 200, 200, 200 us. Then the same waits with a wait the
# kernel did not learn (learnt=0: a throttling sleep of 4 ms) inserted after
# the second: it is neither learnt nor judged, only compared for agreement.
out=$(python3 - <<'PY'
import sys
sys.path.insert(0, "trace-scripts/bench")
import bucketpred as bp
p = bp.Pred(200000)
got = []
for us in (20, 200, 200, 200, 200, 200, 20, 20):
    got.append(p.predict() // 1000)
    p.learn(us * 1000)
print(" ".join(map(str, got)))
seq = [(k * 1000, a * 1000, True) for k, a in zip((0, 20, 20, 20, 20, 200, 200, 200),
                                                   (20, 200, 200, 200, 200, 200, 20, 20))]
print(*bp.replay({"1": seq}, 200))
seq.insert(2, (20000, 4000000, False))
print(*bp.replay({"1": seq}, 200))
PY
)
[ "$(echo "$out" | sed -n 1p)" = "0 20 20 20 20 200 200 200" ]
ok $? "replay predicts the worked example of io_latency.c ($(echo "$out" | sed -n 1p))"
# hits: only the fifth 200 us wait (4th prediction of 200) of 7 predicted;
# all 8 predictions agree with the 'kernel' ones; with the unlearnt wait the
# same hits of the same 7, and 9 of 9 agree
[ "$(echo "$out" | sed -n 2,3p | tr '\n' ' ')" = "1 7 8 1 7 9 " ]
ok $? "replay counts 1 hit of 7 predicted waits, 8 of 8 agree; an unlearnt wait changes neither ($(echo "$out" | sed -n 2,3p | tr '\n' ' '))"

# late <stem> <p50 ns> <p99 ns>: 100 lateness samples whose nearest-rank
# p50 and p99 are these (50 at p50, 49 at p99, one ten times p99), in an
# order that is not sorted
late() {
	local i
	echo "$1 $(($3 * 10))"
	for i in $(seq 49); do echo "$1 $3"; done
	for i in $(seq 50); do echo "$1 $2"; done
}

# 3-10: two repetitions of the table's policies on the known-answer trace base.dat
# (3 correct, 2 too deep, 1 too shallow of 6 judged: design/analysis.md),
# as io-fast and as mix (lateness p50 10 and 20 us, p99 100 and 200 us;
# the timer task's 2 and 4, 3 and 6 us)
. trace-scripts/bench/bench-table.sh
pols=$(bench_names policy)
raw=$tmp/raw
for rep in 1 2; do
	for pol in $pols; do
		b=$raw/r$rep-$pol
		mkdir -p $b/io-fast
		printf 'kernel %s\npolicy %s\nseed %s\n' \
			"$(bench_field policy $pol 3)" $pol $rep > $b/bench-boot.txt
		"$R" -p $D/platform.txt -f json -o $b/io-fast/report.json $D/base.dat
		echo "sipwl io ops=1 seconds=0.005520 throughput=$((rep * 200 - 100)).0 unit=IOPS" \
			> $b/io-fast/workload.txt
		mkdir -p $b/mix
		cp $b/io-fast/report.json $b/mix/
		echo "sipwl mix ops=1 seconds=0.005520 throughput=181.2 unit=ops/s" \
			> $b/mix/workload.txt
		{ late late $((rep * 10000)) $((rep * 100000))
		  late timer_late $((rep * 2000)) $((rep * 3000)); } > $b/mix/late.txt
		if [ $pol = sched ]; then
			for us in 20 200 200 200 200 200 20 20; do
				echo " sipwl-42 [000] d..1. 1.0: io_latency_wait: cpu=0 predicted_ns=0 actual_ns=$((us * 1000))"
			done > $b/io-fast/io_latency.txt
		fi
	done
done
# the cost pass of sched: 200 calls of tick_nohz_get_sleep_length, 100 of
# 1000 ns and 100 of 3000 ns (mean 2000, p50 1000, p99 3000), 100 of
# io_latency_next_event of 500 ns: 2250 ns per idle entry
mkdir -p $raw/cost-sched
for i in $(seq 100); do
	echo "tick_nohz_get_sleep_length 3000"
	echo "io_latency_next_event 500"
	echo "tick_nohz_get_sleep_length 1000"
done > $raw/cost-sched/cost.txt
python3 trace-scripts/bench/bench-report.py --raw $raw --out $tmp/out --platform x86-client \
	--smp 2 > $tmp/md.out 2> $tmp/err
ok $? "bench-report.py writes the report ($(head -c 200 $tmp/err))"
python3 - "$tmp/out/bench.json" "$pols" > $tmp/check 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["profile"] == "x86-client" and d["smp"] == 2 and d["kernel"] == "patched", d
assert set(d["workloads"]) == {"io-fast", "mix"}
assert set(d["workloads"]["io-fast"]) == set(sys.argv[2].split()), d["workloads"]["io-fast"].keys()
for p in sys.argv[2].split():
    e = d["workloads"]["io-fast"][p]
    for k in ("correct_pct", "too_deep_pct", "too_shallow_pct", "energy_vs_oracle",
              "wake_p99_us", "throughput", "entries"):
        assert k in e, (p, k)
    assert abs(e["correct_pct"] - 50.0) < 1e-9, e
    assert abs(e["too_deep_pct"] - 100 * 2 / 6) < 1e-9, e
    assert abs(e["too_shallow_pct"] - 100 / 6) < 1e-9, e
    assert e["throughput"] == 200.0, e
    assert d["ranges"]["io-fast"][p]["throughput"] == [100.0, 300.0], d["ranges"]
    assert abs(e["entries"] - 6 / 0.00552) < 1, e
print("ok")
PY
[ "$(cat $tmp/check)" = ok ]
ok $? "bench.json: schema, judgement 50/33.3/16.7 %, throughput median 200 (100-300) $(tail -1 $tmp/check)"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["bucket_replay"]["io-fast"]
assert r["200"]["waits"] == 16 and r["200"]["predicted"] == 14, r
assert abs(r["200"]["hit_pct"] - 100 / 7) < 1e-9, r
# the traced predictions were all 0: only the first wait of each task agrees
assert abs(r["kernel_agreement_pct"] - 100 * 2 / 16) < 1e-9, r
print("ok")' $tmp/out/bench.json > $tmp/check 2>&1
[ "$(cat $tmp/check)" = ok ]
ok $? "bucket replay table from the traced waits, agreement check $(tail -1 $tmp/check)"
grep -q '^| sched[^|]*| 50.0 | 33.3 | 16.7 |' $tmp/out/bench.md
ok $? "bench.md has the sched row of io-fast"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for p in sys.argv[2].split():
    m, f = d["workloads"]["mix"][p], d["workloads"]["io-fast"][p]
    assert (m["late_p50_us"], m["late_p99_us"]) == (15.0, 150.0), m
    assert (m["timer_late_p50_us"], m["timer_late_p99_us"]) == (3.0, 4.5), m
    assert d["ranges"]["mix"][p]["late_p99_us"] == [100.0, 200.0], d["ranges"]["mix"]
    assert f["late_p50_us"] is None and f["timer_late_p99_us"] is None, f
print("ok")' $tmp/out/bench.json "$pols" > $tmp/check 2>&1
sed -n '/^## Wake-up lateness/,/^## Cost/p' $tmp/out/bench.md > $tmp/late.md
# row <label> <cell>: a table row with the cell under every policy
row() { echo "| $1 |$(for p in $pols; do printf ' %s |' "$2"; done)"; }
[ "$(cat $tmp/check)" = ok ] &&
	grep -qxF "$(row mix '15.0 / 150.0')" $tmp/late.md &&
	grep -qxF "$(row 'mix (timer task)' '3.0 / 4.5')" $tmp/late.md &&
	! grep -q '^| io-fast |' $tmp/late.md
ok $? "sipwl lateness: percentiles of the samples, medians in bench.json and bench.md, none for io-fast $(tail -1 $tmp/check)"
python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["decision_cost"]["sched"]
f = c["functions"]["tick_nohz_get_sleep_length"]
assert (f["calls"], f["mean_ns"], f["p50_ns"], f["p99_ns"]) == (200, 2000, 1000, 3000), f
assert c["per_entry_ns"] == 2250, c
print("ok")' $tmp/out/bench.json > $tmp/check 2>&1
[ "$(cat $tmp/check)" = ok ] && grep -q '^| sched | 2250 | ' $tmp/out/bench.md
ok $? "cost of choosing from raw call durations: calls, mean, p50, p99, ns per entry $(tail -1 $tmp/check)"
python3 - > $tmp/check 2>&1 <<'PY'
import importlib.util
s = importlib.util.spec_from_file_location("br", "trace-scripts/bench/bench-report.py")
br = importlib.util.module_from_spec(s); s.loader.exec_module(br)
# the analyser's examples (model.c): 10 samples, p50 the 5th, p90 the 9th, p99 the 10th
v = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
print(br.percentile(v, 50), br.percentile(v, 90), br.percentile(v, 99), br.percentile([7], 1),
      br.percentile([], 50))
PY
[ "$(cat $tmp/check)" = "5 9 10 7 None" ]
ok $? "percentile: nearest rank as the analyser's ($(cat $tmp/check))"
if command -v gnuplot >/dev/null; then
	trace-scripts/bench/bench-plot.sh $tmp/out > /dev/null 2>&1 &&
		[ "$(ls $tmp/out/bench-*.png | wc -l)" = 8 ]
	ok $? "bench-plot.sh draws 8 PNGs"
else
	skip "bench-plot.sh" "gnuplot not installed"
fi

# 11: a boot without its workload line
rm $raw/r2-teo/io-fast/workload.txt
python3 trace-scripts/bench/bench-report.py --raw $raw --out $tmp/out2 > /dev/null 2> $tmp/err
rc=$?
[ $rc = 1 ] && [ "$(wc -l < $tmp/err)" = 1 ] && grep -q 'r2-teo/io-fast/workload.txt' $tmp/err
ok $? "missing workload.txt: status 1, one line naming it ($(cat $tmp/err))"

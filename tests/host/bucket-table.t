#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bucket-table.py (make bucket-table, design/io-latency.md "The bucket
# table") on a synthetic guest trace with known answers: one disk whose
# requests take 2000 us, except the seventh, 2300 us; its reader's IO waits
# take 30 us more (the wake-up), and one wait that the kernel did not
# learn (learnt=0, a 4 ms throttling sleep) comes after the third.
# Replayed, the first request and the first wait have no prediction; the
# other nine are predicted 2000 (2030) us. The 2300 (2330) us one is
# another bucket at 100 and 200 us (bucket 20 against 23, 10 against 11),
# the same one at 500 and 1000 us, so both sequences hit 8 of 9 (88.9 %) at
# 100 and 200 us and 9 of 9 at 500 and 1000 us, and so do the kernel's own
# traced predictions at 200 us, per task and per device (io_latency_request,
# whose first request predicts nothing either). A directory without traces
# is an error.
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh
scratch
plan 4

d=$tmp/bucket
mkdir -p "$d"
t=10.000000
i=0
{
	for lat in 2000 2000 2000 2000 2000 2000 2300 2000 2000 2000; do
		s=$((1000 + 8 * i))
		issue=$(awk -v t=$t 'BEGIN { printf "%.6f", t }')
		done_=$(awk -v t=$t -v l=$lat 'BEGIN { printf "%.6f", t + l / 1e6 }')
		woke=$(awk -v t=$t -v l=$lat 'BEGIN { printf "%.6f", t + (l + 30) / 1e6 }')
		pred=$([ $i = 0 ] && echo 0 || echo 2030000)
		echo "         disklat-120     [001] .....   $issue: block_rq_issue: 254,0 R 4096 () $s + 8 [disklat]"
		echo "          <idle>-0       [001] d.h..   $done_: io_latency_request: dev=254,0 class=0 predicted_ns=$([ $i = 0 ] && echo 0 || echo 2000000) actual_ns=$((lat * 1000)) irq_cpu=1"
		echo "          <idle>-0       [001] d.h..   $done_: block_rq_complete: 254,0 R () $s + 8 [0]"
		echo "         disklat-120     [001] .....   $woke: io_latency_wait: cpu=1 predicted_ns=$pred actual_ns=$(((lat + 30) * 1000)) learnt=1"
		[ $i = 2 ] && echo "         disklat-120     [001] .....   $woke: io_latency_wait: cpu=1 predicted_ns=2030000 actual_ns=4000000 learnt=0"
		t=$(awk -v t=$t 'BEGIN { printf "%.6f", t + 0.005 }')
		i=$((i + 1))
	done
} > "$d/0-hdd.txt"
echo "disklat /dev/emud0 reads=10 mean_us=2030 min_us=2030 p50_us=2030 p99_us=2330 max_us=2330" > "$d/0-hdd.lat"

out=$(./trace-scripts/bench/bucket-table.py "$d" --json "$tmp/t.json" 2>&1)
ok $? "bucket-table.py reads the synthetic disk" "$out"
row=$(echo "$out" | grep '^| hdd ')
want='| hdd | 2030 / 2330 | 10 | 10 | 88.9 | 88.9 | 100.0 | 100.0 | 88.9 | 88.9 | 100.0 | 100.0 | 88.9 | 88.9 | 66.3 (USB HDD) |'
is "per task and per device at 100, 200, 500, 1000 us, the kernel's, the RFD's" "$want" "$row"
python3 -c "import json, sys; r = json.load(open(sys.argv[1]))[0]; sys.exit(not (r['task']['200'] > 88.8 and r['device']['1000'] == 100.0 and r['waits'] == 10 and r['kernel_device_200'] > 88.8))" "$tmp/t.json"
ok $? "the same figures in the JSON"

mkdir -p "$tmp/empty"
out=$(./trace-scripts/bench/bucket-table.py "$tmp/empty" 2>&1)
rc=$?
[ $rc = 1 ] && [ "$(echo "$out" | wc -l)" = 1 ]
ok $? "no traces: status 1, one line ($rc: $out)"

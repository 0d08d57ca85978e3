#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=none SMP=2 DISKS=2ms,100us APPEND=sched_io_latency=task TIMEOUT=300
# SPDX-License-Identifier: GPL-2.0
#
# The IO latency predictor on steady devices, from the io_latency_wait
# tracepoint (predicted_ns, actual_ns of every wait) while disklat reads
# one disk with O_DIRECT, one read at a time, with the per-task tracking
# (sched_io_latency=task; the default, per device, is 42-io-latency-device).
#
# A prediction is a hit when it is within one bucket (200 us) of the wait.
# Under TCG the emulated disks jitter with the load of the host: a tenth
# to a third of the 2 ms reads can take 400 us more than the usual one, and
# no predictor hits those, so a fixed 90% target would test the host. The
# hit rate after a warm-up of 20 waits is compared instead, on the same
# waits, with
#  - predicting the last wait (the predictor before the buckets): the
#    buckets must not do worse beyond chance. On the same waits, with b
#    the waits only the buckets hit and c those only the last wait hit,
#    the buckets fail when c - b > 3 * sqrt(b + c) (McNemar's test at
#    three standard deviations: equal predictors fail 0.1% of runs). A
#    fixed one-point margin failed once at 66.3% against 69.7% on a host
#    loaded enough to make the best fixed prediction hit only 73.4%;
#    a broken predictor loses by hundreds of waits;
#  - the best fixed prediction chosen in hindsight (the largest share of
#    waits within a 400 us window): the buckets must be within 15 points
#    (7.9 was the largest gap seen, on a host so loaded that the best
#    fixed prediction hit 44.7%).
# Measured during development on the 2 ms disk: 85.9% (last wait 77.4%,
# best fixed 87.1%), 93.6% (88.6%, 94.1%). Whether the 90% target is met
# is printed. Skips on a kernel without the tracepoint.
. /sip/tests/lib/tap.sh
T=/sys/kernel/tracing
EV=$T/events/io_latency/io_latency_wait
READS=400
WARMUP=20
MARGIN=15
plan 6
if [ ! -d "$EV" ]; then
	skip_n 6 "io latency prediction" "no io_latency_wait tracepoint on $SIP_KERNEL"
	exit 0
fi

# <device> <label>: three test lines
check_disk() {
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 1 > $EV/enable
	echo 1 > $T/tracing_on
	out=$(disklat "$1" $READS)
	echo 0 > $T/tracing_on
	echo 0 > $EV/enable
	echo "# $2: $out"
	# Only the reader's waits, after its warm-up: "predicted actual".
	grep ' disklat-' $T/trace |
		sed -n 's/.*predicted_ns=\([0-9]*\) actual_ns=\([0-9]*\).*/\1 \2/p' |
		sed "1,${WARMUP}d" > /tmp/waits
	n=$(wc -l < /tmp/waits)
	# A read that completes before the reader blocks is no wait: 90%.
	[ "$n" -ge $(((READS - WARMUP) * 9 / 10)) ]
	ok $? "$2: $n waits traced after warm-up for $READS reads"
	# Best fixed prediction: most waits within any window < 400 us wide.
	best=$(cut -d' ' -f2 /tmp/waits | sort -n |
		awk '{ a[NR] = $1; while (a[NR] - a[i + 1] >= 400000) i++
		       if (NR - i > m) m = NR - i } END { print m + 0 }')
	# A diagnostic line, then "status<TAB>description" per test line.
	awk -v label="$2" -v best="$best" -v margin=$MARGIN '
		{ m++; d = $1 - $2; if (d < 0) d = -d; h = d < 200000; hit += h; sum += d
		  if (m > 1) { d = last - $2; if (d < 0) d = -d; l = d < 200000; lhit += l
			       if (h && !l) b++; if (l && !h) c++ }
		  last = $2 }
		END {
			if (m < 2) { printf "1\t%s: no wait after warm-up\n1\t%s: no wait after warm-up\n", label, label; exit }
			pct = 100 * hit / m; opt = 100 * best / m; lpct = 100 * lhit / (m - 1)
			printf "# %s: %d of %d predictions within 200 us (%.1f%%, target 90%%: %s), mean |error| %d us\n", label, hit, m, pct, (pct >= 90 ? "met" : "missed"), sum / m / 1000
			printf "%d\t%s: hit rate %.1f%%, predicting the last wait %.1f%%: %d waits hit only by the buckets, %d only by the last wait (worse beyond chance when %d - %d > 3 * sqrt(%d))\n", !(c - b <= 0 || (c - b) * (c - b) <= 9 * (b + c)), label, pct, lpct, b, c, c, b, b + c
			printf "%d\t%s: hit rate %.1f%% within %d points of the best fixed prediction (%.1f%%)\n", !(pct >= opt - margin), label, pct, margin, opt
		}' /tmp/waits > /tmp/verdicts
	ok_verdicts /tmp/verdicts
}

check_disk /dev/emud0 "2ms disk"
check_disk /dev/emud1 "100us disk"

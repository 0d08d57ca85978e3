# SPDX-License-Identifier: GPL-2.0
#
# The per-device IO latency checks, sourced by the tests that boot them
# (42-io-latency-device.t, 44-io-latency-device-scsi.t: the disks end
# their requests with blk_mq_end_request() or as SCSI and MMC do).
#
#
# IO latency per device (sched_io_latency=device, design/io-latency.md
# "Per device"): each hardware queue learns the latency of its requests
# per class and publishes the expected completion of every request it
# starts on the submitting CPU and on the CPU of its last completion.
# From io_latency_request (one per completed request: dev, class,
# predicted_ns, actual_ns, irq_cpu), io_latency_wait (the tasks still learn
# their own waits) and sched_idle_predict, while disklat reads each disk
# with O_DIRECT, one read at a time:
#  - the mode is on and the event exists;
#  - every read is a request of the disk, class 0 (read, <= 4 KiB);
#  - after a warm-up of 20 requests, every request publishes a prediction,
#    except the first of a hardware queue that had none yet (the reader
#    may move to the other CPU, whose queue starts cold), and names the
#    CPU of its queue's last completion;
#  - the device's hit rate (within one 200 us bucket of the request) is
#    within 15 points of the best fixed prediction chosen in hindsight
#    (as in 40-io-latency-predict: under TCG the emulated disks jitter
#    with the host's load); the tasks' hit rate on the same reads is
#    printed beside it;
#  - the idle loop uses the published completions: some idle entries
#    during the reads take their duration from the IO input;
#  - every request is learnt after its bios complete, so that the learning
#    does not delay the reader: on the CPU that ends it, the reader's
#    sched_waking comes after the request's block_rq_complete (the start of
#    blk_update_request()) and before its io_latency_request, never after
#    it, whether the disk ends requests with blk_mq_end_request() or as
#    SCSI and MMC do (DISK_COMPLETION).
. /sip/tests/lib/tap.sh
T=/sys/kernel/tracing
EV=$T/events/io_latency
IDLE=$T/events/power/sched_idle_predict
READS=300
WARMUP=20
MARGIN=15
plan 11
if [ ! -d "$EV/io_latency_request" ]; then
	skip_n 11 "io latency per device" "no io_latency_request tracepoint on $SIP_KERNEL"
	exit 0
fi
grep -qw 'sched_io_latency=device' /proc/cmdline
ok $? "booted with sched_io_latency=device"

# <device> <label>: five test lines
check_disk() {
	devt=$(cat /sys/class/block/${1#/dev/}/dev)
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 1 > $EV/io_latency_request/enable
	echo 1 > $EV/io_latency_wait/enable
	echo 1 > $T/events/block/block_rq_complete/enable
	echo 1 > $T/events/sched/sched_waking/enable
	[ -d "$IDLE" ] && echo 1 > $IDLE/enable
	echo 1 > $T/tracing_on
	out=$(disklat "$1" $READS)
	echo 0 > $T/tracing_on
	echo 0 > $EV/io_latency_request/enable
	echo 0 > $EV/io_latency_wait/enable
	echo 0 > $T/events/block/block_rq_complete/enable
	echo 0 > $T/events/sched/sched_waking/enable
	[ -d "$IDLE" ] && echo 0 > $IDLE/enable
	echo "# $2: $out"
	grep "io_latency_request: dev=${devt%:*},${devt#*:} " $T/trace |
		sed -n 's/.*class=\([0-9]*\) predicted_ns=\([0-9]*\) actual_ns=\([0-9]*\) irq_cpu=\(-*[0-9]*\).*/\1 \2 \3 \4/p' \
		> /tmp/reqs
	n=$(wc -l < /tmp/reqs)
	bad=$(awk '$1 != 0' /tmp/reqs | wc -l)
	[ "$n" -ge "$READS" ] && [ "$bad" -eq 0 ]
	ok $? "$2: $n requests of $devt traced for $READS reads, $bad not of class 0 (read <= 4 KiB)"
	sed "1,${WARMUP}d" /tmp/reqs > /tmp/warm
	m=$(wc -l < /tmp/warm)
	hctxs=$(ls -d /sys/block/${1#/dev/}/mq/[0-9]* | wc -l)
	none=$(awk '$2 == 0' /tmp/warm | wc -l)
	badcpu=$(awk '$4 < 0 || $4 > 1' /tmp/warm | wc -l)
	[ "$m" -gt 0 ] && [ "$none" -le "$hctxs" ] && [ "$badcpu" -eq 0 ]
	ok $? "$2: after $WARMUP requests $((m - none)) of $m predict a completion (at most the first of each of $hctxs hardware queues may not: $none), $badcpu name no interrupt CPU"
	best=$(cut -d' ' -f3 /tmp/warm | sort -n |
		awk '{ a[NR] = $1; while (a[NR] - a[i + 1] >= 400000) i++
		       if (NR - i > m) m = NR - i } END { print m + 0 }')
	task=$(grep ' disklat-.*io_latency_wait:' $T/trace |
		sed -n 's/.*predicted_ns=\([0-9]*\) actual_ns=\([0-9]*\).*/\1 \2/p' |
		sed "1,${WARMUP}d" |
		awk '{ d = $1 - $2; if (d < 0) d = -d; h += d < 200000; n++ }
		     END { if (n) printf "%.1f%% of %d waits", 100 * h / n, n; else print "no wait" }')
	awk -v label="$2" -v best="$best" -v margin=$MARGIN -v task="$task" '
		{ d = $2 - $3; if (d < 0) d = -d; hit += d < 200000; m++ }
		END {
			if (!m) { printf "1\t%s: no request after warm-up\n", label; exit }
			pct = 100 * hit / m; opt = 100 * best / m
			printf "# %s: per device %d of %d requests within 200 us (%.1f%%, target 95%%: %s); per task %s\n", label, hit, m, pct, (pct >= 95 ? "met" : "missed"), task
			printf "%d\t%s: hit rate %.1f%% within %d points of the best fixed prediction (%.1f%%)\n", !(pct >= opt - margin), label, pct, margin, opt
		}' /tmp/warm > /tmp/verdicts
	ok_verdicts /tmp/verdicts
	# Per CPU, after a block_rq_complete of the disk (st 1): the reader's
	# sched_waking (st 2) then the request's io_latency_request is good;
	# the io_latency_request (st 3) then the sched_waking is bad.
	awk -v dev="${devt%:*},${devt#*:}" '
		{ if (!match($0, /\[[0-9]+\]/)) next; cpu = substr($0, RSTART, RLENGTH) }
		/ block_rq_complete: / && index($0, "block_rq_complete: " dev " ") { st[cpu] = 1; next }
		/ io_latency_request: / && index($0, "dev=" dev " ") {
			if (st[cpu] == 2) { good++; st[cpu] = 0 } else if (st[cpu] == 1) st[cpu] = 3
			next }
		/ sched_waking: comm=disklat / {
			if (st[cpu] == 1) st[cpu] = 2; else if (st[cpu] == 3) { bad++; st[cpu] = 0 } }
		END { printf "%d %d\n", good, bad }' $T/trace > /tmp/order
	read -r good bad < /tmp/order
	[ "$good" -gt 0 ] && [ "$bad" -eq 0 ]
	ok $? "$2: $good requests learnt after the reader's wake-up, $bad learnt before it"
	if [ -d "$IDLE" ]; then
		io=$(grep -c 'sched_idle_predict:.* source=io' $T/trace)
		[ "$io" -gt 0 ]
		ok $? "$2: $io idle entries took their duration from the published completions"
	else
		skip "$2: idle entries" "no sched_idle_predict tracepoint"
	fi
}

check_disk /dev/emud0 "2ms disk"
check_disk /dev/emud1 "100us disk"

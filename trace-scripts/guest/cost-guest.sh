#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cost-guest.sh - the guest side of `make bench-cost`: what the kernel's
# hooks cost, in instructions (virtual time: one guest ns is one
# instruction, design/testbed.md), on a one-CPU boot
#
#	cost-guest.sh [-r REPS] [-e SECONDS] [-o DIR] [POLICY...]
#
# 1. Every "cost" row of the bench's table (trace-scripts/bench/bench.tsv)
#    runs REPS times; each run appends to DIR/cost-rows.txt
#
#	row NAME rep R ops N elapsed_ns E idle_ns I idle_entries K
#
#    E is the command's own measure of its run (sipwl's, perf bench's,
#    hackbench's), N its operations, I and K the residency and entries
#    of the cpuidle states meanwhile (0 with idle=poll): instructions per
#    operation are (E - I) / N, which the host computes.
#
# 2. With -e > 0, for each POLICY (a governor name written to
#    current_governor, or "sched", the series, which has no governor),
#    the instructions of every idle entry from the idle loop's entry
#    (arch_cpu_idle_enter(), called by do_idle() right before it chooses
#    between polling and cpuidle) to the driver's ->enter() (the
#    power:cpu_idle event that cpuidle_enter_state() emits right before
#    calling it), while the table's cost-entry workloads run for SECONDS:
#    DIR/entry-POLICY.txt, one "ns" line per entry. Only these two points
#    are traced (the function tracer filtered to one function, and one
#    event), so nothing between them runs the tracer: what the tracer
#    adds is the tail of the first record and the head of the second,
#    the same constant for every policy.
set -u
here=$(cd "$(dirname "$0")" && pwd)
BENCH_TABLE=$here/../bench/bench.tsv
. "$here/../bench/bench-table.sh"
reps=$(bench_field setting cost-reps 3) esecs=0 out=/results
while [ $# -gt 0 ]; do
	case "$1" in
	-r) reps=$2; shift 2 ;;
	-e) esecs=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-*) echo "cost-guest.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
C=/sys/devices/system/cpu
die() { echo "cost-guest.sh: $*" >&2; exit 1; }

[ "$(grep -c ^processor /proc/cpuinfo)" = 1 ] || die "boot with SMP=1: the rows measure one CPU"

# The residency (ns) and entries of every state of every CPU, summed.
idle_sum() {
	cat $C/cpu*/cpuidle/state*/time 2>/dev/null | awk '{ s += $1 } END { printf "%d", s * 1000 }'
}
idle_entries() {
	cat $C/cpu*/cpuidle/state*/usage 2>/dev/null | awk '{ s += $1 } END { printf "%d", s }'
}

# parse <parser> <ops> <output file>: "ops elapsed_ns" of one run
parse() {
	case "$1" in
	sipwl)
		sed -n 's/^sipwl .* ops=\([0-9]*\) seconds=\([0-9.]*\) .*/\1 \2/p' "$3" |
			awk '{ printf "%d %d\n", $1, $2 * 1e9 }' ;;
	perf)
		awk -v ops="$2" '/usecs\/op/ { printf "%d %d\n", ops, $1 * 1000 * ops }' "$3" ;;
	hackbench)
		awk -v ops="$2" '/^Time:/ { printf "%d %d\n", ops, $2 * 1e9 }' "$3" ;;
	esac
}

rows=$(bench_names cost)
[ -n "$rows" ] || die "no cost rows in $BENCH_TABLE"
: > "$out/cost-rows.txt"
for r in $rows; do
	parser=$(bench_field cost "$r" 3)
	ops=$(bench_field cost "$r" 4)
	cmd=$(bench_field cost "$r" 5)
	rep=1
	while [ $rep -le "$reps" ]; do
		i0=$(idle_sum) k0=$(idle_entries)
		# shellcheck disable=SC2086
		$cmd > /tmp/cost.out 2> /tmp/cost.err || {
			cat /tmp/cost.out /tmp/cost.err >&2
			die "row $r: '$cmd' failed"
		}
		i1=$(idle_sum) k1=$(idle_entries)
		res=$(parse "$parser" "$ops" /tmp/cost.out)
		[ -n "$res" ] || { cat /tmp/cost.out >&2; die "row $r: no result in the output of '$cmd'"; }
		echo "row $r rep $rep ops ${res% *} elapsed_ns ${res#* } idle_ns $((i1 - i0)) idle_entries $((k1 - k0))" |
			tee -a "$out/cost-rows.txt"
		rep=$((rep + 1))
	done
done

[ "$esecs" -gt 0 ] || exit 0
grep -qx arch_cpu_idle_enter $T/available_filter_functions ||
	die "arch_cpu_idle_enter cannot be traced: no idle entry figure"
[ -d $T/events/power/cpu_idle ] || die "no power:cpu_idle event"
ewl=$(bench_field setting cost-entry-workloads 3)
for pol in "$@"; do
	if [ "$pol" != sched ]; then
		echo "$pol" > $C/cpuidle/current_governor 2>/dev/null &&
			[ "$(cat $C/cpuidle/current_governor)" = "$pol" ] ||
			die "governor $pol cannot be selected"
	elif [ "$(cat $C/cpuidle/current_governor 2>/dev/null || echo sched)" != sched ]; then
		die "policy sched: this kernel has cpuidle governors"
	fi
	echo 0 > $T/tracing_on
	echo nop > $T/current_tracer
	: > $T/trace
	echo 8192 > $T/buffer_size_kb
	echo arch_cpu_idle_enter > $T/set_ftrace_filter
	echo function > $T/current_tracer
	echo 1 > $T/events/power/cpu_idle/enable
	echo 1 > $T/tracing_on
	pids=
	for w in $ewl; do
		# shellcheck disable=SC2046
		sipwl -t "$esecs" $(bench_field workload "$w" 4) > /dev/null &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	wait $pids
	echo 0 > $T/tracing_on
	echo 0 > $T/events/power/cpu_idle/enable
	# Before the tracer is reset, which empties the buffer.
	rm -f /tmp/entry.dat
	(cd /tmp && trace-cmd extract -o /tmp/entry.dat > /dev/null 2>&1) ||
		die "$pol: trace-cmd extract failed"
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	# The entry's start, then the first state entered after it (state
	# 4294967295 is the exit); an entry without a state (polling, or
	# need_resched() on the way) has no figure.
	trace-cmd report -t -i /tmp/entry.dat 2>/dev/null | awk '
		function stamp(  i) {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[0-9]+\.[0-9]+:$/)
					return substr($i, 1, length($i) - 1)
			return ""
		}
		/ arch_cpu_idle_enter/ { start = stamp(); next }
		/ cpu_idle: / && start != "" && !/state=4294967295/ {
			split(start, a, "."); split(stamp(), b, ".")
			printf "%d\n", (b[1] - a[1]) * 1000000000 + (b[2] - a[2])
			start = ""
		}' > "$out/entry-$pol.txt"
	n=$(wc -l < "$out/entry-$pol.txt")
	[ "$n" -gt 0 ] || die "$pol: no idle entry traced"
	echo "cost-guest: $pol: $n idle entries traced"
done

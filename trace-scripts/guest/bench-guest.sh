#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-guest.sh - the guest side of `make bench`: every workload of one
# boot (one kernel, one idle policy, one repetition)
#
#	bench-guest.sh [-t SECONDS] [-s SEED] [-c COST_SECONDS] [-D] [-o DIR] [WORKLOAD...]
#
# The workloads' sipwl arguments, the default SECONDS, the boot's emulated
# disks and the decision functions of the policies are the bench's table
# (trace-scripts/bench/bench.tsv): disks /dev/emud0 100 us (fast),
# /dev/emud1 2 ms (slow), /dev/emud2 500 us (middle), /dev/emud3 0 (the
# harness's own overhead), /dev/emud4-7 the nvme, sata-ssd, emmc and sd
# profiles. The policy written to bench-boot.txt is what this boot runs
# (the governor, or the table's row whose command line it has), which
# the host compares with the one it asked for. For each WORKLOAD, record.sh traces sipwl for
# SECONDS into DIR/WORKLOAD/ (trace.dat, platform.txt, workload.txt with
# sipwl's result line, late.txt with its wake-up lateness samples).
# On a kernel with the series' io_latency:io_latency_wait event, the IO
# workloads also log it through a separate tracefs instance into
# DIR/WORKLOAD/io_latency.txt (the sequences design/bench.md replays).
#
# Then, with -c > 0, the cost of choosing: the function_graph tracer
# restricted to the functions that decide the idle state (a governor's
# select and reflect, or the series' prediction and state choice) times
# every call while sipwl runs timer-1ms and io-fast at once for
# COST_SECONDS; DIR/cost.txt gets one line per call, "function ns"; the
# host computes the figures. Last, unless -D, disklat on every disk into
# DIR/disklat.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
BENCH_TABLE=$here/../bench/bench.tsv
. "$here/../bench/bench-table.sh"
secs=$(bench_field setting seconds 3) seed=1 cost=0 out=/results disklat=1
while [ $# -gt 0 ]; do
	case "$1" in
	-D) disklat=0; shift ;;
	-t) secs=$2; shift 2 ;;
	-s) seed=$2; shift 2 ;;
	-c) cost=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-*) echo "bench-guest.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
die() { echo "bench-guest.sh: $*" >&2; exit 1; }

# WORKLOAD -> sipwl arguments
wl_args() { bench_field workload "$1" 4; }

for w in "$@"; do
	wl_args "$w" >/dev/null || die "unknown workload $w"
done
disks=$(bench_field setting disks 3)
n=0
for d in $disks; do
	[ -b /dev/emud$n ] || die "/dev/emud$n missing: boot with DISKS='$disks'"
	n=$((n + 1))
done

# The policy this boot runs: the governor in use, and on the patched
# kernel (whose files read "sched") the table's row whose command line this
# boot has (sched_task: sched_io_latency=task), if any.
gov=$(cat /sys/devices/system/cpu/cpuidle/current_governor 2>/dev/null || echo sched)
if [ "$gov" = sched ]; then
	for p in $(bench_names policy); do
		a=$(bench_field policy "$p" 4)
		case "$a" in "" | - | cpuidle.governor=*) continue ;; esac
		all=1
		for word in $a; do
			grep -qw -- "$word" /proc/cmdline || all=
		done
		[ -n "$all" ] && gov=$p
	done
fi
echo "bench-guest: kernel $SIP_KERNEL policy $gov seed $seed ${secs}s: $*"
{
	echo "kernel $SIP_KERNEL"
	echo "policy $gov"
	echo "seed $seed"
	echo "seconds $secs"
	echo "smp $(grep -c ^processor /proc/cpuinfo)"
	echo "platform ${SIP_PLATFORM:-unknown}"
} > "$out/bench-boot.txt"

# /mnt/emudN in a workload's arguments: an ext4 on /dev/emudN (mkext4.sh).
for w in "$@"; do
	for a in $(wl_args "$w"); do
		case "$a" in
		/mnt/emud[0-9]) ;;
		*) continue ;;
		esac
		grep -q " $a " /proc/mounts && continue
		"$here/mkext4.sh" "/dev/${a#/mnt/}" "$a" ||
			die "$w: no ext4 on /dev/${a#/mnt/}"
	done
done

iolat=$T/events/io_latency/io_latency_wait
for w in "$@"; do
	d=$out/$w
	mkdir -p "$d"
	inst=
	case "$w" in
	io-*)
		if [ -d "$iolat" ] && mkdir $T/instances/benchiol 2>/dev/null; then
			inst=$T/instances/benchiol
			echo 4096 > $inst/buffer_size_kb
			echo 1 > $inst/events/io_latency/io_latency_wait/enable
		fi
		;;
	esac
	# shellcheck disable=SC2046
	sh "$here/record.sh" -t "$secs" -o "$d" -- \
		sh -c "sipwl -s $seed -t $secs -l $d/late.txt $(wl_args "$w") > $d/workload.txt" \
		> "$d/bench.log" 2>&1 || { cat "$d/bench.log" >&2; die "$w: record failed"; }
	if [ -n "$inst" ]; then
		echo 0 > $inst/events/io_latency/io_latency_wait/enable
		cat $inst/trace > "$d/io_latency.txt"
		rmdir $inst
	fi
	echo "bench-guest: $w: $(cat "$d/workload.txt")"
done

# --- the cost of choosing --------------------------------------------------
if [ "$cost" -gt 0 ] && grep -q function_graph $T/available_tracers 2>/dev/null; then
	funcs=
	for pol in $(bench_names policy); do
		for f in $(bench_field policy "$pol" 5); do
			grep -q "^$f\$" $T/available_filter_functions 2>/dev/null &&
				funcs="$funcs $f"
		done
	done
	echo > $T/trace
	echo 16384 > $T/buffer_size_kb
	echo "$funcs" > $T/set_ftrace_filter
	echo function_graph > $T/current_tracer
	echo funcgraph-tail > $T/trace_options 2>/dev/null
	echo 1 > $T/tracing_on
	# shellcheck disable=SC2046
	sipwl -s "$seed" -t "$cost" $(wl_args timer-1ms) > /dev/null &
	# shellcheck disable=SC2046
	sipwl -s "$seed" -t "$cost" $(wl_args io-fast) > /dev/null
	wait
	echo 0 > $T/tracing_on
	# function_graph lines: " 0)   1.234 us    |  menu_select();" (leaf)
	# or "} /* menu_select */" closing a function that called a traced one:
	# "function ns" per call.
	awk '
	/us +\|/ {
		for (i = 1; i <= NF; i++) if ($i == "us") break;
		if (i > NF) next
		v = $(i - 1); fn = $NF
		if (fn == "*/") fn = $(NF - 1)
		gsub(/[();{}]/, "", fn)
		if (fn == "" || fn == "/*") next
		printf "%s %.0f\n", fn, v * 1000
	}' $T/trace > "$out/cost.txt"
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	echo "bench-guest: cost of choosing ($cost s): calls per function"
	awk '{ n[$1]++ } END { for (f in n) print f, n[f] }' "$out/cost.txt"
fi

# --- the harness's own latency ---------------------------------------------
# Each disk as the guest measures it, against its profile: with the idle
# platform's exit latency emulation off, so that only the disk shows.
[ $disklat = 1 ] || exit 0
cp /sys/kernel/debug/emu_disk/profiles "$out/emu_disk-profiles.txt"
emu=/sys/module/emu_idle/parameters/emulate_exit_latency
[ -w $emu ] && echo 0 > $emu
: > "$out/disklat.txt"
for d in emud0 emud1 emud2 emud3; do
	disklat /dev/$d 1000 >> "$out/disklat.txt" 2>&1
done
[ -w $emu ] && echo 1 > $emu
cat "$out/disklat.txt"
exit 0

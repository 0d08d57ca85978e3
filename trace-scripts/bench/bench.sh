#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - the host side of `make bench`: the series against menu, teo
# and ladder on the same emulated platform, disks, CPUs and seeds.
#
# Environment (mk/bench.mk sets it): BENCH_PLATFORM BENCH_SMP BENCH_REPS
# BENCH_SECONDS BENCH_SEED BENCH_COST_SECONDS BENCH_WORKLOADS BENCH_POLICIES
# BENCH_OUT REPORT (the analyser); what is not set is the table's
# (trace-scripts/bench/bench.tsv), as are the policies' kernels and
# command lines and the boots' disks. One boot per (repetition, policy)
# runs every workload (trace-scripts/guest/bench-guest.sh); the policies are
# interleaved within each repetition, in an order rotated by one per
# repetition so that no policy always runs first after a quiet host. Each
# workload's trace is analysed over its window into report.json beside it;
# bench-report.py then writes BENCH_OUT/bench.{json,md} and the plots.
set -u
. trace-scripts/bench/bench-table.sh
: "${BENCH_PLATFORM:=x86-client}" "${BENCH_SMP:=2}" "${BENCH_OUT:=results}"
: "${BENCH_REPS:=$(bench_field setting reps 3)}" "${BENCH_SEED:=$(bench_field setting seed 3)}"
: "${BENCH_SECONDS:=$(bench_field setting seconds 3)}"
: "${BENCH_COST_SECONDS:=$(bench_field setting cost-seconds 3)}"
: "${BENCH_POLICIES:=$(bench_names policy)}" "${BENCH_WORKLOADS:=$(bench_names workload full)}"
: "${REPORT:?}"
BENCH_DISKS=$(bench_field setting disks 3)

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$REPORT" ] || die "no analyser $REPORT (make analyser)"
case "$BENCH_REPS" in ''|*[!0-9]*|0) die "REPS=$BENCH_REPS: must be >= 1" ;; esac
case "$BENCH_SECONDS" in ''|*[!0-9]*|0) die "SECONDS=$BENCH_SECONDS: must be >= 1" ;; esac

raw=$BENCH_OUT/bench/raw
# BENCH_RESUME=1 keeps the boots of an interrupted run that are complete.
[ "${BENCH_RESUME:-0}" = 1 ] || rm -rf "$raw"
mkdir -p "$raw"
t0=$(date +%s)
read -r -a pols <<< "$BENCH_POLICIES"
read -r -a wls <<< "$BENCH_WORKLOADS"
nw=${#wls[@]}
timeout=$((nw * (BENCH_SECONDS * 4 + 20) + BENCH_COST_SECONDS * 30 + 180))

# policy <name>: kernel and append of the policy, from the table
policy() {
	kernel=$(bench_field policy "$1" 3) && append=$(bench_field policy "$1" 4) ||
		die "unknown policy $1 ($(bench_names policy))"
}
for pol in "${pols[@]}"; do policy "$pol"; done
for w in "${wls[@]}"; do
	bench_field workload "$w" 4 > /dev/null || die "unknown workload $w ($(bench_names workload))"
done

# One boot: policy $1, repetition $2, seed $3.
run_boot() {
	local pol=$1 rep=$2 seed=$3 kernel append dir w
	policy "$pol"
	dir=$raw/r$rep-$pol
	if [ "${BENCH_RESUME:-0}" = 1 ] && [ -f "$dir/done" ]; then
		echo "bench: rep $rep $pol: kept from the interrupted run"
		return 0
	fi
	echo "bench: [$(($(date +%s) - t0))s] rep $rep/$BENCH_REPS $pol ($kernel) seed $seed"
	# qemu/boot.sh boots once more when the emulation trips over text
	# patching (CLOCK=real; design/contract.md); any other failure stops
	# the bench: a panic under one policy is a result, not noise.
	rm -rf "$dir"
	make --no-print-directory -s boot KERNEL=$kernel APPEND="$append" \
		PLATFORM="$BENCH_PLATFORM" SMP="$BENCH_SMP" DISKS="$BENCH_DISKS" \
		RESULTS="$dir" TIMEOUT=$timeout \
		CMD="sh /sip/trace-scripts/guest/bench-guest.sh -t $BENCH_SECONDS -s $seed -c 0 ${wls[*]}" \
		> "$dir.log" 2>&1 ||
		{ tail -15 "$dir.log" >&2; die "boot $pol rep $rep failed (log: $dir.log)"; }
	if [ -f "$dir/console-int3.log" ]; then
		echo "bench: $pol rep $rep: int3 trap in text patching, booted again" |
			tee -a "$raw/retries.txt"
	fi
	got=$(sed -n 's/^policy //p' "$dir/bench-boot.txt")
	[ "$got" = "$pol" ] || die "$dir: asked for $pol, the guest ran $got"
	for w in "${wls[@]}"; do
		[ -f "$dir/$w/trace.dat" ] || die "$dir/$w: no trace"
		"$REPORT" --window -f json -o "$dir/$w/report.json" "$dir/$w/trace.dat" ||
			die "$dir/$w: analyser failed"
	done
	touch "$dir/done"
}

# In virtual time what a guest measures does not depend on the host's
# load, so boots run BENCH_JOBS at a time (default: one per host CPU);
# in real time one at a time, as any other load would show in the figures.
if [ "${CLOCK:-virtual}" = virtual ]; then jobs=${BENCH_JOBS:-$(nproc)}; else jobs=1; fi
running=0 failed=0
for ((rep = 1; rep <= BENCH_REPS; rep++)); do
	for ((i = 0; i < ${#pols[@]}; i++)); do
		pol=${pols[$(((i + rep - 1) % ${#pols[@]}))]}
		if [ $running -ge "$jobs" ]; then
			wait -n || failed=1
			running=$((running - 1))
		fi
		[ $failed = 0 ] || break 2
		run_boot "$pol" "$rep" "$((BENCH_SEED + rep - 1))" &
		running=$((running + 1))
	done
done
while [ $running -gt 0 ]; do
	wait -n || failed=1
	running=$((running - 1))
done
[ $failed = 0 ] || die "a boot failed"
# The cost of choosing, one boot per policy with one CPU: enabling the
# function_graph tracer patches kernel text while the other CPUs run it,
# and under TCG (thread=multi) a CPU then sometimes takes the int3 of the
# patching as a fatal trap (seen in tick_nohz_get_sleep_length from
# menu_select). With one CPU nothing runs the text being patched.
if [ "$BENCH_COST_SECONDS" -gt 0 ]; then
	for pol in "${pols[@]}"; do
		policy "$pol"
		dir=$raw/cost-$pol
		echo "bench: [$(($(date +%s) - t0))s] cost of choosing: $pol ($kernel, SMP=1)"
		make --no-print-directory -s boot KERNEL=$kernel APPEND="$append" \
			PLATFORM="$BENCH_PLATFORM" SMP=1 DISKS="$BENCH_DISKS" \
			RESULTS="$dir" TIMEOUT=$((BENCH_COST_SECONDS * 30 + 120)) \
			CMD="sh /sip/trace-scripts/guest/bench-guest.sh -D -s $BENCH_SEED -c $BENCH_COST_SECONDS" \
			> "$dir.log" 2>&1 || echo "bench: cost boot $pol failed (log: $dir.log); no cost figure for it" >&2
	done
fi
echo "bench: [$(($(date +%s) - t0))s] boots done; reporting"
python3 trace-scripts/bench/bench-report.py --raw "$raw" --out "$BENCH_OUT" \
	--platform "$BENCH_PLATFORM" --smp "$BENCH_SMP" --elapsed $(($(date +%s) - t0)) \
	--workloads "${wls[*]}" --time-target "${BENCH_TIME_TARGET:-0}" ||
	die "bench-report.py failed"
if command -v gnuplot >/dev/null; then
	trace-scripts/bench/bench-plot.sh "$BENCH_OUT" || die "plots failed"
fi
echo "bench: [$(($(date +%s) - t0))s] $BENCH_OUT/bench.md $BENCH_OUT/bench.json"

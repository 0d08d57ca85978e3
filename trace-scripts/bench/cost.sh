#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cost.sh - the host side of `make bench-cost`: what the series' hooks
# cost, in instructions, the base kernel against the patched one, in
# one-CPU guests in virtual time (design/bench.md, "What the hooks cost").
#
# Environment (mk/bench.mk sets it): BENCH_COST_OUT BENCH_COST_REPS
# BENCH_COST_ENTRY_SECONDS BENCH_COST_POLICIES BENCH_COST_APPEND
# BENCH_COST_VARIANTS BENCH_COST_KERNEL (the series' kernel, default
# patched) BENCH_PLATFORM BENCH_JOBS; what is not set is the table's
# (trace-scripts/bench/bench.tsv): its cost rows, the kernels and command
# lines of the policies, the disks.
#
# Two views, one boot per kernel each: "states", the emulated platform's
# idle states present as in production, and "poll", idle=poll, where no
# idle state and no idle policy runs at all. The base kernel runs the
# rows under the reference policy (the table's cost-reference, teo); the
# patched kernel under the series' defaults plus BENCH_COST_APPEND. In the
# states view each boot also measures the instructions per idle entry of
# the policies of BENCH_COST_POLICIES that run on its kernel. Then one
# boot of the patched kernel per variant of BENCH_COST_VARIANTS (the
# table's cost-variant rows: inputs switched off at boot), states view:
# what an input costs is the figure with every input on less the figure
# without it. cost-report.py writes BENCH_COST_OUT/cost.{md,json}.
set -u
. trace-scripts/bench/bench-table.sh
: "${BENCH_COST_OUT:=results/cost}" "${BENCH_PLATFORM:=x86-client}"
: "${BENCH_COST_REPS:=$(bench_field setting cost-reps 3)}"
: "${BENCH_COST_ENTRY_SECONDS:=$(bench_field setting cost-entry-seconds 3)}"
: "${BENCH_COST_POLICIES:=$(bench_field setting cost-policies 3)}"
: "${BENCH_COST_APPEND:=}" "${BENCH_COST_KERNEL:=patched}"
: "${BENCH_COST_VARIANTS=$(bench_names cost-variant)}"
ref=$(bench_field setting cost-reference 3)
disks=$(bench_field setting disks 3)

die() { echo "bench-cost: $*" >&2; exit 1; }
case "$BENCH_COST_REPS" in ''|*[!0-9]*|0) die "BENCH_COST_REPS=$BENCH_COST_REPS: must be >= 1" ;; esac
case "$BENCH_COST_ENTRY_SECONDS" in ''|*[!0-9]*) die "BENCH_COST_ENTRY_SECONDS=$BENCH_COST_ENTRY_SECONDS: must be seconds" ;; esac
for v in $BENCH_COST_VARIANTS; do
	bench_field cost-variant "$v" 3 > /dev/null || die "unknown variant $v ($(bench_names cost-variant))"
done
for p in $ref $BENCH_COST_POLICIES; do
	bench_field policy "$p" 3 > /dev/null || die "unknown policy $p ($(bench_names policy))"
done
[ "$(bench_field policy "$ref" 3)" = base ] || die "cost-reference $ref is not a policy of the base kernel"

raw=$BENCH_COST_OUT/raw
# BENCH_COST_RESUME=1 keeps the boots of an interrupted run that are complete.
[ "${BENCH_COST_RESUME:-0}" = 1 ] || rm -rf "$raw"
mkdir -p "$raw"
t0=$(date +%s)

# One boot: kernel $1, view $2, and for the patched kernel in the states
# view, variant $3 of the table (its command line added), if any.
run_boot() {
	local kernel=$1 view=$2 variant=${3:-} dir=$raw/$1-$2${3:+-$3} append pols= p
	if [ "$kernel" = base ]; then
		append=$(bench_field policy "$ref" 4)
	else
		append="$BENCH_COST_APPEND${variant:+ $(bench_field cost-variant "$variant" 3)}"
	fi
	[ "$view" = poll ] && append="$append idle=poll"
	if [ "$view" = states ] && [ "$BENCH_COST_ENTRY_SECONDS" -gt 0 ]; then
		for p in $BENCH_COST_POLICIES; do
			[ "$(bench_field policy "$p" 3)" = "$kernel" ] && pols+=" $p"
		done
	fi
	if [ "${BENCH_COST_RESUME:-0}" = 1 ] && [ -f "$dir/done" ]; then
		echo "bench-cost: $kernel, $view${variant:+, $variant}: kept from the interrupted run"
		return 0
	fi
	rm -rf "$dir"
	echo "bench-cost: [$(($(date +%s) - t0))s] $kernel, $view${variant:+, $variant}${pols:+, idle entries of$pols}"
	make --no-print-directory -s boot APPEND="$append" \
		KERNEL="$([ "$kernel" = patched ] && echo "$BENCH_COST_KERNEL" || echo "$kernel")" \
		PLATFORM="$BENCH_PLATFORM" SMP=1 DISKS="$disks" GUEST_BENCH_TOOLS=1 \
		RESULTS="$dir" TIMEOUT=3600 \
		CMD="sh /sip/trace-scripts/guest/cost-guest.sh -r $BENCH_COST_REPS -e $([ -n "$pols" ] && echo "$BENCH_COST_ENTRY_SECONDS" || echo 0)$pols" \
		> "$dir.log" 2>&1 ||
		{ tail -15 "$dir.log" >&2; die "boot $kernel $view $variant failed (log: $dir.log)"; }
	echo "$append" > "$dir/append.txt"
	touch "$dir/done"
}

# Virtual time: what a guest measures does not depend on the host's load.
jobs=${BENCH_JOBS:-$(nproc)}
running=0 failed=0
boots=("base states" "patched states" "base poll" "patched poll")
for v in $BENCH_COST_VARIANTS; do
	boots+=("patched states $v")
done
for b in "${boots[@]}"; do
	if [ $running -ge "$jobs" ]; then
		wait -n || failed=1
		running=$((running - 1))
	fi
	[ $failed = 0 ] || break
	# shellcheck disable=SC2086
	run_boot $b &
	running=$((running + 1))
done
while [ $running -gt 0 ]; do
	wait -n || failed=1
	running=$((running - 1))
done
[ $failed = 0 ] || die "a boot failed"
python3 trace-scripts/bench/cost-report.py --raw "$raw" --out "$BENCH_COST_OUT" \
	--reference "$ref" --policies "$BENCH_COST_POLICIES" \
	--platform "$BENCH_PLATFORM" --append "$BENCH_COST_APPEND" \
	--variants "$BENCH_COST_VARIANTS" ||
	die "cost-report.py failed"
echo "bench-cost: [$(($(date +%s) - t0))s] $BENCH_COST_OUT/cost.md $BENCH_COST_OUT/cost.json"

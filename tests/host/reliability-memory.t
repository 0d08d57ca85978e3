#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Memory the series adds per task and per CPU, measured on the two built
# kernels ($SIP_CACHE/{base,patched}/obj/vmlinux) with nm's symbol sizes,
# against what the design pages state:
#  1 per task: sizeof(struct task_struct) is the size of init_task; the
#    difference must be the "total" of design/io-latency.md (192 bytes)
#    plus that of design/sleep-prediction.md (168 bytes), give or take the
#    padding task_struct had: it is cache-line aligned, so the growth is a
#    multiple of 64 at most 63 bytes below the sum and not above its
#    round-up;
#  2 per CPU, IO latency: io_latency_cpus is a per-CPU variable of at most
#    one cache line, cache-line aligned, and the next per-CPU variable starts
#    one cache line later: the 64 bytes design/io-latency.md states;
#  3 per CPU, cpuidle: the per-CPU struct cpuidle_device (cpuidle_dev) grows
#    by the "Memory per CPU" of design/series.md (24 bytes).
# The whole static per-CPU area of both kernels is reported (the governors'
# per-CPU data goes away with them). Skips when a kernel is not built.
set -u
cd "$(dirname "$0")/../.."
. qemu/defaults.sh
. tests/lib/tap.sh
cache=$SIP_CACHE
b=$cache/base/obj/vmlinux p=$cache/patched/obj/vmlinux
plan 3
if [ ! -f "$b" ] || [ ! -f "$p" ]; then
	skip_n 3 memory "kernels not built (make kernel)"
	exit 0
fi

# size <vmlinux> <symbol>: the symbol's size in bytes (decimal), empty if absent
hex() { [ -n "$1" ] && echo $((16#$1)); }
size() { hex "$(nm -S "$1" | awk -v s="$2" '$4 == s { print $2; exit }')"; }
addr() { hex "$(nm -S "$1" | awk -v s="$2" '$NF == s { print $1; exit }')"; }

total() { sed -n 's/^| \*\*total\*\* | \*\*\([0-9]*\)\*\* |.*/\1/p' "$1"; }
want_io=$(total design/io-latency.md) want_sleep=$(total design/sleep-prediction.md)
want_task=$((${want_io:-0} + ${want_sleep:-0}))
want_cpu_io=$(grep -o '[0-9]* with the cache line' design/io-latency.md | awk '{ print $1 }')
want_cpu_idle=$(grep -o 'Memory per CPU: [0-9]* bytes' design/series.md | awk '{ print $4 }')
echo "# design: per task $want_task, per CPU io_latency $want_cpu_io, cpuidle_device +$want_cpu_idle"

# grows <what> <symbol> <struct> <bytes the design states> <design
# file>: the patched kernel's <symbol> is that many bytes larger
grows() {
	local sb sp
	sb=$(size "$b" "$2") sp=$(size "$p" "$2")
	diag "sizeof(struct $3): base $sb, patched $sp"
	if [ -n "$4" ] && [ -n "$sb" ] && [ -n "$sp" ] && [ $((sp - sb)) = "$4" ]; then
		pass "$1: +$((sp - sb)) bytes, as $5 states"
	else
		fail "$1: +$((${sp:-0} - ${sb:-0})) bytes, $5 states '$4'"
	fi
}

# 1: the sum of the design's totals, within task_struct's alignment padding
sb=$(size "$b" init_task) sp=$(size "$p" init_task)
echo "# sizeof(struct task_struct): base $sb, patched $sp; design $want_io + $want_sleep = $want_task"
if [ -n "$want_io" ] && [ -n "$want_sleep" ] && [ -n "$sb" ] && [ -n "$sp" ] &&
   [ $((sp - sb)) -ge $((want_task - 63)) ] &&
   [ $((sp - sb)) -le $(((want_task + 63) / 64 * 64)) ]; then
	pass "per task: +$((sp - sb)) bytes for the $want_task the design pages state (64-byte aligned)"
else
	fail "per task: +$((${sp:-0} - ${sb:-0})) bytes, design/io-latency.md and design/sleep-prediction.md state $want_io + $want_sleep"
fi

# 2
s=$(size "$p" io_latency_cpus) a=$(addr "$p" io_latency_cpus)
next=$(hex "$(nm -S -n "$p" | awk 'found { print $1; exit } $NF == "io_latency_cpus" { found = 1 }')")
echo "# io_latency_cpus: $s bytes at per-CPU offset $a, next variable at $next"
if [ -n "$s" ] && [ -n "$want_cpu_io" ] && [ "$s" -le 64 ] && [ $((a % 64)) = 0 ] &&
   [ $((next - a)) = "$want_cpu_io" ]; then
	pass "per CPU, IO latency: $s bytes in $((next - a)) (one cache line)"
else
	fail "per CPU, IO latency: $s bytes in $((${next:-0} - ${a:-0})), design says $want_cpu_io"
fi

grows "per CPU, cpuidle_device" cpuidle_dev cpuidle_device "$want_cpu_idle" design/series.md

pb=$(addr "$b" __per_cpu_end) pp=$(addr "$p" __per_cpu_end)
echo "# static per-CPU area: base $pb, patched $pp bytes ($((pp - pb)); the governors' per-CPU data is gone)"

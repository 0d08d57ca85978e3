#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Memory the series adds per task and per CPU, measured on the two built
# kernels ($SIP_CACHE/{base,patched}/obj/vmlinux) with nm's symbol sizes,
# against what the design pages state:
#  1 per task: sizeof(struct task_struct) is the size of init_task; the
#    difference must be the "total" of design/io-latency.md (192 bytes);
#  2 per CPU, IO latency: io_latency_cpus is a per-CPU variable of at most
#    one cache line, cache-line aligned, and the next per-CPU variable starts
#    one cache line later: the 64 bytes design/io-latency.md states;
#  3 per CPU, cpuidle: the per-CPU struct cpuidle_device (cpuidle_dev) grows
#    by the "Memory per CPU" of design/series.md (32 bytes).
# The whole static per-CPU area of both kernels is reported (the governors'
# per-CPU data goes away with them). Skips when a kernel is not built.
set -u
cd "$(dirname "$0")/../.."
cache=${SIP_CACHE:-$HOME/.cache/sched-idle-predict}
b=$cache/base/obj/vmlinux p=$cache/patched/obj/vmlinux
echo "1..3"
if [ ! -f "$b" ] || [ ! -f "$p" ]; then
	for i in 1 2 3; do echo "ok $i - memory # SKIP kernels not built (make kernel)"; done
	exit 0
fi

# size <vmlinux> <symbol>: the symbol's size in bytes (decimal), empty if absent
hex() { [ -n "$1" ] && echo $((16#$1)); }
size() { hex "$(nm -S "$1" | awk -v s="$2" '$4 == s { print $2; exit }')"; }
addr() { hex "$(nm -S "$1" | awk -v s="$2" '$NF == s { print $1; exit }')"; }

want_task=$(sed -n 's/^| \*\*total\*\* | \*\*\([0-9]*\)\*\* |.*/\1/p' design/io-latency.md)
want_cpu_io=$(grep -o '[0-9]* with the cache line' design/io-latency.md | awk '{ print $1 }')
want_cpu_idle=$(grep -o 'Memory per CPU: [0-9]* bytes' design/series.md | awk '{ print $4 }')
echo "# design: per task $want_task, per CPU io_latency $want_cpu_io, cpuidle_device +$want_cpu_idle"

# 1
tb=$(size "$b" init_task) tp=$(size "$p" init_task)
echo "# sizeof(struct task_struct): base $tb, patched $tp"
if [ -n "$want_task" ] && [ -n "$tb" ] && [ -n "$tp" ] && [ $((tp - tb)) = "$want_task" ]; then
	echo "ok 1 - per task: +$((tp - tb)) bytes, as design/io-latency.md states"
else
	echo "not ok 1 - per task: +$((${tp:-0} - ${tb:-0})) bytes, design/io-latency.md states '$want_task'"
fi

# 2
s=$(size "$p" io_latency_cpus) a=$(addr "$p" io_latency_cpus)
next=$(hex "$(nm -S -n "$p" | awk 'found { print $1; exit } $NF == "io_latency_cpus" { found = 1 }')")
echo "# io_latency_cpus: $s bytes at per-CPU offset $a, next variable at $next"
if [ -n "$s" ] && [ -n "$want_cpu_io" ] && [ "$s" -le 64 ] && [ $((a % 64)) = 0 ] &&
   [ $((next - a)) = "$want_cpu_io" ]; then
	echo "ok 2 - per CPU, IO latency: $s bytes in $((next - a)) (one cache line)"
else
	echo "not ok 2 - per CPU, IO latency: $s bytes in $((${next:-0} - ${a:-0})), design says $want_cpu_io"
fi

# 3
db=$(size "$b" cpuidle_dev) dp=$(size "$p" cpuidle_dev)
echo "# sizeof(struct cpuidle_device): base $db, patched $dp"
if [ -n "$want_cpu_idle" ] && [ -n "$db" ] && [ -n "$dp" ] && [ $((dp - db)) = "$want_cpu_idle" ]; then
	echo "ok 3 - per CPU, cpuidle_device: +$((dp - db)) bytes, as design/series.md states"
else
	echo "not ok 3 - per CPU, cpuidle_device: +$((${dp:-0} - ${db:-0})), design/series.md states '$want_cpu_idle'"
fi

pb=$(addr "$b" __per_cpu_end) pp=$(addr "$p" __per_cpu_end)
echo "# static per-CPU area: base $pb, patched $pp bytes ($((pp - pb)); the governors' per-CPU data is gone)"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# record.sh - trace a workload in the guest for sip-idle-report
#
#	record.sh [-t SECONDS] [-w mixed|timers|io|idle] [-o DIR] [-b KB] [-- CMD...]
#
# Writes DIR/trace.dat (default /results, which the test bed brings back
# to the host) and DIR/platform.txt, the platform description the analyser
# reads beside the trace (format: design/analysis.md), plus the emulated
# platform's own energy counters before and after the workload
# (emu_idle-energy-*.txt) when its debugfs is there and the kernel's
# cpuidle sysfs counters (cpuidle-*.txt) when there is an idle driver; the
# trace markers "sip-window start" / "sip-window end" bracket the same interval. Events: power:cpu_idle, power:cpu_idle_miss,
# sched:sched_switch, sched:sched_wakeup, block:block_rq_issue,
# block:block_rq_complete, the interrupt entries (irq:irq_handler_entry,
# irq_vectors:{local_timer,reschedule,call_function,call_function_single}_entry)
# and, when the kernel has them, the series'
# sched_idle_predict and sched_sleep_predict (each found by name in
# whatever system it is in).
#
# -w runs trace-scripts/guest/workload.sh with that workload for SECONDS; a
# command after -- is traced instead. -b is the ring buffer size per CPU.
set -u
here=$(cd "$(dirname "$0")" && pwd)
secs=10 work=mixed out=/results buf=8192
while [ $# -gt 0 ]; do
	case "$1" in
	-t) secs=$2; shift 2 ;;
	-w) work=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-b) buf=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "record.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
die() { echo "record.sh: $*" >&2; exit 1; }

T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
[ -d $T/events/power/cpu_idle ] || die "no power:cpu_idle event in $T (tracefs mounted? CONFIG_TRACING?)"
command -v trace-cmd >/dev/null || die "trace-cmd not found"
mkdir -p "$out" || die "cannot create $out"

events="-e power:cpu_idle -e sched:sched_switch -e sched:sched_wakeup"
[ -d $T/events/power/cpu_idle_miss ] && events="$events -e power:cpu_idle_miss"
[ -d $T/events/block/block_rq_issue ] && events="$events -e block:block_rq_issue -e block:block_rq_complete"
# Interrupt entries: where a CPU was woken inside an idle period (the
# analyser judges the sleep to the first of them, design/analysis.md).
for ev in irq/irq_handler_entry irq_vectors/local_timer_entry irq_vectors/reschedule_entry \
	  irq_vectors/call_function_entry irq_vectors/call_function_single_entry; do
	[ -d "$T/events/$ev" ] && events="$events -e ${ev%%/*}:${ev#*/}"
done
for ev in sched_idle_predict sched_sleep_predict; do
	d=$(ls -d $T/events/*/$ev 2>/dev/null | head -1)
	[ -n "$d" ] && events="$events -e $(basename "$(dirname "$d")"):$ev"
done

# --- the platform description -------------------------------------------
# HZ is not visible from user space without /proc/config.gz; the project's
# kernels use CONFIG_HZ_250 (qemu/config/common.config): 4000 us per tick.
hz=${SIP_HZ:-250}
if [ -r /proc/config.gz ]; then
	h=$(zcat /proc/config.gz | sed -n 's/^CONFIG_HZ=//p')
	[ -n "$h" ] && hz=$h
fi
# The PM QoS CPU latency limit in force: /dev/cpu_dma_latency reads as a
# native s32 in us; 2000000000 (PM_QOS_CPU_LATENCY_DEFAULT_VALUE) is none.
qos=none
if [ -r /dev/cpu_dma_latency ]; then
	v=$(od -An -td4 -N4 /dev/cpu_dma_latency 2>/dev/null | tr -d ' ')
	[ -n "$v" ] && [ "$v" -lt 2000000000 ] && qos=$v
fi
emu=/sys/kernel/debug/emu_idle
{
	echo "sip-platform 1"
	echo "# written by record.sh on $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "platform ${SIP_PLATFORM:-$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo unknown)}"
	echo "latency_limit_us $qos"
	echo "tick_us $((1000000 / hz))"
	echo "# index name exit_latency_us target_residency_us power_mw transition_uj enabled|disabled"
	i=0
	while [ -d /sys/devices/system/cpu/cpu0/cpuidle/state$i ]; do
		d=/sys/devices/system/cpu/cpu0/cpuidle/state$i
		name=$(cat $d/name) lat=$(cat $d/latency) res=$(cat $d/residency)
		pw=$(cat $d/power 2>/dev/null || echo 0)
		tr_nj=0
		# the emulated platform publishes power and transition energy
		if [ -r $emu/states ]; then
			l=$(awk -v i=$i '$1 == i { print $5, $6 }' $emu/states)
			[ -n "$l" ] && { pw=${l% *}; tr_nj=${l#* }; }
		fi
		en=enabled
		[ "$(cat $d/disable 2>/dev/null)" = 1 ] && en=disabled
		printf 'state %d %s %s %s %s %s %s\n' $i "$name" "$lat" "$res" "$pw" \
			"$(awk -v n="$tr_nj" 'BEGIN { printf "%.3f", n / 1000 }')" $en
		i=$((i + 1))
	done
} > "$out/platform.txt"
if [ ! -d /sys/devices/system/cpu/cpu0/cpuidle/state0 ]; then
	# No idle driver (PLATFORM=none): nothing to judge against; the
	# analyser then counts periods only.
	rm -f "$out/platform.txt"
	echo "record.sh: no cpuidle states (no idle driver): no platform.txt" >&2
fi

# --- record ----------------------------------------------------------------
echo "record.sh: tracing $events for ${secs}s ($work)"
[ $# -eq 0 ] && set -- sh "$here/workload.sh" "$work" "$secs"
# The traced command: the workload between two trace markers, with the
# emulated platform's counters read just outside them, so that
# `sip-idle-report --window` and the counters cover nearly the same
# interval. The counters are copied with shell builtins (read, echo): a
# cat would fork and exec between counter and marker, milliseconds under
# TCG in which the other CPUs go in and out of idle.
#
# The kernel's own cpuidle counters are read too, one line per CPU and
# state: "cpu state usage above below time_us" (cpuidle-{before,after}.txt,
# any idle driver). They are read outside the emulated platform's, so that
# those stay next to the markers. The first pass over sysfs creates the
# files' inodes, some 40 ms under TCG, so a pass to /dev/null goes first;
# the snapshot proper is then about 10 ms (4 small files per CPU and
# state, the files of one CPU in a row). The trace markers "sip-cpuidle
# read" go before the first snapshot and after the second: the idle
# periods that end between them and the window's markers are the ones the
# sysfs counters may hold and the window not.
wrap=/tmp/sip-record-window.sh
cat > $wrap <<EOF
snap() {
	[ -r $emu/energy ] || return 0
	while IFS= read -r l; do echo "\$l"; done < $emu/energy > "\$1"
}
csnap() {
	[ -d /sys/devices/system/cpu/cpu0/cpuidle/state0 ] || return 0
	for c in /sys/devices/system/cpu/cpu[0-9]*/cpuidle; do
		[ -d "\$c/state0" ] || continue
		n=\${c%/cpuidle}; n=\${n##*/cpu}
		for s in "\$c"/state[0-9]*; do
			read -r u < "\$s/usage"; read -r a < "\$s/above"
			read -r b < "\$s/below"; read -r t < "\$s/time"
			echo "\$n \${s##*/state} \$u \$a \$b \$t"
		done
	done > "\$1"
}
csnap /dev/null
echo "sip-cpuidle read" > $T/trace_marker
csnap "$out/cpuidle-before.txt"
snap "$out/emu_idle-energy-before.txt"
echo "sip-window start" > $T/trace_marker
"\$@"
rc=\$?
echo "sip-window end" > $T/trace_marker
snap "$out/emu_idle-energy-after.txt"
csnap "$out/cpuidle-after.txt"
echo "sip-cpuidle read" > $T/trace_marker
exit \$rc
EOF
# shellcheck disable=SC2086
trace-cmd record -q -b "$buf" $events -o "$out/trace.dat" sh $wrap "$@" > "$out/record.log" 2>&1
rc=$?
if [ $rc != 0 ] || [ ! -s "$out/trace.dat" ]; then
	tail -5 "$out/record.log" >&2
	die "trace-cmd record failed (status $rc)"
fi
echo "record.sh: $(ls -l "$out/trace.dat" | awk '{ print $5 }') bytes in $out/trace.dat"

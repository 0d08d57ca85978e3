# SPDX-License-Identifier: GPL-2.0
#
# Shared by the host tests (tests/host/*.t), sourced after a cd to the top
# of the checkout: the defaults, TAP (tests/lib/tap.sh), the analyser
# built once, and the recording of a guest run with the counters read
# beside the window.

. qemu/defaults.sh
TOOLS=$SIP_CACHE/tools
R=$TOOLS/sip-idle-report
D=tests/data/analyser
. tests/lib/tap.sh

# scratch: $tmp, a temporary directory removed at exit (kept with KEEP=1)
scratch() {
	tmp=$(mktemp -d)
	trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
}

# read_window <out> [analyser options]: sip-idle-report --window on the
# guest trace <out>/trace.dat into <out>/window.csv; one TAP line
read_window() {
	local out=$1
	shift
	"$R" --window "$@" -f csv -o "$out/window.csv" "$out/trace.dat" 2>"$out/report.err"
	ok $? "sip-idle-report --window reads the guest trace $(head -1 "$out/report.err")"
}

# need_analyser [make targets]: build sip-idle-report and its tools (or
# the targets given), or bail out
need_analyser() {
	local o
	o=$(make -s --no-print-directory "${@:-analyser}" 2>&1) ||
		bail "cannot build the analyser: $(echo "$o" | tail -1)"
}

# record_mixed <out> <first> <make boot VAR=value ...>: boot a guest, run
# the guest command <first> (may be empty) and record 3 s of the mixed
# workload with trace-scripts/guest/record.sh into <out> (trace.dat,
# platform.txt, the counters before and after the window), the console
# in <out>.log. One TAP line, naming the boot's variables; returns make
# boot's status. make boot builds the kernel first when it was never built
# (clean clone).
record_mixed() {
	local out=$1 first=${2:-true} rc
	shift 2
	rm -rf "$out"
	mkdir -p "$(dirname "$out")"
	make --no-print-directory boot "$@" TIMEOUT=240 RESULTS="$out" \
		CMD="$first && /sip/trace-scripts/guest/record.sh -t 3 -w mixed" >"$out.log" 2>&1
	rc=$?
	ok $rc "boot ($*) and record 3 s of the mixed workload (status $rc)"
	return $rc
}

# edge_periods <report> <ncpus>: "cpu n" per CPU, n = the idle periods
# the counters read beside the window may hold and the window does not;
# <report> is the trace as `trace-cmd report` prints it (time order).
# record.sh writes the marker "sip-cpuidle read" before its first counter
# read and after its last one; the periods of a CPU that end between that
# marker and "sip-window start", or between "sip-window end" and the last
# marker, plus the one straddling the start, are the edge. Measured from
# the trace, not guessed: a pairing error is off by far more.
edge_periods() {
	awk -v ncpu="$2" '
		/tracing_mark_write: sip-cpuidle read/ { in_edge = !seen++; next }
		/tracing_mark_write: sip-window start/ { in_edge = 0; next }
		/tracing_mark_write: sip-window end/ { in_edge = 1; next }
		in_edge && / cpu_idle: +state=4294967295 / { sub(/.*cpu_id=/, ""); e[$1 + 0]++ }
		END { for (c = 0; c < ncpu; c++) print c, e[c] + 1 }' "$1"
}

# count_markers <report>: how many "sip-cpuidle read" markers (2 when
# record.sh bracketed the window)
count_markers() {
	grep -c 'tracing_mark_write: sip-cpuidle read' "$1"
}

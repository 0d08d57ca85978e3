#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own selftests of the subsystems the series touches, on the
# base and the patched kernel: the non-destructive timers tests, the CPU
# hotplug test and a subset of the ftrace tests, from the base tree's
# tools/testing/selftests (unchanged), built statically on the host into
# $SIP_CACHE/kselftest. Prints a table and fails when the patched kernel
# fails a test the base kernel passes.
#
# usage: kselftest.sh [results-dir]          (from the checkout's top)
#
# The binaries reach the guest through the initramfs' per-kernel tools
# directory: $SIP_CACHE/kst-<kernel>/obj links to <kernel>/obj and
# kst-<kernel>/tools holds the tests, so the normal kernels' initramfs are
# left alone. bash comes from Debian's bash-static (the guest has busybox).
set -u
. "$(dirname "$0")/../../qemu/defaults.sh"
cache=$SIP_CACHE
res=${1:-results/kselftest}
src=$cache/base/src/tools/testing/selftests
kst=$cache/kselftest
timers="posix_timers nanosleep nsleep-lat set-timer-lat mqueue-lat inconsistency-check raw_skew threadtest rtcpie"
# ftrace: event and ring buffer tests only. Anything that turns the
# function tracer on crashes both kernels under TCG (a stray int3 trap at a
# patched function entry, e.g. __enqueue_entity+0x1: QEMU's multi-threaded
# TCG and cross-modifying code), see design/reliability.md.
ftrace_subset="test.d/00basic/basic1.tc test.d/00basic/basic3.tc test.d/00basic/basic4.tc
	test.d/00basic/ringbuffer_size.tc test.d/event/event-enable.tc
	test.d/event/subsystem-enable.tc test.d/event/toplevel-enable.tc
	test.d/instances/instance-event.tc"
# SUITES: which of them to run (all by default)
SUITES=${SUITES:-timers cpu-hotplug ftrace}
die() { echo "kselftest: $*" >&2; exit 1; }

[ -d "$src" ] || die "no $src (make kernel first)"
[ -x /bin/bash-static ] || die "/bin/bash-static missing: apt-get install bash-static"

mkdir -p "$kst/timers"
for t in $timers; do
	[ -x "$kst/timers/$t" ] && continue
	nice -n 10 make -s -C "$src/timers" OUTPUT="$kst/timers" LDFLAGS=-static \
		"$kst/timers/$t" > /dev/null || die "cannot build timers/$t"
done
rm -rf "$kst/ftrace-stage"
mkdir -p "$kst/ftrace-stage"
cp -r "$src/ftrace" "$kst/ftrace-stage/"
echo $ftrace_subset > "$kst/ftrace-stage/subset"
tar -cf "$kst/ftrace-selftests.tar" -C "$kst/ftrace-stage" ftrace subset

rm -rf "$res"; mkdir -p "$res"
for k in base patched; do
	[ -f "$cache/$k/obj/arch/x86/boot/bzImage" ] || die "kernel $k not built"
	d=$cache/kst-$k
	mkdir -p "$d/tools"
	ln -sfn "../$k/obj" "$d/obj"
	for t in $timers; do cp "$kst/timers/$t" "$d/tools/"; done
	cp /bin/bash-static "$d/tools/bash"
	cp "$src/cpu-hotplug/cpu-on-off-test.sh" "$d/tools/"
	cp "$kst/ftrace-selftests.tar" "$d/tools/"
	echo "kselftest: $k ..." >&2
	KERNEL=kst-$k SMP=2 PLATFORM=x86-client TIMEOUT=1500 RESULTS="$res/$k" \
		CMD="sh /sip/tests/stress/kselftest-guest.sh 300 '$SUITES'" \
		./qemu/boot.sh > "$res/$k.out" 2> "$res/$k.err" ||
		echo "kselftest: $k boot: $(tail -1 "$res/$k.err")" >&2
	grep -a '^RESULT ' "$res/$k.out" | tr -d '\r' > "$res/$k.txt"
done

# Table: one row per test, base and patched results.
fail=0
printf '| test | base | patched | base s | patched s |\n|---|---|---|---|---|\n' > "$res/table.md"
for t in $(cat "$res/base.txt" "$res/patched.txt" | awk '{ print $2 }' | awk '!s[$0]++'); do
	b=$(awk -v t="$t" '$2 == t { print $3 " " $4 }' "$res/base.txt")
	p=$(awk -v t="$t" '$2 == t { print $3 " " $4 }' "$res/patched.txt")
	set -- ${b:-none -} ${p:-none -}
	printf '| %s | %s | %s | %s | %s |\n' "$t" "$1" "$3" "$2" "$4" >> "$res/table.md"
	if [ "$1" = PASS ] && [ "$3" != PASS ]; then
		echo "kselftest: REGRESSION $t: base PASS, patched $3" >&2
		fail=1
	fi
done
cat "$res/table.md"
[ -s "$res/base.txt" ] && [ -s "$res/patched.txt" ] || { echo "kselftest: no results" >&2; exit 1; }
[ $fail = 0 ] && echo "kselftest: the patched kernel passes every test the base kernel passes"
exit $fail

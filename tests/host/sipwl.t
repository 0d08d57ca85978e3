#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sipwl (tests/workloads/sipwl.c) on the host: it builds with the guest's
# flags (qemu/mkinitramfs.sh: static, -Werror), the wake-up workloads run
# for 1 s each and print their result line (ops > 0) and, with -l, a
# lateness sample per wake-up where they measure it (and mix's timer task
# too), a bad argument exits 2 with one line naming it, and every workload
# of the bench's table (trace-scripts/bench/bench.tsv) has sipwl arguments
# for a workload sipwl knows.
# Needs two CPUs for the pinning to mean anything; on one, sipwl runs the
# tasks unpinned and the checks still hold.
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh
scratch
W=$tmp/sipwl
plan 12

gcc -static -O2 -Wall -Wextra -Werror -o "$W" tests/workloads/sipwl.c -lm 2> "$tmp/cc.err"
rc=$?
ok $rc "sipwl builds static with -Wall -Wextra -Werror $(head -c 200 "$tmp/cc.err")"
[ $rc = 0 ] || bail "sipwl does not build"

# check_line <line> <late file> <name> <stem...>: the result line of
# <name>, ops > 0, and in the -l file "STEM NS" lines with NS >= 0 for each
# stem (late, timer_late) and no other, no more "late" lines than ops + 1
check_line() {
	local line=$1 late=$2 name=$3 ops
	shift 3
	case "$line" in "sipwl $name ops="*" unit=ops/s") ;; *) return 1 ;; esac
	ops=$(sed -n 's/.* ops=\([0-9]*\) .*/\1/p' <<< "$line")
	[ "$ops" -gt 0 ] || return 1
	[ "$(awk '{ print $1 }' "$late" | sort -u | tr '\n' ' ')" = "$(printf '%s ' "$@" | tr ' ' '\n' | grep . | sort | tr '\n' ' ')" ] || return 1
	awk -v ops="$ops" '$2 !~ /^[0-9]+$/ || ($1 == "late" && ++n > ops + 1) { exit 1 }' "$late"
}

# 2-8: the wake-up workloads and fork, then remote-wakeup and timer, which share
# their code. sipwl arguments | the lateness figures the line must have
while IFS='|' read -r args stems; do
	# shellcheck disable=SC2086
	line=$("$W" -s 1 -t 1 -l "$tmp/late" $args 2> "$tmp/err")
	rc=$?
	# shellcheck disable=SC2086
	[ $rc = 0 ] && check_line "$line" "$tmp/late" "${args%% *}" $stems
	ok $? "sipwl -t 1 $args: $line, $(wc -l < "$tmp/late") lateness samples$(head -c 200 "$tmp/err")"
done <<'EOF'
futex-pingpong|
fork|
sock-rr 500|late
prodcons 8 2000|late
mix 2000 1000|late timer_late
remote-wakeup 2000|late
timer 1000|late
EOF

# 9: io-fsync on the host's /tmp file system: buffered writes and fsync
mkdir -p "$tmp/fs"
line=$("$W" -s 1 -t 1 io-fsync "$tmp/fs" 64 2> "$tmp/err")
rc=$?
[ $rc = 0 ] && case "$line" in "sipwl io-fsync ops="*" unit=ops/s") true ;; *) false ;; esac &&
	[ "$(sed -n 's/.* ops=\([0-9]*\) .*/\1/p' <<< "$line")" -gt 0 ] && [ -z "$(ls "$tmp/fs")" ]
ok $? "sipwl -t 1 io-fsync DIR 64: $line, its file removed$(head -c 200 "$tmp/err")"

# 10: a bad argument: status 2, one line naming it, no result line
"$W" -t 1 prodcons 0 2000 > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
	grep -q "BURST must be 1\.\.[0-9]*, not '0'" "$tmp/err"
ok $? "prodcons BURST=0: status $rc, $(cat "$tmp/err")"

# 11: io-depth beyond its task limit, the same way, before opening the device
"$W" -t 1 io-depth /nonexistent 17 > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
	grep -q "TASKS must be 1\.\.16, not '17'" "$tmp/err"
ok $? "io-depth TASKS=17: status $rc, $(cat "$tmp/err")"

# 12: the bench table's workloads, as make bench lists them, against
# sipwl's usage
. trace-scripts/bench/bench-table.sh
wls=$(for set in full quick io; do
	printf 'include mk/bench.mk\nsipwl-t-list:\n\t@echo $(BENCH_WORKLOADS)\n' |
		make -s --no-print-directory -f - sipwl-t-list BENCH_SET=$set
done | tr " " "\n" | sort -u)
"$W" 2> "$tmp/usage"
bad=
for w in $wls; do
	a=$(bench_field workload "$w" 4) && grep -qE "(^|[ |])${a%% *}( |$)" "$tmp/usage" || bad+=" $w"
done
[ -n "$wls" ] && [ -z "$bad" ] && [ "$wls" = "$(bench_names workload | tr ' ' '\n' | sort)" ]
ok $? "every bench workload maps to a sipwl workload ($(echo $wls | wc -w) names${bad:+; not:$bad})"

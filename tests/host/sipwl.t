#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sipwl (tests/workloads/sipwl.c) on the host: it builds with the guest's
# flags (qemu/mkinitramfs.sh: static, -Werror), the wake-up workloads run
# for 1 s each and print their result line (ops > 0, the lateness p50 <=
# p99 where they report it, and mix's timer task too), a bad argument exits
# 2 with one line naming it, and every workload of mk/bench.mk has sipwl
# arguments in trace-scripts/guest/bench-guest.sh for a workload sipwl knows.
# Needs two CPUs for the pinning to mean anything; on one, sipwl runs the
# tasks unpinned and the checks still hold.
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
W=$tmp/sipwl
plan 9

gcc -static -O2 -Wall -Wextra -Werror -o "$W" tests/workloads/sipwl.c -lm 2> "$tmp/cc.err"
rc=$?
ok $rc "sipwl builds static with -Wall -Wextra -Werror $(head -c 200 "$tmp/cc.err")"
[ $rc = 0 ] || bail "sipwl does not build"

# check_line <line> <name> <stem...>: the result line of <name>, ops > 0,
# and for each stem (late, timer_late) 0 <= STEM_p50_us <= STEM_p99_us
check_line() {
	local line=$1 name=$2 stem p50 p99
	shift 2
	case "$line" in "sipwl $name ops="*" unit=ops/s"*) ;; *) return 1 ;; esac
	[ "$(sed -n 's/.* ops=\([0-9]*\) .*/\1/p' <<< "$line")" -gt 0 ] || return 1
	for stem in "$@"; do
		p50=$(sed -n "s/.* ${stem}_p50_us=\([0-9.]*\).*/\1/p" <<< "$line")
		p99=$(sed -n "s/.* ${stem}_p99_us=\([0-9.]*\).*/\1/p" <<< "$line")
		[ -n "$p50" ] && [ -n "$p99" ] || return 1
		awk -v a="$p50" -v b="$p99" 'BEGIN { exit !(a >= 0 && a <= b) }' || return 1
	done
}

# 2-7: the wake-up workloads, then remote-wakeup and timer, which share
# their code. sipwl arguments | the lateness figures the line must have
while IFS='|' read -r args stems; do
	# shellcheck disable=SC2086
	line=$("$W" -s 1 -t 1 $args 2> "$tmp/err")
	rc=$?
	# shellcheck disable=SC2086
	[ $rc = 0 ] && check_line "$line" "${args%% *}" $stems
	ok $? "sipwl -t 1 $args: $line$(head -c 200 "$tmp/err")"
done <<'EOF'
futex-pingpong|
sock-rr 500|late
prodcons 8 2000|late
mix 2000 1000|late timer_late
remote-wakeup 2000|late
timer 1000|late
EOF

# 8: a bad argument: status 2, one line naming it, no result line
"$W" -t 1 prodcons 0 2000 > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
	grep -q "BURST must be 1\.\.[0-9]*, not '0'" "$tmp/err"
ok $? "prodcons BURST=0: status $rc, $(cat "$tmp/err")"

# 9: mk/bench.mk's workloads against bench-guest.sh's wl_args and sipwl's usage
wls=$(printf 'include mk/bench.mk\nsipwl-t-list:\n\t@echo $(BENCH_WORKLOADS_FULL) $(BENCH_WORKLOADS_QUICK)\n' |
	make -s --no-print-directory -f - sipwl-t-list | tr " " "\n" | sort -u)
eval "$(sed -n '/^wl_args() {/,/^}/p' trace-scripts/guest/bench-guest.sh)"
"$W" 2> "$tmp/usage"
bad=
for w in $wls; do
	a=$(wl_args "$w") && grep -qE "(^|[ |])${a%% *}( |$)" "$tmp/usage" || bad+=" $w"
done
[ -n "$wls" ] && [ -z "$bad" ]
ok $? "every bench workload maps to a sipwl workload ($(echo $wls | wc -w) names${bad:+; not:$bad})"

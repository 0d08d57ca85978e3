#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make test: the kernels, host checks, then the in-guest tests on both
# kernels, then the KUnit suites built into the kernels. Prints TAP; the
# last line is "N passed, N failed". Exits non-zero when anything failed.
#
# TESTS=<glob> limits which tests run (matched against the file name).
set -u
cd "$(dirname "$0")/.."
export LC_COLLATE=C	# the globs below sort bytewise: a defined order
. qemu/defaults.sh
# Progress, as TAP comments "# [mm:ss] ...", timed from make's start.
export SIP_T0=${SIP_T0:-$(date +%s)}
progress() { echo "# $(./qemu/progress.sh "$@")"; }
out=$SIP_TEST_OUT
rm -rf "$out"; mkdir -p "$out"
pass=0 failn=0 skip=0
filter=${TESTS:-*}

# Count the TAP of one test program. A test passes when every ok line is
# ok, there is at least one, the plan (if any) matches, and it exited 0.
count_tap() {	# <name> <tap-file> <exit-status>
	local name=$1 tap=$2 rc=$3 plan nok nnot nskip
	plan=$(grep -m1 -E '^1\.\.[0-9]+' "$tap" | sed 's/^1\.\.\([0-9]*\).*/\1/')
	nok=$(grep -cE '^ok [0-9]+' "$tap")
	nnot=$(grep -cE '^not ok [0-9]+' "$tap")
	nskip=$(grep -cE '^ok [0-9]+.*# *(SKIP|skip)' "$tap")
	pass=$((pass + nok - nskip)); skip=$((skip + nskip)); failn=$((failn + nnot))
	if [ "$rc" != 0 ] && [ "$nnot" = 0 ]; then
		echo "not ok - $name exited with status $rc"
		failn=$((failn + 1))
	elif [ -n "$plan" ] && [ "$plan" != $((nok + nnot)) ]; then
		echo "not ok - $name planned $plan tests, ran $((nok + nnot))"
		failn=$((failn + 1))
	elif [ -z "$plan" ] && [ $((nok + nnot)) = 0 ]; then
		echo "not ok - $name printed no TAP"
		failn=$((failn + 1))
	fi
}

echo "TAP version 13"

# 1. Kernels, first: host checks boot them too (10-testbed, analyser-guest,
# analyser-sysfs), and on a fresh machine nothing is built yet.
progress "building kernels (make kernel)"
if make --no-print-directory kernel > "$out/kernel.log" 2>&1; then
	echo "ok - make kernel: $(tail -1 "$out/kernel.log")"
	pass=$((pass + 1))
else
	tail -15 "$out/kernel.log" | sed 's/^/# /'
	echo "not ok - make kernel"
	failn=$((failn + 1))
fi

# 2. Host checks
for t in tests/host/*.t; do
	[ -x "$t" ] || continue
	name=$(basename "$t" .t)
	case "$name" in $filter) ;; *) continue ;; esac
	progress "host: $name"
	"$t" > "$out/host-$name.tap" 2>"$out/host-$name.err"
	rc=$?
	cat "$out/host-$name.tap"
	[ "$rc" != 0 ] && tail -5 "$out/host-$name.err" | sed 's/^/# /'
	count_tap "host/$name" "$out/host-$name.tap" "$rc"
done

# 3. Guest tests, grouped by their boot header. The groups boot in the
# order of their first test's name (the glob sorts), the tests of a group
# in name order.
declare -A groups
order=()
for t in tests/guest/*.t; do
	[ -x "$t" ] || continue
	name=$(basename "$t" .t)
	case "$name" in $filter) ;; *) continue ;; esac
	hdr=$(grep -m1 '^# sip-boot:' "$t" | sed 's/^# sip-boot://')
	key=$(echo "$hdr" | tr ' ' '\n' | grep . | LC_ALL=C sort | tr '\n' ' ')
	[ -n "${groups[$key]+set}" ] || order+=("$key")
	groups[$key]+="$name "
done

kunit_kernels=
rm -f "$out"/kunit-*.cases
# A group whose header does not set DISK_COMPLETION gets qemu/defaults.sh's
# default, not whatever the environment holds, as for the other variables.
completion_default=$(unset DISK_COMPLETION; . qemu/defaults.sh; echo "$DISK_COMPLETION")
for key in "${order[@]}"; do
	kernels="base,patched" platform=x86-client smp=2 disks="" append="" to=300
	completion=$completion_default
	for kv in $key; do
		case "$kv" in
		KERNEL=*) kernels=${kv#KERNEL=} ;;
		PLATFORM=*) platform=${kv#PLATFORM=} ;;
		SMP=*) smp=${kv#SMP=} ;;
		DISKS=*) disks=${kv#DISKS=}; disks=${disks//,/ } ;;
		DISK_COMPLETION=*) completion=${kv#DISK_COMPLETION=} ;;
		APPEND=*) append+=" ${kv#APPEND=}" ;;
		TIMEOUT=*) to=${kv#TIMEOUT=} ;;
		esac
	done
	names=${groups[$key]}
	for k in ${kernels//,/ }; do
		res=$out/guest-$k-$(echo "$key" | md5sum | cut -c1-8)
		progress "guest ($k; $key): $names"
		list=$(for n in $names; do printf '%s ' "$n"; done)
		KERNEL=$k PLATFORM=$platform SMP=$smp DISKS="$disks" APPEND="$append" \
			DISK_COMPLETION=$completion \
			TIMEOUT=$((to * $(echo $names | wc -w) + 60)) RESULTS=$res \
			CMD="sh /sip/tests/guest/run-tests.sh $to $list" \
			./qemu/boot.sh > "$res.out" 2> "$res.err"
		brc=$?
		for n in $names; do
			tap=$res/tap/$n.tap
			if [ -f "$tap" ]; then
				sed 's/^/    /' "$tap" | grep -E '^    (not )?ok|^    #' | head -200
				count_tap "guest/$k/$n" "$tap" "$(cat "$res/tap/$n.rc")"
			else
				echo "not ok - guest/$k/$n: boot failed: $(tail -1 "$res.err")"
				failn=$((failn + 1))
			fi
		done
		[ "$brc" != 0 ] && [ -s "$res.err" ] && echo "# boot: $(tail -1 "$res.err")"
		# KUnit suites run at every boot, each with that boot's command
		# line (a case may skip in one mode and run in another): keep
		# every boot's case lines, judged together below.
		[ -f "$res/dmesg.log" ] || continue
		sed 's/^\[[ 0-9.]*\] //' "$res/dmesg.log" > "$res/kunit.ktap"
		grep -qE '^ *# Subtest:' "$res/kunit.ktap" || continue
		case " $kunit_kernels " in *" $k "*) ;; *) kunit_kernels+=" $k" ;; esac
		grep -E '^    (not )?ok [0-9]+ ' "$res/kunit.ktap" >> "$out/kunit-$k.cases"
	done
done

# 4. KUnit, once per kernel over all its boots: a case fails if it failed
# in any boot, passes if it ran and passed in one, and is skipped only if
# every boot skipped it.
for k in $kunit_kernels; do
	echo "# kunit ($k, $(grep -c . "$out/kunit-$k.cases") case results from every boot)"
	awk -v k="$k" '
	{
		st = ($1 == "not") ? "fail" : "ok"
		sub(/^ *(not )?ok [0-9]+ /, "")
		name = $0; reason = ""
		if (match(name, / # (SKIP|skip)/)) {
			reason = substr(name, RSTART + 3); name = substr(name, 1, RSTART - 1)
			if (st == "ok") st = "skip"
		}
		if (!(name in state)) { order[++n] = name; state[name] = st; why[name] = reason; next }
		if (st == "fail" || state[name] == "fail") state[name] = "fail"
		else if (st == "ok" || state[name] == "ok") state[name] = "ok"
	}
	END {
		for (i = 1; i <= n; i++) {
			nm = order[i]
			if (state[nm] == "fail") printf "not ok %d kunit/%s: %s\n", i, k, nm
			else if (state[nm] == "skip") printf "ok %d kunit/%s: %s # %s\n", i, k, nm, why[nm]
			else printf "ok %d kunit/%s: %s\n", i, k, nm
		}
	}' "$out/kunit-$k.cases" > "$out/kunit-$k.tap"
	cat "$out/kunit-$k.tap"
	count_tap "kunit/$k" "$out/kunit-$k.tap" 0
done

progress "results in $out; skipped: $skip"
echo "$pass passed, $failn failed"
[ "$failn" = 0 ]

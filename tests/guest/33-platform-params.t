#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sip-boot: KERNEL=base,patched PLATFORM=none SMP=2 TIMEOUT=300
#
# Every kind of bad parameter makes insmod emu_idle fail with EINVAL, a
# kernel message naming the problem, and nothing registered: no cpuidle
# driver, no debugfs directory, no module left loaded.
. /sip/tests/guest/platform-lib.sh

# refuse <what> <dmesg pattern> <insmod arguments...>
refuse() {
	what=$1 pat=$2; shift 2
	n=$(dmesg | wc -l)
	out=$(insmod $EMU_KO "$@" 2>&1)
	rc=$?
	msg=$(dmesg | tail -n +$((n + 1)) | grep 'emu_idle:' | tail -n 1)
	diag "insmod $*: rc $rc: $out"
	diag "  dmesg: $msg"
	if [ $rc = 0 ]; then
		rmmod emu_idle
		fail "$what: insmod succeeded"
	elif ! echo "$out" | grep -qi 'invalid'; then
		fail "$what: insmod error is not EINVAL: $out"
	elif ! echo "$msg" | grep -q -- "$pat"; then
		fail "$what: dmesg does not say \"$pat\""
	elif [ "$(cur_driver)" != none ] || [ -e $EMU_DEBUGFS ] ||
	     grep -q '^emu_idle ' /proc/modules; then
		fail "$what: something stayed registered"
	else
		pass "$what: EINVAL, \"$pat\", nothing registered"
	fi
}

plan 22
check "no cpuidle driver before the tests" [ "$(cur_driver)" = none ]
refuse "unknown profile" 'unknown profile "nehalem"' profile=nehalem
refuse "empty profile" 'unknown profile ""' profile=
refuse "custom profile without states" 'profile=custom needs states=' profile=custom
refuse "states with a named profile" 'states= needs profile=custom' profile=x86-client states=C1:1:1:1
refuse "empty state list" 'empty list' states=
refuse "missing field" 'power_mw missing' states=C1:2:2
refuse "extra field" 'more than 4 fields' states=C1:2:2:400:7
refuse "non-numeric latency" 'exit_us missing or not a decimal' states=C1:2us:2:400
refuse "negative power" 'power_mw missing or not a decimal' states=C1:2:2:-4
refuse "11 states" 'more than 10 states' \
	states=A:1:1:10,B:2:2:9,C:3:3:8,D:4:4:7,E:5:5:6,F:6:6:5,G:7:7:4,H:8:8:3,I:9:9:2,J:10:10:1,K:11:11:0
refuse "16-character name" 'must have 1 to 15 characters' states=ABCDEFGHIJKLMNOP:1:1:1
refuse "empty name" 'must have 1 to 15 characters' states=:1:1:1
refuse "bad character in name" 'may only hold' 'states=C1/x:1:1:1'
refuse "exit latency not increasing" 'exit latency 5 us not above 10 us' states=A:10:10:100,B:5:20:50
refuse "residency decreasing" 'target residency 50 us below 100 us' states=A:10:100:100,B:20:50:50
refuse "power increasing with depth" 'power 100 mW above 50 mW' states=A:10:10:50,B:20:20:100
refuse "exit latency out of range" 'exit latency 100001 us above the limit' states=A:100001:100001:1
refuse "residency out of range" 'target residency 1000001 us above the limit' states=A:1:1000001:1
refuse "power out of range" 'power 100001 mW above the limit' states=A:1:1:100001
refuse "POLL not first" 'POLL must be state 0' states=A:1:1:10,POLL:2:2:5
refuse "POLL with a latency" 'POLL must be state 0' states=POLL:1:1:100

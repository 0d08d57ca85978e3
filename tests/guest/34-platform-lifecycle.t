#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sip-boot: KERNEL=base,patched PLATFORM=none SMP=2 TIMEOUT=300
#
# Life of the emulated platform: a custom table is registered as written,
# with the transition energies the model derives from it; every profile
# loads, is used by both CPUs and unloads; re-insmod works; a CPU taken
# offline stops using its states and uses them again once back online, also
# when the module was reloaded while it was offline.
. /sip/tests/guest/platform-lib.sh

# entries_of <cpu>: total idle entries of a CPU
entries_of() { cat $C/cpu$1/cpuidle/state*/usage | awk '{ t += $1 } END { print t + 0 }'; }
# table: "name latency residency power" of cpu0's states, one line each
table() {
	for d in $C/cpu0/cpuidle/state*; do
		echo "$(cat $d/name) $(cat $d/latency) $(cat $d/residency) $(cat $d/power)"
	done | tr '\n' ';'
}
# both CPUs enter idle states within 0.5 s
both_idle() {
	a0=$(entries_of 0) a1=$(entries_of 1)
	sleep 0.5
	[ "$(entries_of 0)" -gt "$a0" ] && [ "$(entries_of 1)" -gt "$a1" ]
}

plan 13
insmod $EMU_KO profile=custom states=POLL:0:0:900,H1:5:10:300,H2:50:200:20
t=$(table)
diag "custom: $t"
check "custom table registered as written" \
	[ "$(cur_driver) $t" = "emu_idle POLL 0 0 900;H1 5 10 300;H2 50 200 20;" ]
# Et(H1) = 10 us * (900 - 300) mW = 6000 nJ,
# Et(H2) = 6000 nJ + 200 us * (300 - 20) mW = 62000 nJ
et=$(grep -v '^#' $EMU_DEBUGFS/states | awk '{ printf "%s ", $6 }')
check "transition energies 0 6000 62000 nJ (got $et)" [ "$et" = "0 6000 62000 " ]
check "both CPUs enter the custom states" both_idle
rmmod emu_idle
check_sh "rmmod: no driver, no debugfs directory" '[ "$(cur_driver)" = none ] && [ ! -e $EMU_DEBUGFS ]'

for p in x86-client x86-server arm-mobile; do
	case $p in
	x86-client) want="POLL 0 0 1000;C1 2 2 400;C1E 10 20 250;C3 70 100 100;C6 85 200 30;C7s 124 800 20;C8 200 800 10;C9 480 5000 5;C10 890 5000 2;" ;;
	x86-server) want="POLL 0 0 1000;C1 2 2 400;C1E 10 20 250;C6 133 600 30;" ;;
	arm-mobile) want="WFI 1 1 60;cpu-sleep 370 900 10;cluster-sleep 900 2000 2;" ;;
	esac
	insmod $EMU_KO profile=$p
	r=no
	[ "$(cur_driver)" = emu_idle ] && [ "$(table)" = "$want" ] && both_idle && rmmod emu_idle &&
		[ "$(cur_driver)" = none ] && r=yes
	check "profile $p: table as cited, used by both CPUs, unloads" [ $r = yes ]
done

insmod $EMU_KO profile=x86-client
check "re-insmod after rmmod" [ "$(cur_driver)" = emu_idle ]
echo 0 > $C/cpu1/online
e1=$(entries_of 1)
sleep 0.5
check_sh "cpu1 offline: its usage stays at $e1" '[ "$(cat $C/cpu1/online)" = 0 ] && [ "$(entries_of 1)" = "$e1" ]'
echo 1 > $C/cpu1/online
check "cpu1 back online: both CPUs enter idle states" both_idle
echo 0 > $C/cpu1/online
rmmod emu_idle
insmod $EMU_KO profile=x86-server
echo 1 > $C/cpu1/online
r=no
[ "$(cur_driver)" = emu_idle ] && [ "$(cat $C/cpu1/online)" = 1 ] && both_idle && r=yes
check "reloaded while cpu1 was offline: cpu1 uses the new states once online" [ $r = yes ]
n1=$(grep -c '^1 ' $EMU_DEBUGFS/energy)
g1=$(grep '^1 ' $EMU_DEBUGFS/energy | awk '{ t += $4 } END { print t + 0 }')
check_sh "debugfs energy has cpu1's 4 states, $g1 entries" '[ "$n1" = 4 ] && [ "$g1" -gt 0 ]'
rmmod emu_idle
check "rmmod: no driver left" [ "$(cur_driver)" = none ]

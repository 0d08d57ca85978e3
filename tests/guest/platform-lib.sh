# SPDX-License-Identifier: GPL-2.0
#
# Shell helpers of the emulated idle platform's guest tests (sourced),
# with TAP (tests/lib/tap.sh).
. /sip/tests/lib/tap.sh

C=/sys/devices/system/cpu
EMU_DEBUGFS=/sys/kernel/debug/emu_idle
EMU_KO=/lib/modules/emu_idle.ko

# Number of idle states of cpu0.
nstates() { ls -d $C/cpu0/cpuidle/state* 2>/dev/null | wc -l; }

# usage_of <cpu>: the usage counter of every state, space separated.
usage_of() {
	for i in $(seq 0 $(($(nstates) - 1))); do
		printf '%s ' "$(cat $C/cpu$1/cpuidle/state$i/usage)"
	done
	echo
}

# only_state <index>: disable every state but <index> on every CPU;
# only_state all: enable every state again.
only_state() {
	for c in $C/cpu[0-9]*; do
		for d in $c/cpuidle/state*; do
			i=${d##*state}
			if [ "$1" = all ] || [ "$i" = "$1" ]; then
				echo 0 > $d/disable
			else
				echo 1 > $d/disable
			fi
		done
	done
}

# field <key> <line>: the value of key=value in a line of platform-wakelat
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# current cpuidle driver
cur_driver() { cat $C/cpuidle/current_driver; }

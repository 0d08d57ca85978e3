# SPDX-License-Identifier: GPL-2.0
#
# Shell helpers of the emulated idle platform's guest tests (sourced).

C=/sys/devices/system/cpu
EMU_DEBUGFS=/sys/kernel/debug/emu_idle
EMU_KO=/lib/modules/emu_idle.ko

tap_n=0
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $*"; }
# check <description> <command...>: one TAP line from a command's status
check() {
	d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
diag() { echo "# $*"; }

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

# check_sh <description> <shell condition>: like check, for a compound
# condition (evaluated with eval)
check_sh() {
	if eval "$2"; then ok "$1"; else not_ok "$1"; fi
}

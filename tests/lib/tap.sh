# SPDX-License-Identifier: GPL-2.0
#
# TAP for every test of the project, on the host (bash) and in the guest
# (busybox sh): sourced, POSIX sh only. The test lines are numbered here,
# in the order they are printed, so a test file runs the same under
# tests/run.sh, under prove (`prove tests/host/sipwl.t`) and by hand.
# In the guest it is /sip/tests/lib/tap.sh.
#
#	plan N                   the plan, "1..N" (print it first)
#	ok STATUS DESC [DIAG..]  ok when STATUS is 0 (e.g. `cmd; ok $? "it works"`)
#	pass DESC                ok
#	fail DESC [DIAG...]      not ok, then each DIAG as a "# " line
#	check DESC CMD [ARG...]  ok when CMD ARG... exits 0
#	check_sh DESC CONDITION  ok when the shell CONDITION (eval'd) holds
#	is DESC EXPECTED GOT     ok when the two strings are equal; on a
#	                         failure both are printed
#	skip DESC REASON         ok with a SKIP directive
#	skip_n COUNT DESC REASON COUNT skipped lines (a check that cannot run)
#	skip_all REASON          the empty plan with a SKIP directive, and exit 0
#	diag TEXT...             a "# " line
#	diag_lines               its input as "# " lines (cmd | diag_lines)
#	ok_verdicts FILE         one test line per "STATUS<TAB>DESC" line of
#	                         FILE (as ok), "#..." lines passed through (a
#	                         test's awk writes its verdicts there)
#	bail TEXT                "Bail out!" and exit 1
#
# tap_n is the number of the last line printed, tap_failed the number of
# not ok lines so far.

tap_n=0
tap_failed=0

plan() { echo "1..$1"; }

diag() { echo "# $*"; }

diag_lines() { sed 's/^/# /'; }

ok_verdicts() {
	tap_tab=$(printf '\t')
	while IFS=$tap_tab read -r tap_st tap_desc; do
		case "$tap_st" in
		'#'*) echo "$tap_st" ;;
		*) ok "$tap_st" "$tap_desc" ;;
		esac
	done < "$1"
}

pass() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

fail() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	shift
	for tap_l in "$@"; do
		echo "# $tap_l"
	done
}

ok() {
	tap_s=$1
	shift
	if [ "$tap_s" = 0 ]; then pass "$1"; else fail "$@"; fi
}

check() {
	tap_d=$1
	shift
	if "$@"; then pass "$tap_d"; else fail "$tap_d"; fi
}

check_sh() {
	eval "$2"
	ok $? "$1"
}

is() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "expected '$2', got '$3'"
	fi
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

skip_n() {
	tap_i=0
	while [ "$tap_i" -lt "$1" ]; do
		skip "$2" "$3"
		tap_i=$((tap_i + 1))
	done
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

bail() {
	echo "Bail out! $*"
	exit 1
}

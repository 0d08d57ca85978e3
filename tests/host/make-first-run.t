#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every documented target works first time on a machine with nothing
# installed and an empty SIP_CACHE: checked from make's own view of the
# Makefiles, not from what this machine happens to have.
# - Every target `make help` lists that compiles or boots has `deps` among
#   its prerequisites (directly or through theirs; make -p's database).
# - With an empty SIP_CACHE, `make -n <target>` runs ./qemu/deps.sh before
#   anything else (recursive makes included), and the targets that run
#   the analyser build it before they use it.
# - Nothing is computed when make reads the Makefiles: no $(shell) but an
#   allowlist (no tool a package installs), pkg-config only inside recipes, and reading them (make -p)
#   or dry-running any target calls neither pkg-config nor a compiler nor
#   the package tools (a PATH shim logs every call).
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# An empty cache; make -n creates nothing in it.
export SIP_CACHE=$tmp/cache
# Parse-time $(shell) commands that compute no build flag: the CPU count,
# the start time, and the checkout's own defaults (qemu/defaults.sh) and
# bench table read with the base system's sh and awk.
shell_ok='nproc|date \+%s|\. \./qemu/defaults\.sh .*|awk .*\$\(BENCH_TABLE\)'
# Targets that neither compile nor boot on this machine (fresh-root-test
# builds in a root of its own, where it runs make).
no_build='help deps clean distclean fresh-root-test'

# The shim: the tools a parse-time flag or an early compile would call.
mkdir "$tmp/bin"
for p in pkg-config cc gcc g++ c++ gcc-12 clang ld apt-get apt dpkg-query \
	qemu-system-x86_64; do
	printf '#!/bin/sh\necho "%s $*" >> "%s"\nexit 1\n' "$p" "$tmp/calls" > "$tmp/bin/$p"
	chmod +x "$tmp/bin/$p"
done
mk() { PATH=$tmp/bin:$PATH make --no-print-directory "$@"; }

# The documented targets: the first word of each `make help` entry
# ("emu-idle-check, emu-disk-check" names two).
targets=$(make --no-print-directory help | sed -n 's/^  \([a-z][-a-z0-9]*\(, [a-z][-a-z0-9]*\)*\) .*/\1/p' |
	tr -d ',')
build=
for x in $targets; do
	case " $no_build " in *" $x "*) ;; *) build+="$x " ;; esac
done
n=$(echo $build | wc -w)
# Targets that run the analyser: make -n must build it before using it.
uses_report='run report bench'
echo "1..$((n * 2 + 7 + $(echo $uses_report | wc -w)))"
# A help text this test cannot read would leave it nothing to check.
r=0
for x in run test kernel boot; do
	case " $build" in *" $x "*) ;; *) r=1 ;; esac
done
ok $r "make help read: $n targets that compile or boot, run test kernel boot among them"

# Reading the Makefiles with pkg-config and the compilers failing.
: > "$tmp/calls"
mk -p -n help > "$tmp/db" 2> "$tmp/db.err"
ok $? "make -p -n help reads the Makefiles with pkg-config and cc failing"
ok "$([ -s "$tmp/calls" ] && echo 1 || echo 0)" \
	"reading the Makefiles calls no pkg-config, compiler or package tool$(sed 's/^/: /' "$tmp/calls" | tr '\n' ' ')"
ok "$([ -s "$tmp/db.err" ] && echo 1 || echo 0)" \
	"reading the Makefiles prints no error$(head -1 "$tmp/db.err" | sed 's/^/: /')"

# The same from the text: a flag computed at parse time would be empty on
# a machine that installs its libraries in `deps`.
bad=$(grep -nE '\$\(shell' Makefile mk/*.mk | grep -vE "\\\$\\(shell ($shell_ok)\\)")
ok "$([ -n "$bad" ] && echo 1 || echo 0)" "no \$(shell) at parse time but $shell_ok${bad:+: $bad}"
bad=$(grep -nE 'pkg-config|`' Makefile mk/*.mk | grep -vE '^[^:]*:[0-9]+:[[:space:]]*#' |
	grep -vE '\$\$\(pkg-config ')
ok "$([ -n "$bad" ] && echo 1 || echo 0)" "pkg-config only in recipes, as \$\$(pkg-config ...)${bad:+: $bad}"

# make's rule database: "target: prerequisites | order-only".
declare -A pre
while IFS= read -r line; do
	t_=${line%%:*}
	pre[$t_]+=" $(echo "${line#*:}" | tr -d '|')"
done < <(awk '/^# Files/ { f = 1 } /^# Finished Make data base/ { f = 0 }
	f && /^[^#\t%. ][^=]*:([ \t]|$)/ && !/:=/' "$tmp/db")
ok "$([ -n "${pre[deps]+x}" ] && [ -n "${pre[run]+x}" ] && echo 0 || echo 1)" \
	"make -p's database parsed (rules for deps and run found)"

# reaches <target>: does the closure of its prerequisites hold deps?
reaches() {
	local -A seen
	local todo=("$1") x
	while [ ${#todo[@]} -gt 0 ]; do
		x=${todo[0]}
		todo=("${todo[@]:1}")
		[ -n "${seen[$x]+x}" ] && continue
		seen[$x]=1
		[ "$x" = deps ] && return 0
		todo+=(${pre[$x]})
	done
	return 1
}

for x in $build; do
	if [ -z "${pre[$x]+x}" ]; then
		ok 1 "$x: make knows the target"
	else
		reaches "$x"
		ok $? "$x: deps among its prerequisites"
	fi
	# The dry run: deps.sh first, before any compile, boot or script.
	: > "$tmp/calls"
	mk -n "$x" > "$tmp/n.$x" 2>&1
	first=$(grep -vE '^make(\[[0-9]+\])?: ' "$tmp/n.$x" | grep -m1 .)
	called=$(tr '\n' ' ' < "$tmp/calls")
	[ "$first" = ./qemu/deps.sh ] && [ -z "$called" ]
	ok $? "$x: make -n with an empty SIP_CACHE runs ./qemu/deps.sh first${first:+ (first: ${first:0:60})}${called:+; called: $called}"
done

# The analyser is a file target: a fragment that names $(REPORT) before it
# is defined gets an empty prerequisite, and bench.sh then finds no
# analyser on an empty cache. Its build line must come before any other
# line that names it.
r=$SIP_CACHE/tools/sip-idle-report
for x in $uses_report; do
	built=$(grep -nF -- "-o $r " "$tmp/n.$x" | head -1 | cut -d: -f1)
	used=$(grep -nF -- "$r" "$tmp/n.$x" | grep -vF -- "-o $r" | head -1 | cut -d: -f1)
	[ -n "$built" ] && [ -n "$used" ] && [ "$built" -lt "$used" ]
	ok $? "$x: make -n builds sip-idle-report (line ${built:-none}) before using it (line ${used:-none})"
done

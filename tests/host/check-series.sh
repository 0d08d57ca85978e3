#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check the patch series the way a maintainer would before applying it,
# one patch at a time, on a scratch git worktree of the installed
# $SIP_LINUX tree (qemu/defaults.sh; tag "base" of <cache>/base/src):
#
#   1. the patch applies with git am on top of the previous ones;
#   2. scripts/checkpatch.pl --strict finds 0 errors and 0 warnings
#      (checks are listed, not counted against it), with FILE_PATH_CHANGES
#      replaced by a get_maintainer.pl check of every added file;
#   3. the directories holding the files it touches build with W=1 and
#      without any warning that the same directories did not have before
#      the patch (warnings compared without line numbers), in the
#      project's configuration;
#   4. the whole kernel, vmlinux and modules (so modpost runs), builds in
#      every configuration of the table below, as a distribution would
#      build it.
#
# Prints TAP, one test per patch per check and per configuration; an empty
# series is one skipped test. The builds of step 4 run after every patch,
# or with -q after the last patch only and for fewer rows (make test: the
# table costs a full build per configuration and per patch, see `make help`).
#
# usage: check-series.sh [-q] [-B] [-c <name>[,<name>]...] [-d <series-dir>]
#                        [-f <config-fragment>]...
#   -q  quick: the configurations are built after the last patch only, and
#       only those of quick_configs unless -c names others
#   -B  full mode: build every configuration again, also those that passed
#       before with the same inputs (see "Builds that passed before")
#   -c  only these configurations of the table (default: all)
#   -d  directory with the "series" file and the patches (default: series)
#   -f  configuration fragment; default qemu/config/common.config plus
#       qemu/config/patched.config when it exists
# Environment: SIP_CACHE (default in qemu/defaults.sh), JOBS
# (default 2). Work tree and W=1 objects: <cache>/check-series/{src,obj};
# each configuration builds in <cache>/check-series/obj-<name>.
set -u

# The build configurations: a name, then the option lines merged after the
# project's fragments (a later line overrides an earlier one, and
# build-kernel.sh checks the last request of every option in the final
# .config; "=n" is "is not set"). An option turned off takes with it what
# the project's fragments turn on that depends on it, and what selects it:
# without CPU_IDLE, ACPI_PROCESSOR (its ACPI_PROCESSOR_IDLE selects
# CPU_IDLE), X86_INTEL_PSTATE (selects ACPI_PROCESSOR) and SCHED_MC_PRIO
# (selects X86_INTEL_PSTATE) go. The table is here, in the one script that
# builds it, and not in qemu/config/: no kernel of the test bed boots these
# configurations, and the preempt row depends on what the tree allows
# (below). Each row is written to <cache>/check-series/config/<name>.config
# and given to build-kernel.sh as the last fragment.
configs=(
	"project"
	"haltpoll-m CONFIG_HALTPOLL_CPUIDLE=m"
	"no-io-latency CONFIG_SCHED_IO_LATENCY=n CONFIG_SCHED_IO_LATENCY_KUNIT_TEST=n \
		CONFIG_SCHED_SLEEP_PREDICT=n CONFIG_SCHED_SLEEP_PREDICT_KUNIT_TEST=n"
	"no-cpuidle CONFIG_CPU_IDLE=n CONFIG_HALTPOLL_CPUIDLE=n CONFIG_CPUIDLE_KUNIT_TEST=n \
		CONFIG_ACPI_PROCESSOR=n CONFIG_X86_INTEL_PSTATE=n CONFIG_SCHED_MC_PRIO=n"
	"preempt CONFIG_PREEMPT=y CONFIG_DEBUG_KERNEL=y CONFIG_PROVE_LOCKING=y \
		CONFIG_PROVE_RAW_LOCK_NESTING=y"
	"i386 ARCH=i386 CONFIG_64BIT=n CONFIG_NO_HZ_FULL=n CONFIG_NO_HZ_IDLE=y \
		CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y"
)
# A word ARCH=<arch> of a row is not an option: the row is built for that
# architecture (build-kernel.sh -a), build-kernel.sh's default otherwise.
# The i386 row is Debian's 686 flavour in miniature: 32-bit, where a u64
# is two words (64-bit cmpxchg, divisions that need div_u64(),
# NSEC_PER_SEC products that overflow a long) and where NO_HZ_FULL does
# not exist (it needs the context tracking that x86 has on 64-bit only).
# It is built with -O2, as Debian builds it: tinyconfig's -Os rules out
# the function graph tracer on 32-bit x86.
# Quick mode (-q, make test) builds only these rows when -c names none:
# "project" is the patched kernel that make test builds and boots anyway,
# and "preempt" and "i386" change the preprocessed output of nearly every
# file (PREEMPT_RT and lockdep; 32-bit), each a cold build of its own that
# would take make test past its time; make check-series builds every row
# after every patch.
quick_configs="haltpoll-m,no-io-latency,no-cpuidle"
# PREEMPT_RT replaces CONFIG_PREEMPT=y in the preempt row when the tree
# lets olddefconfig keep it. 6.12 does on x86_64: PREEMPT_RT depends on
# EXPERT && ARCH_SUPPORTS_RT (kernel/Kconfig.preempt), EXPERT on nothing,
# and config X86 selects ARCH_SUPPORTS_RT unconditionally
# (arch/x86/Kconfig; 6.1's did not). On 6.12.118, tinyconfig plus the
# project's fragments plus the row keeps every option it sets through
# olddefconfig. With PREEMPT_RT, or PREEMPT on a tree that cannot build
# it, PROVE_RAW_LOCK_NESTING makes lockdep report a spinlock_t taken
# under a raw_spinlock_t, the nesting that breaks on PREEMPT_RT.
preempt_rt="CONFIG_EXPERT=y CONFIG_PREEMPT_RT=y"

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
series_dir=$top/series
frags=()
quick=
only=
rebuild=
while getopts "qBc:d:f:" opt; do
	case $opt in
	q) quick=1 ;;
	B) rebuild=1 ;;
	c) only=$OPTARG ;;
	d) series_dir=$(cd "$OPTARG" && pwd) || exit 2 ;;
	f) frags+=("$(realpath "$OPTARG")") ;;
	*) echo "usage: $0 [-q] [-B] [-c name,...] [-d series-dir] [-f fragment]..." >&2; exit 2 ;;
	esac
done
if [ ${#frags[@]} = 0 ]; then
	frags=("$top/qemu/config/common.config")
	[ -f "$top/qemu/config/patched.config" ] && frags+=("$top/qemu/config/patched.config")
fi
for f in "${frags[@]}"; do
	[ -f "$f" ] || { echo "check-series: no such fragment: $f" >&2; exit 2; }
done

# The configurations to build, their names and their option lines.
[ -n "$quick" ] && [ -z "$only" ] && only=$quick_configs
names=()
declare -A lines arch
for row in "${configs[@]}"; do
	read -r -a w <<< "$row"
	c=${w[0]}
	[ -z "$only" ] || [[ ",$only," == *",$c,"* ]] || continue
	names+=("$c")
	arch[$c]= lines[$c]=
	for l in "${w[@]:1}"; do
		case "$l" in
		ARCH=*) arch[$c]=${l#ARCH=} ;;
		*) lines[$c]+="${lines[$c]:+ }$l" ;;
		esac
	done
done
for c in ${only//,/ }; do
	[ -n "${lines[$c]+set}" ] || { echo "check-series: no configuration $c in the table" >&2; exit 2; }
done

. "$top/qemu/defaults.sh"
cache=$SIP_CACHE
base=$cache/base/src
work=$cache/check-series
wt=$work/src
obj=$work/obj
jobs=${JOBS:-2}

mapfile -t patches < <(grep -v -e '^#' -e '^[[:space:]]*$' "$series_dir/series" 2>/dev/null | awk '{print $1}')
if [ ${#patches[@]} = 0 ]; then
	plan 1
	skip "${series_dir#$top/}/series lists no patches" "empty series"
	exit 0
fi
for p in "${patches[@]}"; do
	[ -f "$series_dir/$p" ] || { echo "check-series: series names $p, which does not exist in $series_dir" >&2; exit 2; }
done

# checkpatch's SPDX check needs the Debian python3 (python3-ply, python3-git).
export PATH=/usr/bin:$PATH
# Every object directory is <cache>/<tree>/<obj>, beside <cache>/<tree>/src,
# so the paths ccache sees relative to CCACHE_BASEDIR (../src) are those of
# the kernels of make kernel: unchanged objects are shared.
export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache} CCACHE_BASEDIR=$cache CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
export KBUILD_BUILD_TIMESTAMP="2014-10-22" KBUILD_BUILD_USER=sip KBUILD_BUILD_HOST=sip
mk=(nice -n 5 make -s -C "$wt" O="$obj" ARCH=x86_64 CC="ccache gcc" -j"$jobs")

if [ ! -d "$base/.git" ] || ! git -C "$base" rev-parse -q --verify base >/dev/null; then
	"$top/qemu/kernel-tree.sh" "$cache" "$top/series" >&2 || { echo "check-series: cannot prepare $base" >&2; exit 2; }
fi

mkdir -p "$work"
exec 9>"$work/.lock"
flock 9
start=$SECONDS

# The scratch tree: base, clean, detached.
if [ ! -e "$wt/.git" ]; then
	git -C "$base" worktree prune
	git -C "$base" worktree add -q -f --detach "$wt" base || exit 2
fi
git -C "$wt" am --abort >/dev/null 2>&1
git -C "$wt" checkout -q -f --detach base && git -C "$wt" clean -q -ffdx || exit 2
git -C "$wt" config user.name sched-idle-predict
git -C "$wt" config user.email sched-idle-predict@localhost

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

configure() {
	mkdir -p "$obj"
	rm -f "$obj/.sip-frags"
	"${mk[@]}" tinyconfig >"$tmp/config.log" 2>&1 &&
	cat "${frags[@]}" >> "$obj/.config" &&
	"${mk[@]}" olddefconfig >>"$tmp/config.log" 2>&1
}

# The build directories of a patch: those of the files it touches that
# have a kbuild Makefile; headers, documentation and tools are not built
# on their own.
patch_dirs() {	# <patch>
	sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$1" |
	while read -r f; do
		case "$f" in
		include/*|*/include/*|Documentation/*|tools/*|scripts/*|usr/*|samples/*) continue ;;
		*/*) dirname "$f" ;;
		esac
	done | sort -u
}

# W=1 warnings of a set of directories at the current state of the tree,
# without line numbers, one per line, sorted. Their objects are removed
# first so that every warning is printed again (ccache replays them on a
# hit); one make for all of them. Directories without a kbuild Makefile at
# this state (created or removed by the patch) are left out.
warnings() {	# <out> <dir>...
	local out=$1 d built=()
	shift
	: > "$out"
	for d in "$@"; do
		[ -f "$wt/$d/Makefile" ] || [ -f "$wt/$d/Kbuild" ] || continue
		[ -d "$obj/$d" ] && find "$obj/$d" -name '*.o' -delete
		built+=("$d/")
	done
	[ ${#built[@]} = 0 ] && return 0
	"${mk[@]}" W=1 "${built[@]}" > "$tmp/w1.log" 2>&1 || { cp "$tmp/w1.log" "$out.failed"; return 1; }
	grep -E ': warning: ' "$tmp/w1.log" |
		sed -E -e "s#^(\.\./src/|$wt/)##" -e 's#^([^:]+):[0-9]+:([0-9]+:)? #\1: #' |
		LC_ALL=C sort > "$out"
}

# Whether a Kconfig file of the scratch tree defines the option.
defined() {	# <CONFIG_FOO>
	git -C "$wt" grep -qE "^[[:space:]]*(menu)?config[[:space:]]+${1#CONFIG_}[[:space:]]*$" -- '*Kconfig*'
}

# The lines of a failed build that say why: compiler and linker errors,
# modpost's, build-kernel.sh's own; its last lines when none matched.
build_errors() {	# <log>
	grep -E ': (fatal )?error: |^ERROR: |: undefined reference to |: multiple definition of |^build-kernel: ' "$1" |
		head -20 | grep . || tail -10 "$1"
}

# Builds that passed before. Full mode costs one whole build per patch and
# configuration, 84 for 14 patches and 6 rows: hours on two cores, since
# each patch that changes a header sched.h includes rebuilds nearly
# everything in every row (design/series.md has the times). A build is a
# function of its inputs: the source tree (git's tree id after the
# patch), the architecture, the fragments and the row, build-kernel.sh,
# the compiler and linker (toolchain, read once). Full mode records
# each build that passed under the hash of those inputs in <work>/passed/,
# and a later full run that meets the same inputs reports the earlier
# pass (its date and time, marked "passed before") instead of building
# again, so that a run interrupted at any point goes on where it stopped.
# A failure is never recorded; any change to a patch, a fragment, the
# table, build-kernel.sh or the compiler makes new keys. Quick mode (make
# test) and -B always build.
toolchain=$(gcc --version | head -1; ld --version | head -1)
build_key() {	# <configuration> <last: 0|1>
	{
		git -C "$wt" rev-parse 'HEAD^{tree}'
		echo "arch ${arch[$1]:-default} last $2"
		cat "${frags[@]}" "$work/config/$1.config" "$top/qemu/build-kernel.sh"
		echo "$toolchain"
	} | sha256sum | cut -c1-32
}

# One configuration at the current state of the tree: one TAP test. In the
# middle of the series an option of the project's fragments may not exist
# yet (a later patch adds it): build-kernel.sh -u names it and goes on;
# after the last patch every option must exist, the table's included.
build() {	# <patch> <configuration> <last: 0|1>
	local p=$1 c=$2 last=$3 o=$work/obj-$2 t0=$SECONDS u=-u l undef=
	if [ "$last" = 1 ]; then
		u=
		for l in ${lines[$c]}; do
			defined "${l%%=*}" || undef+=" ${l%%=*}"
		done
	fi
	if [ -z "$quick" ] && [ -z "$rebuild" ]; then
		key=$(build_key "$c" "$last")
		rec=$work/passed/$key
	else
		rec=
	fi
	if [ -n "$undef" ]; then
		echo "no Kconfig of the tree defines$undef (named by the table of $0)" | diag_lines
		fail "$p: build $c: configuration"
	elif [ -n "$rec" ] && [ -f "$rec" ]; then
		sed -n 's/^unchecked //p' "$rec" >> "$tmp/unchecked"
		reused=$((reused + 1))
		pass "$p: build $c: $(sed -n 's/^release //p' "$rec") (passed before: $(sed -n 's/^passed //p' "$rec"), tree $(git -C "$wt" rev-parse --short 'HEAD^{tree}'))"
	elif JOBS=$jobs nice -n 5 "$top/qemu/build-kernel.sh" $u ${arch[$c]:+-a "${arch[$c]}"} \
		"$wt" "$o" "${frags[@]}" "$work/config/$c.config" > "$tmp/build.log" 2>&1; then
		grep '^build-kernel: .* not checked: ' "$tmp/build.log" | sed "s#^build-kernel: $top/##" > "$tmp/unchecked.1"
		cat "$tmp/unchecked.1" >> "$tmp/unchecked"
		if [ -n "$rec" ]; then
			mkdir -p "$work/passed"
			{
				echo "release $(cat "$o/kernelrelease")"
				echo "passed $(date -u +%Y-%m-%dT%H:%MZ) in $((SECONDS - t0)) s"
				sed 's/^/unchecked /' "$tmp/unchecked.1"
			} > "$rec.new" && mv "$rec.new" "$rec"
		fi
		pass "$p: build $c: $(cat "$o/kernelrelease") ($((SECONDS - t0)) s)"
	else
		build_errors "$tmp/build.log" | sed "s#^build-kernel: $top/##" | diag_lines
		fail "$p: build $c ($((SECONDS - t0)) s)"
	fi
}

n=${#patches[@]}
nc=${#names[@]}
if [ -n "$quick" ]; then
	plan $((3 * n + nc))
else
	plan $(((3 + nc) * n))
fi

# The configurations are built after this step (1 = the first patch).
builds_at() {	# <step>
	[ -z "$quick" ] || [ "$1" = "$n" ]
}
no_builds() {	# <step> <patch> <why>
	local c
	builds_at "$1" || return 0
	for c in "${names[@]}"; do fail "$2: build $c ($3)"; done
}

if ! configure; then
	tail -20 "$tmp/config.log" | diag_lines
	step=0
	for p in "${patches[@]}"; do
		step=$((step + 1))
		for c in "applies" "checkpatch" "W=1"; do fail "$p: $c (configuration failed)"; done
		no_builds $step "$p" "configuration failed"
	done
	exit 1
fi

# PREEMPT_RT instead of PREEMPT when olddefconfig keeps it (see the table).
if [ -n "${lines[preempt]+set}" ]; then
	o=$work/obj-preempt
	mkdir -p "$o"
	rm -f "$o/.sip-frags"
	probe=(nice -n 5 make -s -C "$wt" O="$o" ARCH=x86_64)
	if "${probe[@]}" tinyconfig >/dev/null 2>&1 &&
	   { cat "${frags[@]}"; for l in $preempt_rt; do echo "$l"; done; } >> "$o/.config" &&
	   "${probe[@]}" olddefconfig >/dev/null 2>&1 &&
	   grep -qx 'CONFIG_PREEMPT_RT=y' "$o/.config"; then
		lines[preempt]="$preempt_rt ${lines[preempt]/CONFIG_PREEMPT=y/}"
		echo "# preempt: PREEMPT_RT, which this tree allows"
	else
		why="olddefconfig drops it"
		git -C "$wt" grep -q 'select ARCH_SUPPORTS_RT' -- 'arch/x86/*' ||
			why="it depends on ARCH_SUPPORTS_RT (kernel/Kconfig.preempt), which arch/x86 does not select"
		echo "# preempt: PREEMPT_RT is not built: $why; PREEMPT with PROVE_RAW_LOCK_NESTING instead (lockdep checks the raw_spinlock_t/spinlock_t nesting of PREEMPT_RT)"
	fi
fi
mkdir -p "$work/config"
for c in "${names[@]}"; do
	{
		echo "# check-series.sh: configuration $c, merged after the project's fragments"
		for l in ${lines[$c]}; do echo "$l"; done
	} > "$work/config/$c.config"
done
for c in "${names[@]}"; do
	echo "# configuration $c: the project's + ${lines[$c]:-nothing}${arch[$c]:+ (ARCH=${arch[$c]})}"
done

broken=
step=0
reused=0
reconfigure=1
for p in "${patches[@]}"; do
	prev=$step; step=$((step + 1))
	if [ -n "$broken" ]; then
		for c in "applies" "checkpatch" "W=1"; do fail "$p: $c (not checked: $broken did not apply)"; done
		no_builds $step "$p" "not built: $broken did not apply"
		continue
	fi
	mapfile -t dirs < <(patch_dirs "$series_dir/$p")

	# Warnings before the patch, unless the previous step built the same.
	before=$tmp/warn.$prev failed_before=
	if [ ${#dirs[@]} != 0 ] && [ "$(cat "$before.dirs" 2>/dev/null)" != "${dirs[*]}" ]; then
		warnings "$before" "${dirs[@]}" || failed_before=1
	fi

	if git -C "$wt" am -q --keep-cr "$series_dir/$p" > "$tmp/am.log" 2>&1; then
		pass "$p: applies"
	else
		diag_lines < "$tmp/am.log"
		git -C "$wt" am --abort >/dev/null 2>&1
		fail "$p: applies"
		fail "$p: checkpatch (not checked: does not apply)"
		fail "$p: W=1 (not checked: does not apply)"
		no_builds $step "$p" "not built: does not apply"
		broken=$p
		continue
	fi

	# FILE_PATH_CHANGES asks whether MAINTAINERS needs updating for every
	# added file, even one an existing F: pattern covers, and a redundant
	# F: line is what reviewers then object to. It is replaced by the real
	# question: get_maintainer.pl must name a maintainer (M:, not only a
	# list) for each file the patch adds, with MAINTAINERS as it is after
	# the patch; each file without one counts as a warning.
	# UNKNOWN_COMMIT_ID: the tree is a release tarball in a git repository
	# of one commit, so no upstream commit a message cites can be found in
	# it; the citation's form (12 digits, the quoted subject) is still
	# checked (GIT_COMMIT_ID).
	(cd "$wt" && perl scripts/checkpatch.pl --strict --no-color --show-types \
		--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$series_dir/$p") > "$tmp/cp.log" 2>&1
	orphans=0
	for f in $(awk '/^diff --git /{ f = $3; sub(/^a\//, "", f) } /^new file mode/{ print f }' "$series_dir/$p"); do
		if ! (cd "$wt" && perl scripts/get_maintainer.pl --nogit --nogit-fallback \
			--norolestats --nol -f "$f" 2>/dev/null) | grep -q .; then
			echo "WARNING:NO_MAINTAINER: no MAINTAINERS entry names a maintainer of $f" >> "$tmp/cp.log"
			orphans=$((orphans + 1))
		fi
	done
	total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings' "$tmp/cp.log" | tail -1)
	errs=$(echo "$total" | sed -nE 's/^total: ([0-9]+) errors.*/\1/p')
	warns=$(echo "$total" | sed -nE 's/^total: [0-9]+ errors, ([0-9]+) warnings.*/\1/p')
	[ -n "$warns" ] && warns=$((warns + orphans))
	checks=$(echo "$total" | sed -nE 's/.* ([0-9]+) checks.*/\1/p')
	if [ "$errs" = 0 ] && [ "$warns" = 0 ]; then
		[ "${checks:-0}" != 0 ] && grep -E '^CHECK:' "$tmp/cp.log" | diag_lines
		pass "$p: checkpatch --strict: 0 errors, 0 warnings, ${checks:-0} checks"
	else
		grep -E '^(ERROR|WARNING)' -A 3 "$tmp/cp.log" | diag_lines
		[ -n "$total" ] || tail -5 "$tmp/cp.log" | diag_lines
		fail "$p: checkpatch --strict: ${errs:-?} errors, ${warns:-?} warnings"
	fi

	kconfig=
	grep -qE '^diff --git a/([^ ]*/)?Kconfig[^ ]* ' "$series_dir/$p" && kconfig=1 reconfigure=1
	if [ -n "$kconfig" ] && ! configure; then
		tail -20 "$tmp/config.log" | diag_lines
		fail "$p: W=1 (configuration failed)"
	elif [ ${#dirs[@]} = 0 ]; then
		skip "$p: W=1" "touches no directory built on its own (headers, documentation)"
	else
		after=$tmp/warn.$step
		if [ -n "$failed_before" ]; then
			grep -E 'error|Error' "$before.failed" | head -20 | diag_lines
			fail "$p: W=1 ${dirs[*]}: build failed before the patch"
		elif ! warnings "$after" "${dirs[@]}"; then
			grep -E 'error|Error' "$after.failed" | head -20 | diag_lines
			fail "$p: W=1 ${dirs[*]}: build failed"
		else
			echo "${dirs[*]}" > "$after.dirs"
			LC_ALL=C comm -13 "$before" "$after" > "$tmp/new"
			new=$(wc -l < "$tmp/new")
			if [ "$new" != 0 ]; then
				diag_lines < "$tmp/new"
				fail "$p: W=1 ${dirs[*]}: $new new warnings"
			else
				pass "$p: W=1 ${dirs[*]}: no new warnings ($(wc -l < "$after") in these directories)"
			fi
		fi
	fi

	builds_at $step || continue
	# A Kconfig changed since the last builds (or none in this run): the
	# configurations are made again, so that an option a patch adds gets
	# the value requested, not its default.
	if [ -n "$reconfigure" ]; then
		for c in "${names[@]}"; do rm -f "$work/obj-$c/.sip-frags"; done
		reconfigure=
	fi
	: > "$tmp/unchecked"
	for c in "${names[@]}"; do
		build "$p" "$c" $([ $step = $n ] && echo 1 || echo 0)
	done
	sort -u "$tmp/unchecked" | diag_lines
done

if [ "$reused" = 0 ]; then
	echo "# check-series: $((SECONDS - start)) s"
else
	echo "# check-series: $((SECONDS - start)) s; $reused builds reported from earlier passes (-B builds them again)"
fi
[ "$tap_failed" = 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check the patch series the way a maintainer would before applying it,
# one patch at a time, on a scratch git worktree of the installed
# linux-source-6.1 tree (tag "base" of <cache>/base/src):
#
#   1. the patch applies with git am on top of the previous ones;
#   2. scripts/checkpatch.pl --strict finds 0 errors and 0 warnings
#      (checks are listed, not counted against it), with FILE_PATH_CHANGES
#      replaced by a get_maintainer.pl check of every added file;
#   3. the directories holding the files it touches build with W=1 and
#      without any warning that the same directories did not have before
#      the patch (warnings compared without line numbers);
#
# and, after the last patch, the whole kernel builds with the project's
# configuration. Prints TAP, one test per patch per check plus the final
# build; an empty series is one skipped test.
#
# usage: check-series.sh [-d <series-dir>] [-f <config-fragment>]...
#   -d  directory with the "series" file and the patches (default: series)
#   -f  configuration fragment; default qemu/config/common.config plus
#       qemu/config/patched.config when it exists
# Environment: SIP_CACHE (default ~/.cache/sched-idle-predict), JOBS
# (default 2). Work tree and objects: <cache>/check-series/{src,obj}.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
series_dir=$top/series
frags=()
while getopts "d:f:" opt; do
	case $opt in
	d) series_dir=$(cd "$OPTARG" && pwd) || exit 2 ;;
	f) frags+=("$(realpath "$OPTARG")") ;;
	*) echo "usage: $0 [-d series-dir] [-f fragment]..." >&2; exit 2 ;;
	esac
done
if [ ${#frags[@]} = 0 ]; then
	frags=("$top/qemu/config/common.config")
	[ -f "$top/qemu/config/patched.config" ] && frags+=("$top/qemu/config/patched.config")
fi
for f in "${frags[@]}"; do
	[ -f "$f" ] || { echo "check-series: no such fragment: $f" >&2; exit 2; }
done

cache=${SIP_CACHE:-$HOME/.cache/sched-idle-predict}
base=$cache/base/src
work=$cache/check-series
wt=$work/src
obj=$work/obj
jobs=${JOBS:-2}

mapfile -t patches < <(grep -v -e '^#' -e '^[[:space:]]*$' "$series_dir/series" 2>/dev/null | awk '{print $1}')
if [ ${#patches[@]} = 0 ]; then
	echo "1..1"
	echo "ok 1 - ${series_dir#$top/}/series lists no patches # SKIP empty series"
	exit 0
fi
for p in "${patches[@]}"; do
	[ -f "$series_dir/$p" ] || { echo "check-series: series names $p, which does not exist in $series_dir" >&2; exit 2; }
done

# checkpatch's SPDX check needs the Debian python3 (python3-ply, python3-git).
export PATH=/usr/bin:$PATH
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

n=${#patches[@]}
echo "1..$((3 * n + 1))"
t=0
fails=0
ok()   { t=$((t + 1)); echo "ok $t - $*"; }
nok()  { t=$((t + 1)); fails=$((fails + 1)); echo "not ok $t - $*"; }
diag() { sed 's/^/# /'; }

if ! configure; then
	tail -20 "$tmp/config.log" | diag
	for p in "${patches[@]}"; do
		for c in "applies" "checkpatch" "W=1"; do nok "$p: $c (configuration failed)"; done
	done
	nok "full kernel build (configuration failed)"
	exit 1
fi

broken=
step=0
for p in "${patches[@]}"; do
	prev=$step; step=$((step + 1))
	if [ -n "$broken" ]; then
		for c in "applies" "checkpatch" "W=1"; do nok "$p: $c (not checked: $broken did not apply)"; done
		continue
	fi
	mapfile -t dirs < <(patch_dirs "$series_dir/$p")

	# Warnings before the patch, unless the previous step built the same.
	before=$tmp/warn.$prev failed_before=
	if [ ${#dirs[@]} != 0 ] && [ "$(cat "$before.dirs" 2>/dev/null)" != "${dirs[*]}" ]; then
		warnings "$before" "${dirs[@]}" || failed_before=1
	fi

	if git -C "$wt" am -q --keep-cr "$series_dir/$p" > "$tmp/am.log" 2>&1; then
		ok "$p: applies"
	else
		diag < "$tmp/am.log"
		git -C "$wt" am --abort >/dev/null 2>&1
		nok "$p: applies"
		nok "$p: checkpatch (not checked: does not apply)"
		nok "$p: W=1 (not checked: does not apply)"
		broken=$p
		continue
	fi

	# FILE_PATH_CHANGES asks whether MAINTAINERS needs updating for every
	# added file, even one an existing F: pattern covers, and a redundant
	# F: line is what reviewers then object to. It is replaced by the real
	# question: get_maintainer.pl must name a maintainer (M:, not only a
	# list) for each file the patch adds, with MAINTAINERS as it is after
	# the patch; each file without one counts as a warning.
	(cd "$wt" && perl scripts/checkpatch.pl --strict --no-color --show-types \
		--ignore FILE_PATH_CHANGES "$series_dir/$p") > "$tmp/cp.log" 2>&1
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
		[ "${checks:-0}" != 0 ] && grep -E '^CHECK:' "$tmp/cp.log" | diag
		ok "$p: checkpatch --strict: 0 errors, 0 warnings, ${checks:-0} checks"
	else
		grep -E '^(ERROR|WARNING)' -A 3 "$tmp/cp.log" | diag
		[ -n "$total" ] || tail -5 "$tmp/cp.log" | diag
		nok "$p: checkpatch --strict: ${errs:-?} errors, ${warns:-?} warnings"
	fi

	if grep -qE '^diff --git a/([^ ]*/)?Kconfig[^ ]* ' "$series_dir/$p" && ! configure; then
		tail -20 "$tmp/config.log" | diag
		nok "$p: W=1 (configuration failed)"
		continue
	fi
	if [ ${#dirs[@]} = 0 ]; then
		ok "$p: W=1 # SKIP touches no directory built on its own (headers, documentation)"
		continue
	fi
	after=$tmp/warn.$step
	if [ -n "$failed_before" ]; then
		grep -E 'error|Error' "$before.failed" | head -20 | diag
		nok "$p: W=1 ${dirs[*]}: build failed before the patch"
	elif ! warnings "$after" "${dirs[@]}"; then
		grep -E 'error|Error' "$after.failed" | head -20 | diag
		nok "$p: W=1 ${dirs[*]}: build failed"
	else
		echo "${dirs[*]}" > "$after.dirs"
		LC_ALL=C comm -13 "$before" "$after" > "$tmp/new"
		new=$(wc -l < "$tmp/new")
		if [ "$new" != 0 ]; then
			diag < "$tmp/new"
			nok "$p: W=1 ${dirs[*]}: $new new warnings"
		else
			ok "$p: W=1 ${dirs[*]}: no new warnings ($(wc -l < "$after") in these directories)"
		fi
	fi
done

if [ -n "$broken" ]; then
	nok "full kernel build (not built: $broken did not apply)"
	exit 1
fi
rm -f "$obj/.sip-frags"
if JOBS=$jobs nice -n 5 "$top/qemu/build-kernel.sh" "$wt" "$obj" "${frags[@]}" > "$tmp/build.log" 2>&1; then
	ok "full kernel build after $n patches: $(cat "$obj/kernelrelease")"
else
	grep -E 'error|build-kernel:' "$tmp/build.log" | head -20 | diag
	nok "full kernel build after $n patches"
fi
[ "$fails" = 0 ]

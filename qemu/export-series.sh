#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel git tree and series/ are two forms of the same patches.
#
#   export-series.sh [<branch>]
#     regenerate series/ from the branch: git format-patch of base..<branch>
#     with the cover letter taken from the branch description (git branch
#     --edit-description), and the quilt series file. The patches are never
#     edited by hand; change the branch and export again.
#   export-series.sh --import [<branch>]
#     the reverse, for a new checkout: make <branch> = base + series/ (git am)
#     with the cover letter's subject and text as its description. Refuses
#     to overwrite an existing branch.
#
# <branch> defaults to "series"; the tree is <cache>/base/src (make kernel
# creates it from SIP_LINUX, qemu/defaults.sh, which the series file's
# header names).
set -eu
. "$(dirname "$0")/defaults.sh"
cache=$SIP_CACHE
top=$(cd "$(dirname "$0")/.." && pwd)
git=(git -C "$cache/base/src")
die() { echo "export-series: $*" >&2; exit 1; }

import=
[ "${1:-}" = --import ] && { import=1; shift; }
branch=${1:-series}
"${git[@]}" rev-parse -q --verify base >/dev/null ||
	die "no tag base in $cache/base/src (make kernel prepares it)"

if [ -n "$import" ]; then
	! "${git[@]}" rev-parse -q --verify "refs/heads/$branch" >/dev/null ||
		die "branch $branch exists; delete it first (git branch -D $branch)"
	wt=$(mktemp -d)
	trap '"${git[@]}" worktree remove -f "$wt" 2>/dev/null; rm -rf "$wt"' EXIT
	"${git[@]}" worktree add -q -f -b "$branch" "$wt" base
	grep -v -e '^#' -e '^[[:space:]]*$' "$top/series/series" | awk '{print $1}' |
	while read -r p; do
		git -C "$wt" am -q --keep-cr "$top/series/$p" || die "series/$p does not apply"
	done
	# Description: the subject without "[<prefix> 00/NN]", a blank line, then
	# the body up to the shortlog ("author (N):").
	awk '
		/^Subject: / { sub(/^Subject: \[[^]]*[0-9]+\/[0-9]+\] /, ""); subj = $0; insubj = 1; next }
		insubj && /^ / { sub(/^ /, ""); subj = subj " " $0; next }
		insubj { insubj = 0; print subj; print ""; body = 1; next }
		body && /^[^ ].* \([0-9]+\):$/ { exit }
		body { print }
	' "$top/series/0000-cover-letter.patch" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' > "$wt/.desc"
	"${git[@]}" config "branch.$branch.description" "$(cat "$wt/.desc")"
	echo "export-series: branch $branch = base + $(grep -vc '^#' "$top/series/series") patches from series/"
	exit 0
fi

"${git[@]}" rev-parse -q --verify "refs/heads/$branch" >/dev/null ||
	die "no branch $branch in $cache/base/src (export-series.sh --import $branch makes it from series/)"
"${git[@]}" config "branch.$branch.description" >/dev/null ||
	die "branch $branch has no description (the cover letter)"
rm -f "$top"/series/*.patch
"${git[@]}" format-patch -q --cover-letter --cover-from-description=subject \
	--subject-prefix="$SIP_SUBJECT_PREFIX" --base=base -o "$top/series" "base..$branch"
{
	echo "# sched-idle-predict: applied in order on $SIP_LINUX by make kernel (git am)"
	(cd "$top/series" && ls 0*.patch | grep -v '^0000-cover-letter')
} > "$top/series/series"
echo "export-series: $(grep -vc '^#' "$top/series/series") patches from $branch"

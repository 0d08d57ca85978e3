#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate series/ from the kernel git tree: git format-patch of
# base..<branch> with the cover letter taken from the branch description
# (git branch --edit-description), and the quilt series file. The patches
# are never edited by hand; change the branch and export again.
#
# usage: export-series.sh [<branch>]     (default: series)
set -eu
cache=${SIP_CACHE:-$HOME/.cache/sched-idle-predict}
branch=${1:-series}
git=(git -C "$cache/base/src")
"${git[@]}" rev-parse -q --verify "refs/heads/$branch" >/dev/null ||
	{ echo "export-series: no branch $branch in $cache/base/src" >&2; exit 1; }
"${git[@]}" config "branch.$branch.description" >/dev/null ||
	{ echo "export-series: branch $branch has no description (the cover letter)" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
rm -f "$top"/series/*.patch
"${git[@]}" format-patch -q --cover-letter --cover-from-description=subject \
	--base=base -o "$top/series" "base..$branch"
{
	echo "# sched-idle-predict: applied in order on linux-source-6.1 by make kernel (git am)"
	(cd "$top/series" && ls 0*.patch | grep -v '^0000-cover-letter')
} > "$top/series/series"
echo "export-series: $(grep -vc '^#' "$top/series/series") patches from $branch"

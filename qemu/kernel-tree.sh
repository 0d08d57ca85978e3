#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare the kernel sources: ONE extraction of Debian's $SIP_LINUX
# (qemu/defaults.sh)
# into a git repository, <cache>/base/src (commit tagged "base"), and a git
# worktree of it, <cache>/patched/src, holding base + series/ applied in
# order with git am. Each kernel builds into <kernel>/obj beside its src,
# so the relative path from objects to sources is the same for every tree
# and ccache shares all unchanged objects between them.
#
# usage: kernel-tree.sh <cache-dir> <series-dir> [<tree-name>]
# <tree-name> (default "patched") lets tests apply another series into
# <cache>/<tree-name>/src without touching the patched tree.
# Prints the tree version; records it in <cache-dir>/linux.version.
set -eu

. "$(dirname "$0")/defaults.sh"
cache=$1
series=$(cd "$2" && pwd)
tarball=/usr/src/$SIP_LINUX.tar.xz
src=$cache/base/src
name=${3:-patched}
wt=$cache/$name/src

die() { echo "kernel-tree: $*" >&2; exit 1; }

[ -f "$tarball" ] || die "$tarball missing (make deps installs $SIP_LINUX)"
pkgver=$(dpkg-query -W -f='${Version}' "$SIP_LINUX")
mkdir -p "$cache/base" "$cache/$name"

if [ "$(cat "$src/.sip-pkgver" 2>/dev/null)" != "$pkgver" ]; then
	echo "kernel-tree: extracting $SIP_LINUX $pkgver (once)"
	rm -rf "$src" "$src.tmp" "$wt"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" --strip-components=1 -xf "$tarball"
	(
		cd "$src.tmp"
		git init -q -b vanilla
		git config user.name "sched-idle-predict"
		git config user.email "sched-idle-predict@localhost"
		git config gc.auto 0
		git add -A -f . >/dev/null
		git commit -q -m "$SIP_LINUX $pkgver"
		git tag base
	)
	echo "$pkgver" > "$src.tmp/.sip-pkgver"
	mv "$src.tmp" "$src"
fi

kver=$(make -s -C "$src" kernelversion)
echo "$SIP_LINUX $pkgver (kernel $kver)" | tee "$cache/linux.version" "$cache/base/linux.version" "$cache/patched/linux.version"

# The patched tree is re-made only when the series changed, so an unchanged
# series costs nothing and leaves file times (and so the build) alone.
patches=$(grep -v -e '^#' -e '^[[:space:]]*$' "$series/series" 2>/dev/null | awk '{print $1}' || true)
# The sum covers the patches' names and contents, not where the checkout is:
# every clone of the same series shares one tree and its objects.
sum=$( (echo "$pkgver"; for p in $patches; do
	echo "$p $(sha1sum < "$series/$p" 2>/dev/null || echo missing)"
done) | sha1sum | cut -d' ' -f1)

if [ ! -d "$wt" ]; then
	git -C "$src" worktree prune
	git -C "$src" worktree add -q -f -B "$name" "$wt" base
fi
if [ "$(cat "$wt/.sip-series" 2>/dev/null)" != "$sum" ]; then
	cd "$wt"
	git am --abort >/dev/null 2>&1 || true
	git checkout -q -f -B "$name" base
	rm -f .sip-series
	n=0
	for p in $patches; do
		[ -f "$series/$p" ] || die "series/series names $p, which does not exist"
		if ! git am -q --keep-cr "$series/$p" >/tmp/sip-am.$$ 2>&1; then
			cat /tmp/sip-am.$$ >&2; rm -f /tmp/sip-am.$$
			git am --abort >/dev/null 2>&1 || true
			die "patch does not apply: series/$p"
		fi
		n=$((n + 1))
	done
	rm -f /tmp/sip-am.$$
	echo "$sum" > .sip-series
	echo "kernel-tree: applied $n patches from series/"
fi

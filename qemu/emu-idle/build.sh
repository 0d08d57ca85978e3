#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the emulated idle platform module for one kernel, out of the checkout.
#
# usage: build.sh <kernel-obj-dir> <out-dir>
#
# The sources are copied to <out-dir> and built there with
# "make -C <kernel-obj-dir> M=<out-dir>", so no build output lands next to
# the sources; the module is <out-dir>/emu_idle.ko. The copy is refreshed
# only when a source changed, so an unchanged module is not rebuilt.
set -eu

[ $# = 2 ] || { echo "usage: $0 <kernel-obj-dir> <out-dir>" >&2; exit 2; }
obj=$(cd "$1" && pwd)
out=$2
here=$(cd "$(dirname "$0")" && pwd)

[ -f "$obj/Module.symvers" ] || {
	echo "emu-idle: $obj is not a built kernel (no Module.symvers)" >&2
	exit 1
}
mkdir -p "$out"
out=$(cd "$out" && pwd)
case "$out/" in
"$here"/*) echo "emu-idle: refusing to build inside the source directory" >&2; exit 1;;
esac
for f in emu_idle.c Kbuild; do
	cmp -s "$here/$f" "$out/$f" || cp "$here/$f" "$out/$f"
done
cache=$(cd "$obj/../.." && pwd)
export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
export CCACHE_BASEDIR=$cache CCACHE_NOHASHDIR=1
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
make -s -C "$obj" ARCH=x86_64 CC="$cc" M="$out" modules
[ -f "$out/emu_idle.ko" ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build one of the test bed's guest modules (qemu/emu-idle, qemu/emu-disk)
# for one kernel, out of the checkout.
#
# usage: build-module.sh <module-src-dir> <kernel-obj-dir> <out-dir>
#
# The module's .c files and Kbuild are copied to <out-dir> and built there
# with "make -C <kernel-obj-dir> M=<out-dir>", so no build output lands next
# to the sources. The copy is refreshed only when a source changed, so an
# unchanged module is not rebuilt. The module is <out-dir>/<name>.ko, named
# by the obj-m line of its Kbuild.
set -eu

[ $# = 3 ] || { echo "usage: $0 <module-src-dir> <kernel-obj-dir> <out-dir>" >&2; exit 2; }
src=$(cd "$1" && pwd)
name=$(basename "$src")
[ -d "$2" ] || { echo "$name: no kernel objects in $2" >&2; exit 1; }
obj=$(cd "$2" && pwd)
out=$3

[ -f "$obj/Module.symvers" ] || {
	echo "$name: $obj is not a built kernel (no Module.symvers)" >&2
	exit 1
}
ko=$(sed -n 's/^obj-m *:= *\(.*\)\.o$/\1/p' "$src/Kbuild")
[ -n "$ko" ] || { echo "$name: $src/Kbuild has no obj-m := <name>.o line" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
case "$out/" in
"$src"/*) echo "$name: refusing to build inside the source directory" >&2; exit 1;;
esac
for f in "$src"/*.c "$src"/Kbuild; do
	cmp -s "$f" "$out/${f##*/}" || cp "$f" "$out/${f##*/}"
done
cache=$(cd "$obj/../.." && pwd)
export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
export CCACHE_BASEDIR=$cache CCACHE_NOHASHDIR=1
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
make -s -C "$obj" ARCH=x86_64 CC="$cc" M="$out" modules
[ -f "$out/$ko.ko" ]

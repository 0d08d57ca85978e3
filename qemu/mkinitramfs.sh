#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the initramfs of one kernel: busybox-static, the project's static C
# tools, trace-cmd with the shared libraries it needs (copied from the
# host), the out-of-tree modules built for that kernel, and the project's
# guest code under /sip, at the paths it has in the checkout: the
# directories below (GUEST_DIRS) and the bench's table with its reader,
# which the guest reads too. Host code, C sources (built above into
# /usr/bin) and test data stay out.
#
# usage: mkinitramfs.sh <kernel-name> <out.cpio>   (SIP_CACHE, run from the
#        checkout)
#
# Boots of the same kernel may run at once, from one checkout or several
# (a clone beside the working tree): each call stages in its own temporary
# directory and writes its own output, and the parts shared in the cache
# (the guest tools, cpupower) are built under a lock, so no boot picks up
# another's half-written files or another checkout's tests.
set -eu

# Where the code that runs in the guest lives; nothing else of the
# checkout goes into the initramfs.
GUEST_DIRS="tests/lib tests/guest tests/stress trace-scripts/guest"

[ $# = 2 ] || { echo "usage: mkinitramfs.sh <kernel-name> <out.cpio>" >&2; exit 1; }
k=$1
. "$(dirname "$0")/defaults.sh"
cache=$SIP_CACHE
top=$(pwd)
obj=$cache/$k/obj
tools=$cache/tools/guest
out=$2

die() { echo "mkinitramfs: $*" >&2; exit 1; }
[ -f "$obj/arch/x86/boot/bzImage" ] || die "kernel $k is not built ($obj)"
stage=$(mktemp -d "${TMPDIR:-/tmp}/sip-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# The shared builds below, one caller at a time.
exec 9>"$cache/initramfs.lock"
flock 9

# Static guest tools, rebuilt when their source differs from the one they
# were built from (by content: checkouts share the cache, and a clone's
# files are all newer than the working tree's).
mkdir -p "$tools"
for c in tests/guest/*.c tests/workloads/*.c; do
	[ -f "$c" ] || continue
	b=$tools/$(basename "$c" .c)
	sum=$(sha256sum < "$c")
	if [ ! -x "$b" ] || [ "$(cat "$b.src-sha256" 2>/dev/null)" != "$sum" ]; then
		gcc -static -O2 -Wall -Wextra -Werror -o "$b" "$c" -lm ||
			die "cannot build guest tool $c"
		echo "$sum" > "$b.src-sha256"
	fi
done

# The test bed's guest modules for this kernel.
for m in qemu/emu-idle qemu/emu-disk; do
	qemu/build-module.sh "$m" "$obj" "$cache/$k/modules/${m#qemu/}" >/dev/null ||
		die "${m#qemu/} module does not build for $k"
done

# cpupower from the same kernel tree: what userspace reads of cpuidle must
# keep working on the patched kernel (libcpupower linked in, libc and libpci
# copied with the binary below).
cpp=$cache/$k/cpupower
if [ -d "$cache/$k/src/tools/power/cpupower" ] && [ ! -x "$cpp/cpupower" ]; then
	mkdir -p "$cpp"
	make -s -C "$cache/$k/src/tools/power/cpupower" O="$cpp/" STATIC=true NLS=false \
		CPUFREQ_BENCH=false >"$cpp.log" 2>&1 || echo "mkinitramfs: cpupower does not build for $k (see $cpp.log)" >&2
fi

mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,lib/modules,lib64,etc,proc,sys,dev,tmp,results,sip}
cp /bin/busybox "$stage/bin/busybox"
cp qemu/guest-init.sh "$stage/init"
chmod 755 "$stage/init"
echo "root:x:0:0:root:/root:/bin/sh" > "$stage/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/sh" >> "$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$stage/etc/group"

copy_with_libs() {
	local bin=$1 dst=$2 lib
	cp "$bin" "$stage$dst"
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}
copy_with_libs /usr/bin/trace-cmd /usr/bin/trace-cmd
# mke2fs with its configuration (busybox's own applet has no ext4, so the
# guest calls /usr/sbin/mke2fs): an ext4 with its journal on an emulated
# disk, for the workloads that write through a file system.
copy_with_libs /usr/sbin/mke2fs /usr/sbin/mke2fs
cp /etc/mke2fs.conf "$stage/etc/mke2fs.conf" 2>/dev/null || true
# With GUEST_BENCH_TOOLS=1 (make bench-cost), the benchmarks maintainers
# run themselves, from the host's Debian packages with their libraries:
# perf (linux-perf, for perf bench) and hackbench (rt-tests). About 30 MB,
# so only in the boots that run them.
if [ "${GUEST_BENCH_TOOLS:-0}" = 1 ]; then
	for b in /usr/bin/perf /usr/bin/hackbench; do
		[ -x "$b" ] || die "$b missing (make deps installs linux-perf and rt-tests)"
		copy_with_libs "$b" "$b"
	done
fi
[ -x "$cpp/cpupower" ] && copy_with_libs "$cpp/cpupower" /usr/bin/cpupower
for c in "$tools"/*; do
	[ -x "$c" ] && cp "$c" "$stage/usr/bin/"
done
[ -d "$cache/$k/tools" ] && cp "$cache/$k/tools"/* "$stage/usr/bin/" 2>/dev/null
find "$cache/$k/modules" -name '*.ko' -exec cp {} "$stage/lib/modules/" \; 2>/dev/null || true
# The modules directory of this release, so that modprobe (which cpupower
# runs) finds its modules.dep and the project's modules by name.
rel=$(cat "$obj/kernelrelease" 2>/dev/null || echo unknown)
mkdir -p "$stage/lib/modules/$rel"
for m in "$stage"/lib/modules/*.ko; do
	[ -f "$m" ] || continue
	ln -s "../${m##*/}" "$stage/lib/modules/$rel/${m##*/}"
	echo "${m##*/}:" >> "$stage/lib/modules/$rel/modules.dep"
done
touch "$stage/lib/modules/$rel/modules.dep"
for d in $GUEST_DIRS trace-scripts/bench/bench.tsv trace-scripts/bench/bench-table.sh; do
	mkdir -p "$stage/sip/$(dirname "$d")"
	cp -r "$d" "$stage/sip/$d"
done
find "$stage/sip" \( -name '*.c' -o -name '*.o' \) -delete

flock -u 9
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out.tmp.$$"
mv "$out.tmp.$$" "$out"

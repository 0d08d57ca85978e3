#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The first-run promise on a machine that has nothing: a Debian 12 root
# made by debootstrap (the minimal base system and make, nothing else),
# the checkout's files copied to /src in it, and `make <target>` run there
# through chroot, in order, with an empty SIP_CACHE. TAP on stdout, one
# line per step with its time; the logs in <root>.log/. `make
# fresh-root-test` runs it (not part of make test: it downloads every
# package of qemu/deps.sh and builds both kernels).
#
# usage: fresh-root.sh [-k] <root> <target>[,VAR=value...]...
#	-k	reuse <root> when it holds a system (default: made again)
#
# Environment: FRESH_MIRROR (default http://deb.debian.org/debian) and
# FRESH_SECURITY_MIRROR (default http://deb.debian.org/debian-security):
# the root's APT sources are those of a default Debian 12 install,
# bookworm, bookworm-updates and bookworm-security (the kernel base,
# SIP_LINUX of qemu/defaults.sh, is in the security suite only);
# FRESH_CCACHE, a host ccache directory lent to the root's kernel builds
# (it saves their compile time; the result is the same).
#
# Needs root, the network and debootstrap (installed when missing). /dev
# in the root is a tmpfs with the few nodes a build and QEMU use, never a
# bind mount of the host's: removing the root cannot reach the host.
set -u
keep=0
[ "${1:-}" = -k ] && { keep=1; shift; }
[ $# -ge 2 ] || { echo "usage: $0 [-k] <root> <target>..." >&2; exit 2; }
root=$1
shift
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
security=${FRESH_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
ccache=${FRESH_CCACHE:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
log=$root.log
t=0

case "$root" in
/?*) ;;
*) echo "fresh-root: $root: an absolute path other than / please" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || { echo "fresh-root: needs root (debootstrap, chroot, mount)" >&2; exit 1; }
[ -z "$ccache" ] || [ -d "$ccache" ] || { echo "fresh-root: FRESH_CCACHE=$ccache: no such directory" >&2; exit 2; }

# step <status> <description> <start>: one TAP line with the step's time
step() {
	local s=$(($(date +%s) - $3))

	t=$((t + 1))
	if [ "$1" = 0 ]; then
		printf 'ok %d - %s (%dm%02ds)\n' $t "$2" $((s / 60)) $((s % 60))
	else
		printf 'not ok %d - %s (%dm%02ds)\n' $t "$2" $((s / 60)) $((s % 60))
	fi
}

mounted() {	# the mount points under the root, deepest first
	awk -v r="$root/" 'index($2 "/", r) == 1 { print $2 }' /proc/mounts | sort -r
}

unmount_all() {
	local m

	for m in $(mounted); do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
	[ -z "$(mounted)" ]
}

# /dev: a tmpfs with the nodes a build and QEMU open, and its own devpts
make_dev() {
	local d=$root/dev

	mount -t tmpfs -o mode=755,nosuid dev "$d" || return 1
	mknod -m 666 "$d/null" c 1 3 && mknod -m 666 "$d/zero" c 1 5 &&
		mknod -m 666 "$d/full" c 1 7 && mknod -m 666 "$d/random" c 1 8 &&
		mknod -m 666 "$d/urandom" c 1 9 && mknod -m 666 "$d/tty" c 5 0 || return 1
	mkdir -p "$d/pts" "$d/shm"
	mount -t devpts -o newinstance,ptmxmode=0666 devpts "$d/pts" || return 1
	mount -t tmpfs -o mode=1777,nosuid,nodev shm "$d/shm" || return 1
	ln -s pts/ptmx "$d/ptmx"
	ln -s /proc/self/fd "$d/fd"
	ln -s /proc/self/fd/0 "$d/stdin"
	ln -s /proc/self/fd/1 "$d/stdout"
	ln -s /proc/self/fd/2 "$d/stderr"
}

trap 'unmount_all' EXIT
unmount_all || { echo "fresh-root: cannot unmount $(mounted | tr '\n' ' ')" >&2; exit 1; }
rm -rf "$log"
mkdir -p "$log"
echo "1..$(($# + 2))"

# 1. The root
s=$(date +%s)
if [ $keep = 1 ] && [ -x "$root/usr/bin/make" ]; then
	step 0 "debootstrap: $root kept (-k)" "$s"
else
	rm -rf "$root"
	command -v debootstrap >/dev/null ||
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap > "$log/apt.log" 2>&1
	debootstrap --variant=minbase --include=make bookworm "$root" "$mirror" \
		> "$log/debootstrap.log" 2>&1
	rc=$?
	step $rc "debootstrap --variant=minbase --include=make bookworm $mirror" "$s"
	if [ $rc != 0 ]; then
		tail -5 "$log/debootstrap.log" | sed 's/^/# /'
		echo "Bail out! no root to test in"
		exit 1
	fi
fi

# The APT sources of a default install, on a new root and a kept one.
cat > "$root/etc/apt/sources.list" <<EOF_SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF_SOURCES

# 2. The checkout's files (tracked and new, not ignored), nothing built
s=$(date +%s)
rm -rf "$root/src" "$root/root/.cache"
mkdir -p "$root/src"
cp /etc/resolv.conf "$root/etc/resolv.conf"
(cd "$src" && git ls-files -z -co --exclude-standard |
	tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -x -C "$root/src"
[ -f "$root/src/Makefile" ] && make_dev && mount -t proc proc "$root/proc" &&
	mount -t sysfs sys "$root/sys" &&
	{ [ -z "$ccache" ] || { mkdir -p "$root/ccache" && mount --bind "$ccache" "$root/ccache"; }; }
rc=$?
step $rc "the checkout in $root/src, /dev /proc /sys mounted${ccache:+, ccache $ccache lent}" "$s"
[ $rc = 0 ] || { echo "Bail out! cannot prepare the root"; exit 1; }

# 3. The targets, in order, as a newcomer types them
# A step may carry variables after commas: "bench,QUICK=1" is
# `make bench QUICK=1`, logged in bench-QUICK=1.log.
for target in "$@"; do
	s=$(date +%s)
	IFS=, read -ra words <<< "$target"
	name=${target//,/-}
	chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		${ccache:+CCACHE_DIR=/ccache} \
		make -C /src --no-print-directory "${words[@]}" > "$log/$name.log" 2>&1
	rc=$?
	step $rc "make ${words[*]} in the fresh root" "$s"
	[ $rc = 0 ] || tail -15 "$log/$name.log" | sed 's/^/# /'
done

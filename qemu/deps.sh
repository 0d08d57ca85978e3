#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the project needs. Idempotent and silent when
# everything is present; otherwise installs only what is missing.
set -eu
. "$(dirname "$0")/defaults.sh"

pkgs=(
	"$SIP_LINUX" gcc g++ git make bc flex bison libelf-dev libssl-dev cpio
	busybox-static qemu-system-x86 trace-cmd ccache kmod rsync dwarves
	libtracecmd-dev libtraceevent-dev libtracefs-dev pkg-config
	libkshark-dev kernelshark gnuplot-nox xvfb xauth imagemagick
	valgrind libpci-dev gettext libjson-c-dev python3 python3-ply python3-git
	bash-static e2fsprogs linux-perf rt-tests
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "deps: not root; run: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get -q update >/dev/null || true
apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/sip-deps.log 2>&1 || {
	tail -20 /tmp/sip-deps.log >&2
	echo "deps: apt-get install failed (log: /tmp/sip-deps.log)" >&2
	exit 1
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build one kernel out of tree with ccache.
#
# usage: build-kernel.sh [-u] [-a <arch>] <src> <objdir> <fragment>...
# Environment: JOBS (default: the number of CPUs).
#
# The configuration is "make tinyconfig" plus the fragments, then
# olddefconfig. Like kunit.py, every option a fragment requests is checked
# in the final .config, and the build stops naming any option that did not
# survive (a missing dependency, a typo, an option the tree does not have).
# An option requested twice is checked at its last line, the one Kconfig
# keeps. "CONFIG_FOO=n" is read as "# CONFIG_FOO is not set": it holds
# when FOO is unset, also in a tree that has no FOO (yet).
#   -u  an option that no Kconfig file of <src> defines is named on stderr
#       and not checked, whatever its value: check-series.sh builds the
#       trees in the middle of the series, which lack the options later
#       patches add.
#   -a  the architecture (make ARCH=), default x86_64, the test bed's;
#       check-series.sh builds i386 too. An option and not the environment:
#       an ARCH exported for some other tree must not change this build.
set -eu

undef_ok= arch_req=
while [ $# -gt 0 ]; do
	case "$1" in
	-u) undef_ok=1; shift ;;
	-a) arch_req=$2; shift 2 ;;
	*) break ;;
	esac
done
src=$1; obj=$2; shift 2
frags=("$@")
arch=${arch_req:-x86_64}

die() { echo "build-kernel: $*" >&2; exit 1; }

# Whether a Kconfig file of the tree defines the option.
defined() {	# <CONFIG_FOO>
	grep -rqE --include='Kconfig*' --exclude-dir=.git \
		"^[[:space:]]*(menu)?config[[:space:]]+${1#CONFIG_}[[:space:]]*$" "$src"
}

mkdir -p "$obj"
export KBUILD_BUILD_TIMESTAMP="2014-10-22"
export KBUILD_BUILD_USER=sip KBUILD_BUILD_HOST=sip
cache=$(cd "$obj/../.." && pwd)
export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
# Relative paths (../src) are the same for every tree: objects are shared.
export CCACHE_BASEDIR=$cache
export CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
jobs=${JOBS:-$(nproc)}
mk=(make -s -C "$src" O="$obj" ARCH="$arch" CC="ccache gcc" -j"$jobs")

want=$( (cat "${frags[@]}"; [ -z "$undef_ok" ] || echo "# -u"
	[ -z "$arch_req" ] || echo "# -a $arch_req") | sha1sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.sip-frags" 2>/dev/null)" != "$want" ]; then
	rm -f "$obj/.sip-frags"
	"${mk[@]}" tinyconfig >/dev/null 2>&1
	# Later assignments override earlier ones when Kconfig reads .config.
	cat "${frags[@]}" >> "$obj/.config"
	"${mk[@]}" olddefconfig >/dev/null 2>&1
	# The request of each option: its last line, and the fragment of it.
	declare -A req from
	order=()
	for f in "${frags[@]}"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*) opt=${line%%=*} ;;
			"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *} ;;
			*) continue ;;
			esac
			[ -n "${req[$opt]+set}" ] || order+=("$opt")
			req[$opt]=$line from[$opt]=$f
		done < "$f"
	done
	bad=0
	for opt in "${order[@]}"; do
		line=${req[$opt]} f=${from[$opt]}
		case "$line" in
		"$opt=n"|"# $opt is not set")
			if grep -q "^$opt=" "$obj/.config"; then
				echo "build-kernel: $f: $opt must be unset but is $(grep "^$opt=" "$obj/.config")" >&2
				bad=1
			fi
			;;
		*)
			grep -qxF -- "$line" "$obj/.config" && continue
			why=
			if ! defined "$opt"; then
				if [ -n "$undef_ok" ]; then
					echo "build-kernel: $f: $line not checked: no Kconfig of this tree defines $opt" >&2
					continue
				fi
				why=", no Kconfig of this tree defines it"
			fi
			echo "build-kernel: $f: $line did not survive olddefconfig (now: $(grep -E "^(# )?$opt[= ]" "$obj/.config" || echo unset)$why)" >&2
			bad=1
			;;
		esac
	done
	[ $bad = 0 ] || die "requested options missing from $obj/.config"
	echo "$want" > "$obj/.sip-frags"
fi

"${mk[@]}" bzImage modules
"${mk[@]}" kernelrelease > "$obj/kernelrelease"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build one kernel out of tree with ccache.
#
# usage: build-kernel.sh <src> <objdir> <fragment>...
#
# The configuration is "make tinyconfig" plus the fragments, then
# olddefconfig. Like kunit.py, every option a fragment requests is checked
# in the final .config, and the build stops naming any option that did not
# survive (a missing dependency, a typo, an option the tree does not have).
set -eu

src=$1; obj=$2; shift 2
frags=("$@")

die() { echo "build-kernel: $*" >&2; exit 1; }

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
mk=(make -s -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" -j"$jobs")

want=$(cat "${frags[@]}" | sha1sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.sip-frags" 2>/dev/null)" != "$want" ]; then
	rm -f "$obj/.sip-frags"
	"${mk[@]}" tinyconfig >/dev/null 2>&1
	# Later assignments override earlier ones when Kconfig reads .config.
	cat "${frags[@]}" >> "$obj/.config"
	"${mk[@]}" olddefconfig >/dev/null 2>&1
	bad=0
	for f in "${frags[@]}"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*)
				opt=${line%%=*}
				grep -qxF -- "$line" "$obj/.config" || {
					echo "build-kernel: $f: $line did not survive olddefconfig (now: $(grep -E "^(# )?$opt[= ]" "$obj/.config" || echo unset))" >&2
					bad=1
				}
				;;
			"# CONFIG_"*" is not set")
				opt=${line#\# }; opt=${opt%% *}
				if grep -q "^$opt=" "$obj/.config"; then
					echo "build-kernel: $f: $opt must be unset but is $(grep "^$opt=" "$obj/.config")" >&2
					bad=1
				fi
				;;
			esac
		done < "$f"
	done
	[ $bad = 0 ] || die "requested options missing from $obj/.config"
	echo "$want" > "$obj/.sip-frags"
fi

"${mk[@]}" bzImage modules
"${mk[@]}" kernelrelease > "$obj/kernelrelease"

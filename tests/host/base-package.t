#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel base is named in one place: SIP_LINUX in qemu/defaults.sh, the
# Debian package linux-source-<major>.<minor> whose tree the series applies
# to. In a scratch copy of the Makefiles and qemu/*.sh whose defaults.sh
# names another (nonexistent) package, the Makefile, qemu/deps.sh and
# qemu/kernel-tree.sh must all use that one; and no file of the checkout
# names a linux-source package itself, apart from the documentation, which
# may name the current base only. Dated history (design/results,
# design/log), series/ (the series file's header is export-series.sh's
# output) and the outputs under results/ and build/ are left out.
# Needs no kernel and no network: dpkg-query and apt-get are shims here.
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh
scratch
plan 6

re='linux-source-[0-9]+\.[0-9]+'
# The base as qemu/defaults.sh sets it, whatever the environment holds
# (make exports SIP_LINUX, and SIP_LINUX=... may override it).
base=$(unset SIP_LINUX; . qemu/defaults.sh; echo "$SIP_LINUX")
n=$(grep -cE "$re" qemu/defaults.sh)
echo "$base" | grep -qxE "$re" && [ "$n" = 1 ]
ok $? "qemu/defaults.sh names the base once, as linux-source-<major>.<minor> ($base; lines naming one: $n)"

# The scratch copy, with a base that exists nowhere. The name is built
# here so that this file holds no package name either.
fake=${base%-*}-0.99
co=$tmp/co
mkdir -p "$co/qemu" "$co/trace-scripts/bench" "$co/series"
cp -r Makefile mk "$co/"
cp qemu/*.sh "$co/qemu/"
cp -r qemu/config "$co/qemu/"
cp trace-scripts/bench/bench.tsv "$co/trace-scripts/bench/"
sed -Ei "s/$re/$fake/" "$co/qemu/defaults.sh"
got=$(unset SIP_LINUX; . "$co/qemu/defaults.sh"; echo "$SIP_LINUX")
[ "$got" = "$fake" ] || bail "cannot make a scratch defaults.sh naming $fake (got $got)"

got=$(env -u SIP_LINUX -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$co" \
	--eval 'sip-base-package: ; @echo $(SIP_LINUX)' sip-base-package 2>"$tmp/make.err")
err=$(head -1 "$tmp/make.err")
is "the Makefile's SIP_LINUX is defaults.sh's${err:+ ($err)}" "$fake" "$got"

# deps.sh with every package reported installed: it asks dpkg about each
# one it needs and installs nothing.
mkdir "$tmp/bin"
printf '#!/bin/sh\nfor a; do :; done\necho "$a" >> "%s"\necho "install ok installed"\n' \
	"$tmp/dpkg.log" > "$tmp/bin/dpkg-query"
printf '#!/bin/sh\necho "apt-get $*" >> "%s"\nexit 1\n' "$tmp/apt.log" > "$tmp/bin/apt-get"
chmod +x "$tmp/bin/dpkg-query" "$tmp/bin/apt-get"
: > "$tmp/dpkg.log"
env -u SIP_LINUX PATH="$tmp/bin:$PATH" "$co/qemu/deps.sh" > "$tmp/deps.out" 2>&1
rc=$?
asked=$(grep -E "^$re\$" "$tmp/dpkg.log" | sort -u | tr '\n' ' ' | sed 's/ $//')
[ $rc = 0 ] && [ "$asked" = "$fake" ] && [ ! -e "$tmp/apt.log" ]
ok $? "qemu/deps.sh installs defaults.sh's base and no other (status $rc; asked for: ${asked:-none})"

# kernel-tree.sh stops at the missing tarball of the scratch base, before
# it creates anything in the cache. Should it look for another tarball,
# the tools it would go on with fail at once instead of extracting a tree.
mkdir "$tmp/kbin"
for p in dpkg-query tar git make; do
	printf '#!/bin/sh\necho "%s: not here (tests/host/base-package.t)" >&2\nexit 1\n' "$p" > "$tmp/kbin/$p"
	chmod +x "$tmp/kbin/$p"
done
msg=$(env -u SIP_LINUX PATH="$tmp/kbin:$PATH" "$co/qemu/kernel-tree.sh" "$tmp/cache" "$co/series" 2>&1)
rc=$?
[ $rc != 0 ] && echo "$msg" | grep -qF "/usr/src/$fake.tar.xz missing" && [ ! -e "$tmp/cache" ]
ok $? "qemu/kernel-tree.sh extracts defaults.sh's base (status $rc: $(echo "$msg" | head -1))"

# Left out of both checks below.
skip_paths='^\./(design/results|design/log|series|results|build)/'
names() {	# <grep options>: "file:line:name" of every package name
	grep -rIEno --exclude-dir=.git "$@" "$re" . | grep -vE "$skip_paths" | LC_ALL=C sort
}
bad=$(names --exclude='*.md' | grep -v '^\./qemu/defaults\.sh:')
ok "$([ -z "$bad" ] && echo 0 || echo 1)" \
	"no file but qemu/defaults.sh names a linux-source package" ${bad:+$bad}
bad=$(names --include='*.md' | grep -vE ":${base//./\\.}\$")
ok "$([ -z "$bad" ] && echo 0 || echo 1)" \
	"the documentation names no linux-source package but $base" ${bad:+$bad}

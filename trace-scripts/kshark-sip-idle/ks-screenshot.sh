#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ks-screenshot.sh OUT.png TRACE.dat [PLUGIN.so] - KernelShark on a virtual
# X server (Xvfb), optionally with a plugin, and a screenshot of its window
# once the trace is drawn. KernelShark's settings go to a temporary
# directory (KS_USER_CACHE_DIR), never the user's, with its warning about
# running as root turned off. WAIT (default 20) seconds are given to load.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OUT.png TRACE.dat [PLUGIN.so]" >&2; exit 1; }
out=$1 trace=$2 plugin=${3:-}
for c in xvfb-run kernelshark import; do
	command -v $c >/dev/null || { echo "ks-screenshot: $c not installed" >&2; exit 1; }
done
[ -r "$trace" ] || { echo "ks-screenshot: $trace: cannot read" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/cache" "$tmp/run"
chmod 700 "$tmp/run"
printf '[General]\nnoRootWarn=true\n' > "$tmp/cache/setting.ini"
args=(-geometry 1200x700+0+0)
[ -n "$plugin" ] && args+=(-p "$(readlink -f "$plugin")")
args+=("$(readlink -f "$trace")")
cat > "$tmp/shot.sh" <<SH
kernelshark "\$@" > "$tmp/kernelshark.log" 2>&1 &
pid=\$!
sleep ${WAIT:-20}
kill -0 \$pid 2>/dev/null || { echo "ks-screenshot: kernelshark exited early:" >&2; tail -5 "$tmp/kernelshark.log" >&2; exit 1; }
import -window root -crop 1200x700+0+0 "$out"
kill \$pid
wait \$pid 2>/dev/null
exit 0
SH
KS_USER_CACHE_DIR=$tmp/cache XDG_RUNTIME_DIR=$tmp/run \
	timeout $(( ${WAIT:-20} + 60 )) xvfb-run -a -s "-screen 0 1280x900x24" bash "$tmp/shot.sh" "${args[@]}"
[ -s "$out" ] || { echo "ks-screenshot: no screenshot" >&2; exit 1; }
if [ -n "$plugin" ] && grep -q "sip_idle: " "$tmp/kernelshark.log"; then
	grep "sip_idle: " "$tmp/kernelshark.log" >&2
fi
exit 0

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Progress of the long targets (make kernel, test, stress): "[mm:ss] what",
# the time since SIP_T0 (seconds since the epoch, set by the first make of
# the command line; now when unset).
#
# usage: progress.sh <what>...	one line
#        progress.sh		every line of stdin, prefixed so
t0=${SIP_T0:-$(date +%s)}

stamp() {
	local t=$(($(date +%s) - t0))

	printf '[%02d:%02d]' $((t / 60)) $((t % 60))
}

if [ $# -gt 0 ]; then
	echo "$(stamp) $*"
	exit 0
fi
while IFS= read -r l; do
	echo "$(stamp) $l"
done

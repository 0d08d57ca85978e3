#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The analyser's model fed synthetic events directly (no trace.dat): the
# classification rules, the energy oracle, percentiles, pairing, bad input.
# The program is built with ASan and UBSan; a finding aborts it, and the
# test runner reports the non-zero exit.
cd "$(dirname "$0")/../.."
if ! out=$(make -s --no-print-directory analyser-tests 2>&1); then
	echo "Bail out! cannot build the analyser tests: $(echo "$out" | tail -1)"
	exit 1
fi
exec "${SIP_CACHE:-$HOME/.cache/sched-idle-predict}/tools/analyser-model-test"

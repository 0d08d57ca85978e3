#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The analyser's model fed synthetic events directly (no trace.dat): the
# classification rules, the energy oracle, percentiles, pairing, bad input.
# The program is built with ASan and UBSan; a finding aborts it, and the
# test runner reports the non-zero exit.
cd "$(dirname "$0")/../.."
. tests/host/lib.sh
need_analyser analyser-tests
exec "$TOOLS/analyser-model-test"

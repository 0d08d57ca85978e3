#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make test`: run the named tests/guest/*.t, one after the
# other, each bounded by a timeout, and keep each one's TAP output in
# /results/tap/<name>.tap (also echoed to the console).
#
# usage: run-tests.sh <per-test-timeout-s> <test>...
per=$1; shift
mkdir -p /results/tap
for t in "$@"; do
	name=$(basename "$t" .t)
	echo "=== $name ($SIP_KERNEL)"
	timeout "$per" /sip/tests/guest/"$name".t > /results/tap/"$name".tap 2>&1
	rc=$?
	cat /results/tap/"$name".tap
	echo "$rc" > /results/tap/"$name".rc
done
exit 0

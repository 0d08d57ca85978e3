#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series in series/ applies to $SIP_LINUX (qemu/defaults.sh) patch by
# patch, each patch is checkpatch --strict clean and adds no W=1 warning,
# and the kernel builds in the configurations of tests/host/check-series.sh's
# table. Quick mode unless CHECK_SERIES=full (make test CHECK_SERIES=full):
# its quick_configs rows after the last patch only (check-series.sh -q), a
# full build each; full mode builds every row after every patch, which
# costs far more than make test.
cd "$(dirname "$0")/../.." || exit 1
case ${CHECK_SERIES:-quick} in
quick) exec ./tests/host/check-series.sh -q ;;
full) exec ./tests/host/check-series.sh ;;
*) . tests/lib/tap.sh; bail "CHECK_SERIES=$CHECK_SERIES: full or quick" ;;
esac

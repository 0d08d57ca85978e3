# SPDX-License-Identifier: GPL-2.0
#
# The patch series as maintainers will see it: tests/host/check-series.sh
# applies series/ patch by patch on a scratch tree of linux-source-6.1 in
# $(SIP_CACHE)/check-series, runs checkpatch --strict, compares the W=1
# warnings of the touched directories before and after each patch and
# builds the kernel at the end. `make test` runs it as a host test.

SERIES_DIR ?= series

HELP += \
	"check-series apply series/ patch by patch: checkpatch --strict, no new W=1 warnings, full build (TAP)" \
	"             [SERIES_DIR=series] [JOBS=2]"

.PHONY: check-series

check-series: deps
	@./tests/host/check-series.sh -d $(SERIES_DIR)

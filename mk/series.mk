# SPDX-License-Identifier: GPL-2.0
#
# The patch series as maintainers will see it: tests/host/check-series.sh
# applies series/ patch by patch on a scratch tree of $(SIP_LINUX) in
# $(SIP_CACHE)/check-series, runs checkpatch --strict, compares the W=1
# warnings of the touched directories before and after each patch and
# builds the whole kernel in each configuration of its table (the
# project's, HALTPOLL_CPUIDLE=m, SCHED_IO_LATENCY=n, CPU_IDLE=n,
# PREEMPT_RT with lockdep, or PREEMPT on a tree that cannot build
# PREEMPT_RT, and i386). CHECK_SERIES=full (the default here) builds them
# after every patch, one full build per patch and configuration, and
# reports a build that passed before with the same inputs from its record
# unless CHECK_SERIES_REBUILD=1 (an interrupted run goes on where it
# stopped); quick builds them after the last patch only. `make test` runs
# it as a host test, quick unless CHECK_SERIES=full is given
# (tests/host/check-series.t).

SERIES_DIR   ?= series
CHECK_SERIES ?= full

HELP += \
	"check-series apply series/ patch by patch: checkpatch --strict, no new W=1 warnings, vmlinux + modules" \
	"             in each configuration of tests/host/check-series.sh's table (TAP) [SERIES_DIR=series] [JOBS=2]" \
	"             [CHECK_SERIES=full: the builds after every patch | quick: after the last one, as make test]" \
	"             [CHECK_SERIES_REBUILD=1: full mode builds again what passed before with the same inputs]"

.PHONY: check-series

check-series: deps
	@case "$(CHECK_SERIES)" in full) q= ;; quick) q=-q ;; \
	*) echo "check-series: CHECK_SERIES=$(CHECK_SERIES): full or quick" >&2; exit 2 ;; esac; \
	./tests/host/check-series.sh $$q $(if $(filter 1,$(CHECK_SERIES_REBUILD)),-B) -d $(SERIES_DIR)

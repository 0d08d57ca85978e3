# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: the series (policy `sched`, the patched kernel) against the
# menu, teo and ladder governors (the base kernel) on the same emulated
# platform, CPUs, disks and seeds, judged by sip-idle-report.
# design/bench.md describes the workloads, the method and the outputs.

BENCH_WORKLOADS_FULL  := timer-50us timer-300us timer-1ms timer-3ms timer-20ms \
			 timer-jitter io-fast io-mid io-slow io-mixed io-multi \
			 io-think pingpong remote-wakeup futex-pingpong sock-rr \
			 prodcons mix idle
BENCH_WORKLOADS_QUICK := timer-1ms timer-jitter io-fast io-slow io-mixed pingpong \
			 futex-pingpong sock-rr idle

ifeq ($(QUICK),1)
BENCH_REPS         ?= 1
BENCH_SECONDS      ?= 3
BENCH_WORKLOADS    ?= $(BENCH_WORKLOADS_QUICK)
BENCH_TIME_TARGET  ?= 600
else
BENCH_REPS         ?= 3
BENCH_SECONDS      ?= 3
BENCH_WORKLOADS    ?= $(BENCH_WORKLOADS_FULL)
BENCH_TIME_TARGET  ?= 2700
endif
BENCH_SEED         ?= 1
BENCH_COST_SECONDS ?= 2
BENCH_POLICIES     ?= menu teo ladder sched
# Boots at once in virtual time (design/bench.md); real time runs one.
BENCH_JOBS         ?= $(shell nproc)
BENCH_OUT          ?= results

HELP += \
	"bench        the series (sched) against menu, teo and ladder: results/bench.{md,json} + plots" \
	"             [PLATFORM=x86-client] [SMP=2] [QUICK=1] [BENCH_REPS=3] [BENCH_SECONDS=3]" \
	"             [BENCH_SEED=1] [BENCH_WORKLOADS='io-fast ...'] [BENCH_POLICIES='menu teo ladder sched']" \
	"             [BENCH_JOBS=$(BENCH_JOBS): boots at once, virtual time only] [CLOCK=virtual|real]"

.PHONY: bench

bench: $(REPORT)
	@[ -f $(SIP_CACHE)/base/obj/arch/x86/boot/bzImage ] || $(MAKE) --no-print-directory kernel
	@BENCH_PLATFORM='$(PLATFORM)' BENCH_SMP='$(SMP)' BENCH_REPS='$(BENCH_REPS)' \
		BENCH_SECONDS='$(BENCH_SECONDS)' BENCH_SEED='$(BENCH_SEED)' \
		BENCH_COST_SECONDS='$(BENCH_COST_SECONDS)' BENCH_WORKLOADS='$(BENCH_WORKLOADS)' \
		BENCH_POLICIES='$(BENCH_POLICIES)' BENCH_JOBS='$(BENCH_JOBS)' BENCH_OUT='$(BENCH_OUT)' BENCH_TIME_TARGET='$(BENCH_TIME_TARGET)' REPORT='$(REPORT)' \
		./trace-scripts/bench/bench.sh

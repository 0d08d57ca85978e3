# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: the series (policy `sched`, the patched kernel) against the
# menu, teo and ladder governors (the base kernel) on the same emulated
# platform, CPUs, disks and seeds, judged by sip-idle-report.
# design/bench.md describes the workloads, the method and the outputs.

# The defaults, policies and workloads are the table's
# (trace-scripts/bench/bench.tsv), which the harness and the guest read too.
BENCH_TABLE := trace-scripts/bench/bench.tsv
bench_setting = $(shell awk -F'\t' '$$1 == "setting" && $$2 == "$(1)" { print $$3 }' $(BENCH_TABLE))
bench_rows = $(shell awk -F'\t' '$$1 == "$(1)" { print $$2 }' $(BENCH_TABLE))
bench_names = $(shell awk -F'\t' '$$1 == "$(1)" && index("," $$3 ",", ",$(2),") { print $$2 }' $(BENCH_TABLE))

# BENCH_SET: the workloads of one set of the table (full, quick, io).
ifeq ($(QUICK),1)
BENCH_SET          ?= quick
BENCH_REPS         ?= $(call bench_setting,reps-quick)
BENCH_TIME_TARGET  ?= $(call bench_setting,time-target-quick)
else
BENCH_SET          ?= full
BENCH_REPS         ?= $(call bench_setting,reps)
BENCH_TIME_TARGET  ?= $(call bench_setting,time-target)
endif
BENCH_WORKLOADS    ?= $(call bench_names,workload,$(BENCH_SET))
BENCH_SECONDS      ?= $(call bench_setting,seconds)
BENCH_SEED         ?= $(call bench_setting,seed)
BENCH_COST_SECONDS ?= $(call bench_setting,cost-seconds)
BENCH_POLICIES     ?= $(or $(call bench_setting,policies-$(BENCH_SET)),$(shell awk -F'\t' '$$1 == "policy" { print $$2 }' $(BENCH_TABLE)))
# Boots at once in virtual time (design/bench.md); real time runs one.
BENCH_JOBS         ?= $(shell nproc)
BENCH_OUT          ?= results
BUCKET_DISKS       ?= $(call bench_setting,bucket-disks)
BUCKET_READS       ?= $(call bench_setting,bucket-reads)
BUCKET_OUT         ?= results/bucket
BUCKET_KERNEL      ?= patched
BENCH_COST_OUT     ?= results/cost
BENCH_COST_REPS    ?= $(call bench_setting,cost-reps)
BENCH_COST_ENTRY_SECONDS ?= $(call bench_setting,cost-entry-seconds)
BENCH_COST_POLICIES ?= $(call bench_setting,cost-policies)
BENCH_COST_VARIANTS ?= $(call bench_rows,cost-variant)
BENCH_COST_KERNEL  ?= patched

HELP += \
	"bench        the series (sched; sched_task: IO latency per task) against menu, teo and ladder:" \
	"             results/bench.{md,json} + plots" \
	"             [PLATFORM=x86-client] [SMP=2] [QUICK=1] [BENCH_REPS=$(BENCH_REPS)] [BENCH_SECONDS=$(BENCH_SECONDS)]" \
	"             [BENCH_SEED=$(BENCH_SEED)] [BENCH_SET=full|quick|io] [BENCH_WORKLOADS='io-fast ...']" \
	"             [BENCH_POLICIES='$(BENCH_POLICIES)': the set's policies-<set> row]" \
	"             (defaults, policies, workloads: $(BENCH_TABLE))" \
	"             [BENCH_JOBS=$(BENCH_JOBS): boots at once, virtual time only] [CLOCK=virtual|real]" \
	"bench-cost   what the hooks cost, in instructions, base against patched on one CPU: the table's" \
	"             cost rows (pipe and futex ping-pong, perf bench sched pipe, hackbench, fork, IO at" \
	"             queue depth 1 and 16) with the idle states and with idle=poll, and the instructions" \
	"             per idle entry of each policy: $(BENCH_COST_OUT)/cost.{md,json}" \
	"             [BENCH_COST_REPS=$(BENCH_COST_REPS)] [BENCH_COST_ENTRY_SECONDS=$(BENCH_COST_ENTRY_SECONDS): 0 skips that figure]" \
	"             [BENCH_COST_POLICIES='$(BENCH_COST_POLICIES)'] [BENCH_COST_APPEND=: the patched kernel's extra command line]" \
	"             [BENCH_COST_VARIANTS='$(BENCH_COST_VARIANTS)': patched boots with inputs off, '' for none]" \
	"             [BENCH_COST_KERNEL=patched: another build of the series] [BENCH_COST_RESUME=1: keep complete boots]" \
	"bench-compare one policy of two bench runs side by side, figures worse in AFTER listed (status 1):" \
	"             BEFORE=<dir or bench.json> AFTER=<dir or bench.json> [POLICY=sched] [LABELS=before,after] [TOLERANCE=1: %]" \
	"bucket-table the RFD's bucket table: hit rate of the bucket predictor at 100-1000 us per disk" \
	"             profile, per task (IO waits) and per device (requests), and the kernel's own predictions" \
	"             (booted with sched_io_latency=device): $(BUCKET_OUT)/table.md" \
	"             [BUCKET_DISKS='$(BUCKET_DISKS)'] [BUCKET_READS=$(BUCKET_READS)] [BUCKET_KERNEL=$(BUCKET_KERNEL)|base]"

.PHONY: bench bench-cost bench-compare bucket-table

bench: $(REPORT)
	@[ -f $(SIP_CACHE)/base/obj/arch/x86/boot/bzImage ] || $(MAKE) --no-print-directory kernel
	@BENCH_PLATFORM='$(PLATFORM)' BENCH_SMP='$(SMP)' BENCH_REPS='$(BENCH_REPS)' \
		BENCH_SECONDS='$(BENCH_SECONDS)' BENCH_SEED='$(BENCH_SEED)' \
		BENCH_COST_SECONDS='$(BENCH_COST_SECONDS)' BENCH_WORKLOADS='$(BENCH_WORKLOADS)' \
		BENCH_POLICIES='$(BENCH_POLICIES)' BENCH_JOBS='$(BENCH_JOBS)' BENCH_OUT='$(BENCH_OUT)' BENCH_TIME_TARGET='$(BENCH_TIME_TARGET)' REPORT='$(REPORT)' \
		./trace-scripts/bench/bench.sh

# One-CPU boots of both kernels (trace-scripts/bench/cost.sh).
bench-cost: deps
	@[ -f $(SIP_CACHE)/base/obj/arch/x86/boot/bzImage ] && \
		[ -f $(SIP_CACHE)/patched/obj/arch/x86/boot/bzImage ] || $(MAKE) --no-print-directory kernel
	@BENCH_PLATFORM='$(PLATFORM)' BENCH_COST_OUT='$(BENCH_COST_OUT)' \
		BENCH_COST_REPS='$(BENCH_COST_REPS)' BENCH_COST_ENTRY_SECONDS='$(BENCH_COST_ENTRY_SECONDS)' \
		BENCH_COST_POLICIES='$(BENCH_COST_POLICIES)' BENCH_COST_APPEND='$(BENCH_COST_APPEND)' \
		BENCH_COST_VARIANTS='$(BENCH_COST_VARIANTS)' BENCH_COST_KERNEL='$(BENCH_COST_KERNEL)' \
		BENCH_JOBS='$(BENCH_JOBS)' ./trace-scripts/bench/cost.sh

# The same policy in two runs, typically the series before and after a
# change (trace-scripts/bench/bench-compare.py says what "worse" means).
bench-compare: deps
	@[ -n "$(BEFORE)" ] && [ -n "$(AFTER)" ] || \
		{ echo "bench-compare: BEFORE=<run> AFTER=<run> (bench.json or its directory)" >&2; exit 2; }
	@./trace-scripts/bench/bench-compare.py $(if $(POLICY),--policy '$(POLICY)') \
		$(if $(LABELS),--labels '$(LABELS)') $(if $(TOLERANCE),--tolerance '$(TOLERANCE)') \
		'$(BEFORE)' '$(AFTER)'

# One boot: bucket-guest.sh traces one reader per disk, the host replays
# the predictor at each width (design/io-latency.md, "The bucket table").
bucket-table: deps
	@[ -f $(SIP_CACHE)/$(BUCKET_KERNEL)/obj/arch/x86/boot/bzImage ] || \
		$(MAKE) --no-print-directory kernel-$(BUCKET_KERNEL)
	@KERNEL=$(BUCKET_KERNEL) DISKS='$(BUCKET_DISKS)' RESULTS=$(BUCKET_OUT) TIMEOUT=900 \
		APPEND=sched_io_latency=device \
		CMD='sh /sip/trace-scripts/guest/bucket-guest.sh $(BUCKET_READS)' ./qemu/boot.sh
	@./trace-scripts/bench/bucket-table.py $(BUCKET_OUT)/bucket --json $(BUCKET_OUT)/table.json \
		> $(BUCKET_OUT)/table.md
	@cat $(BUCKET_OUT)/table.md

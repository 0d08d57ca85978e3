# SPDX-License-Identifier: GPL-2.0
#
# sched-idle-predict: every entry point. `make help` lists them.
#
# Built things live outside the checkout, in $(SIP_CACHE), so a fresh clone
# and CI reuse them (see design/contract.md).

SHELL := /bin/bash
.DEFAULT_GOAL := help

# The default is qemu/defaults.sh's, which the scripts source too.
SIP_CACHE ?= $(shell . ./qemu/defaults.sh && echo "$$SIP_CACHE")
SIP_LINUX ?= $(shell . ./qemu/defaults.sh && echo "$$SIP_LINUX")
export SIP_CACHE SIP_LINUX

# The start of the first make of the command line: the long targets print
# their progress as "[mm:ss] what" from it (qemu/progress.sh); recursive
# makes and the scripts inherit it.
ifeq ($(origin SIP_T0),undefined)
SIP_T0 := $(shell date +%s)
endif
export SIP_T0

# Host tools built from the checkout (mk/trace.mk has their rules). Defined
# here, before mk/*.mk are read, because other fragments (mk/bench.mk)
# name them as prerequisites, which make expands as it reads them.
SIP_TOOLS ?= $(SIP_CACHE)/tools
REPORT    := $(SIP_TOOLS)/sip-idle-report

KERNEL   ?= base
CMD      ?= uname -r
SMP      ?= 2
TIMEOUT  ?= 300
DISKS    ?=
APPEND   ?=
PLATFORM ?= x86-client
CLOCK    ?= virtual
RESULTS  ?= results/last
V        ?= 0
export KERNEL SMP TIMEOUT DISKS APPEND PLATFORM CLOCK RESULTS V

# CMD reaches the guest verbatim: make must not expand the $ in it, so it is
# passed by value, shell-quoted, instead of exported.
shq = '$(subst ','\'',$(1))'


# Kernel fragments: common.config for every kernel, <kernel>.config on top.
FRAGS = qemu/config/common.config $(wildcard qemu/config/$(1).config)

# need_kernel: a recipe line that builds KERNEL, or the kernel given
# ($(call need_kernel,base)), when it is base or patched and was never
# built; `make kernel` is the way to rebuild after a change.
need_kernel = k=$(or $(1),$(KERNEL)); \
	if [ ! -f $(SIP_CACHE)/$$k/obj/arch/x86/boot/bzImage ] && \
	    [ "$$k" = base -o "$$k" = patched ]; then \
		$(MAKE) --no-print-directory kernel-$$k; fi

HELP := \
	"run          the main job: trace a mixed workload on the patched kernel, report + plots" \
	"test         host checks and in-guest tests on both kernels; last line 'N passed, N failed'" \
	"deps         install the Debian packages the project needs (idempotent)" \
	"kernel       build the base (vanilla) and patched (base + series/) kernels" \
	"boot         boot KERNEL=base|patched, run CMD in the guest, exit with its status" \
	"             [SMP=2] [TIMEOUT=300] [DISKS='nvme hdd 100us'] [APPEND=...] [PLATFORM=x86-client|none]" \
	"             [CLOCK=virtual|real] [RESULTS=results/last] [V=1 prints the QEMU command]" \
	"             [DISK_COMPLETION=mq|scsi: how the DISKS end a request; mq: blk_mq_end_request()" \
	"             (default, qemu/defaults.sh); scsi: as SCSI and MMC, blk_update_request() then __blk_mq_end_request()]" \
	"disk-latency boot with DISKS (default: every profile) and report each disk's read latency" \
	"             [DISK_COMPLETION=mq|scsi as for boot]" \
	"clean        remove results/ (the cache in SIP_CACHE is kept)" \
	"distclean    also remove SIP_CACHE ($(SIP_CACHE))"

-include $(sort $(wildcard mk/*.mk))

.PHONY: help deps kernel kernel-tree kernel-base kernel-patched boot test disk-latency clean distclean

help:
	@echo "sched-idle-predict: make <target> [VAR=value]"
	@for l in $(HELP); do echo "  $$l"; done

deps:
	@./qemu/deps.sh

kernel-tree: deps
	@./qemu/progress.sh "kernel: preparing the trees ($(SIP_LINUX), series/)"
	@./qemu/kernel-tree.sh $(SIP_CACHE) series

kernel-base: kernel-tree
	@./qemu/progress.sh "kernel: building base in $(SIP_CACHE)/base/obj"
	@./qemu/build-kernel.sh $(SIP_CACHE)/base/src $(SIP_CACHE)/base/obj $(call FRAGS,base)
	@cp $(SIP_CACHE)/linux.version $(SIP_CACHE)/base/obj/linux.version

kernel-patched: kernel-tree
	@./qemu/progress.sh "kernel: building patched in $(SIP_CACHE)/patched/obj"
	@./qemu/build-kernel.sh $(SIP_CACHE)/patched/src $(SIP_CACHE)/patched/obj $(call FRAGS,patched)
	@cp $(SIP_CACHE)/linux.version $(SIP_CACHE)/patched/obj/linux.version

kernel: kernel-base kernel-patched
	@echo "kernel: base $$(cat $(SIP_CACHE)/base/obj/kernelrelease), patched $$(cat $(SIP_CACHE)/patched/obj/kernelrelease), from $$(cat $(SIP_CACHE)/linux.version)"

boot: deps
	@+$(need_kernel)
	@CMD=$(call shq,$(value CMD)) ./qemu/boot.sh

# PLATFORM=none: no idle-state exit latency in what the reads measure.
disk-latency: deps
	@DISKS="$${DISKS:-nvme sata-ssd emmc sd hdd 0}" PLATFORM=none \
		CMD='for d in /dev/emud*; do disklat $$d 10000; done; cat /sys/kernel/debug/emu_disk/stats' \
		./qemu/boot.sh

test: deps
	@./tests/run.sh

clean:
	rm -rf results

distclean: clean
	rm -rf $(SIP_CACHE)

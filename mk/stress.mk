# SPDX-License-Identifier: GPL-2.0
#
# Reliability (design/reliability.md): the full stress suite
# (tests/stress/stress.sh full) on the debug kernel "patched-debug": the
# patched sources built with qemu/config/debug.config on top (lockdep,
# KASAN, kmemleak, list and object debugging). The short form of the same
# suite is a `make test` guest test (tests/guest/62-stress-short.t).
#
# patched-debug/src is a link to patched/src: the debug kernel is always the
# series as `make kernel` applied it, with its own objects.

# STRESS_KERNEL=base runs the same suite on the vanilla tree with the same
# debug options: the control for anything the patched run reports.
STRESS_KERNEL ?= patched
DEBUG_KERNEL  := $(STRESS_KERNEL)-debug
# The same suite on PREEMPT_RT (qemu/config/rt.config): a kernel of its
# own, "patched-rt" (or "base-rt", the control), with its own objects.
RT_KERNEL     := $(STRESS_KERNEL)-rt
STRESS_SMP    ?= 4
STRESS_MEM    ?= 2G
STRESS_DISKS  ?= 100us 500us 2ms
STRESS_FORM   ?= full
# The debug kernel is so slow that ACPI's PCI interrupt routing (_PRT) hits
# the AML loop timeout (30 s; seen at 38 s of guest time in virtual time
# too) and the boot does not reach userspace; pci=noacpi routes PCI
# interrupts from the PIRQ table instead. It also leaves the HPET's pins
# without I/O APIC routing, so the emulated disks complete on hrtimers
# (qemu/emu-disk): right for a reliability run, which measures nothing.
# rcutree.kthread_prio=1: RCU's kthreads at SCHED_FIFO 1 (tests/stress/stress.sh
# says why).
STRESS_APPEND ?= pci=noacpi rcutree.kthread_prio=1
# The RT kernel boots at the speed of a production one: no pci=noacpi.
STRESS_APPEND_RT ?= rcutree.kthread_prio=1
# e.g. STRESS_ENV='STRESS_HOTPLUG=100 STRESS_IO_S=30' (see tests/stress/stress.sh)
STRESS_ENV    ?=
STRESS_TIMEOUT ?= 3600
STRESS_RESULTS ?= results/stress

HELP += \
	"stress       the full reliability suite on the debug kernel (rebuilt if the series changed): 1000 tasks in IO," \
	"             fork storm + kmemleak, 500 CPU hotplug cycles, PM QoS and state flapping, driver reload" \
	"             [STRESS_FORM=full|short] [STRESS_SMP=4] [STRESS_MEM=2G] [STRESS_RESULTS=results/stress]" \
	"             [STRESS_KERNEL=patched|base: base is the control, the vanilla tree with the same debug options];" \
	"             then the same suite on PREEMPT_RT ($(RT_KERNEL)); results in STRESS_RESULTS and STRESS_RESULTS-rt" \
	"stress-debug the suite on the debug kernel only;  stress-rt  on the PREEMPT_RT kernel only" \
	"kernel-debug (re)build the debug kernel $(DEBUG_KERNEL) ($(STRESS_KERNEL) + qemu/config/debug.config)" \
	"kernel-rt    (re)build the PREEMPT_RT kernel $(RT_KERNEL) ($(STRESS_KERNEL) + qemu/config/rt.config)" \
	"kselftest    the tree's timers, cpu-hotplug and ftrace selftests on base and patched: table in results/kselftest"

.PHONY: stress stress-debug stress-rt kernel-debug kernel-rt kselftest

# The selftests are built against both kernels' trees and boot both.
kselftest: deps
	@+$(call need_kernel,base)
	@+$(call need_kernel,patched)
	@./tests/host/kselftest.sh results/kselftest

# stress_kernel <name> <fragment>: build <name> from $(STRESS_KERNEL)'s
# sources (a link to them) with <fragment> merged last, objects of its own.
define stress_kernel
	@mkdir -p $(SIP_CACHE)/$(1)
	@[ -e $(SIP_CACHE)/$(1)/src ] || ln -s ../$(STRESS_KERNEL)/src $(SIP_CACHE)/$(1)/src
	@./qemu/progress.sh "kernel: building $(1) in $(SIP_CACHE)/$(1)/obj"
	@nice -n 10 ./qemu/build-kernel.sh $(SIP_CACHE)/$(1)/src $(SIP_CACHE)/$(1)/obj \
		$(call FRAGS,$(STRESS_KERNEL)) $(2)
endef

kernel-rt: kernel-tree
	$(call stress_kernel,$(RT_KERNEL),qemu/config/rt.config)

kernel-debug: kernel-tree
	$(call stress_kernel,$(DEBUG_KERNEL),qemu/config/debug.config)

# stress_run <kernel> <results> <append>: boot <kernel> with the suite and
# check its TAP (5 phases, none failed).
define stress_run
	@mkdir -p $(2)
	@./qemu/progress.sh "stress: booting $(1) (SMP=$(STRESS_SMP)), the $(STRESS_FORM) suite; one line per phase"
	@MEM=$(STRESS_MEM) KERNEL=$(1) SMP=$(STRESS_SMP) APPEND='$(3)' \
		DISKS='$(STRESS_DISKS)' TIMEOUT=$(STRESS_TIMEOUT) RESULTS=$(2) \
		CMD='$(STRESS_ENV) /sip/tests/stress/stress.sh $(STRESS_FORM) | tee /results/stress.tap' \
		./qemu/boot.sh 2> $(2).err | tee $(2).out | \
		grep --line-buffered -aE '^(not )?ok |^# |^1\.\.|^Bail' | ./qemu/progress.sh; \
		rc=$${PIPESTATUS[0]}; \
		[ -s $(2).err ] && cat $(2).err; \
		if [ $$rc = 0 ] && ! grep -aq '^not ok' $(2)/stress.tap && \
		   [ "$$(grep -ac '^ok ' $(2)/stress.tap)" = 5 ]; then \
			./qemu/progress.sh "stress: passed ($(1), console in $(2)/console.log)"; \
		else ./qemu/progress.sh "stress: FAILED on $(1) (boot status $$rc; console in $(2)/console.log)"; exit 1; fi
endef

# The kernels are rebuilt every time: the series may have changed since
# the last build (an unchanged tree costs one incremental make).
stress: stress-debug stress-rt

stress-debug: deps kernel-debug
	$(call stress_run,$(DEBUG_KERNEL),$(STRESS_RESULTS),$(STRESS_APPEND))

stress-rt: deps kernel-rt
	$(call stress_run,$(RT_KERNEL),$(STRESS_RESULTS)-rt,$(STRESS_APPEND_RT))

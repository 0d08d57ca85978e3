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
DEBUG_OBJ     := $(SIP_CACHE)/$(DEBUG_KERNEL)/obj
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
# e.g. STRESS_ENV='STRESS_HOTPLUG=100 STRESS_IO_S=30' (see tests/stress/stress.sh)
STRESS_ENV    ?=
STRESS_TIMEOUT ?= 3600
STRESS_RESULTS ?= results/stress

HELP += \
	"stress       the full reliability suite on the debug kernel (rebuilt if the series changed): 1000 tasks in IO," \
	"             fork storm + kmemleak, 500 CPU hotplug cycles, PM QoS and state flapping, driver reload" \
	"             [STRESS_FORM=full|short] [STRESS_SMP=4] [STRESS_MEM=2G] [STRESS_RESULTS=results/stress]" \
	"             [STRESS_KERNEL=patched|base: base is the control, the vanilla tree with the same debug options]" \
	"kernel-debug (re)build the debug kernel $(DEBUG_KERNEL) ($(STRESS_KERNEL) + qemu/config/debug.config)" \
	"kselftest    the tree's timers, cpu-hotplug and ftrace selftests on base and patched: table in results/kselftest"

.PHONY: stress kernel-debug kselftest

# The selftests are built against both kernels' trees and boot both.
kselftest: deps
	@+$(call need_kernel,base)
	@+$(call need_kernel,patched)
	@./tests/host/kselftest.sh results/kselftest

kernel-debug: kernel-tree
	@mkdir -p $(SIP_CACHE)/$(DEBUG_KERNEL)
	@[ -e $(SIP_CACHE)/$(DEBUG_KERNEL)/src ] || ln -s ../$(STRESS_KERNEL)/src $(SIP_CACHE)/$(DEBUG_KERNEL)/src
	@./qemu/progress.sh "kernel: building $(DEBUG_KERNEL) in $(DEBUG_OBJ)"
	@nice -n 10 ./qemu/build-kernel.sh $(SIP_CACHE)/$(DEBUG_KERNEL)/src $(DEBUG_OBJ) \
		$(call FRAGS,$(STRESS_KERNEL)) qemu/config/debug.config

# kernel-debug every time: the series may have changed since the last
# build (an unchanged tree costs one incremental make).
stress: deps kernel-debug
	@mkdir -p $(STRESS_RESULTS)
	@./qemu/progress.sh "stress: booting $(DEBUG_KERNEL) (SMP=$(STRESS_SMP)), the $(STRESS_FORM) suite; one line per phase"
	@MEM=$(STRESS_MEM) KERNEL=$(DEBUG_KERNEL) SMP=$(STRESS_SMP) APPEND='$(STRESS_APPEND)' \
		DISKS='$(STRESS_DISKS)' TIMEOUT=$(STRESS_TIMEOUT) RESULTS=$(STRESS_RESULTS) \
		CMD='$(STRESS_ENV) /sip/tests/stress/stress.sh $(STRESS_FORM) | tee /results/stress.tap' \
		./qemu/boot.sh 2> $(STRESS_RESULTS).err | tee $(STRESS_RESULTS).out | \
		grep --line-buffered -aE '^(not )?ok |^# |^1\.\.|^Bail' | ./qemu/progress.sh; \
		rc=$${PIPESTATUS[0]}; \
		[ -s $(STRESS_RESULTS).err ] && cat $(STRESS_RESULTS).err; \
		if [ $$rc = 0 ] && ! grep -aq '^not ok' $(STRESS_RESULTS)/stress.tap && \
		   [ "$$(grep -ac '^ok ' $(STRESS_RESULTS)/stress.tap)" = 5 ]; then \
			./qemu/progress.sh "stress: passed ($(DEBUG_KERNEL), console in $(STRESS_RESULTS)/console.log)"; \
		else ./qemu/progress.sh "stress: FAILED (boot status $$rc; console in $(STRESS_RESULTS)/console.log)"; exit 1; fi

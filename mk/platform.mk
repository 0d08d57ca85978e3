# SPDX-License-Identifier: GPL-2.0
#
# The test bed's guest modules, built out of the checkout in
# $(SIP_CACHE)/<kernel>/modules/<module>/ and put in every initramfs
# (/lib/modules) by qemu/mkinitramfs.sh:
# - qemu/emu-idle (design/platform.md): a cpuidle driver giving QEMU guests
#   idle states copied from real hardware, with emulated exit latency and a
#   per-CPU energy model;
# - qemu/emu-disk (design/testbed.md): block devices whose completions are
#   HPET interrupts after a latency drawn from a device profile, in the
#   guest's clock.

EMU_MODULES := emu-idle emu-disk
emu_out = $(SIP_CACHE)/$(KERNEL)/modules/$(1)
emu_name = $(subst -,_,$(1))

HELP += \
	"emu-idle     build the emulated idle platform module for KERNEL (base|patched)" \
	"             into SIP_CACHE/KERNEL/modules/emu-idle/emu_idle.ko" \
	"emu-disk     build the emulated disk module for KERNEL, likewise (emu_disk.ko)" \
	"emu-idle-check, emu-disk-check  checkpatch --strict on the module, then build it without warnings" \
	"platform-test   the platform's guest tests only (make test TESTS='*platform*')"

.PHONY: $(EMU_MODULES) $(EMU_MODULES:%=%-check) platform-test

# The module needs KERNEL's objects, its check base's checkpatch.pl: both
# are built first when they never were.
$(EMU_MODULES): deps
	@+$(need_kernel)
	@./qemu/build-module.sh qemu/$@ $(SIP_CACHE)/$(KERNEL)/obj $(call emu_out,$@)
	@echo "$@: $(call emu_out,$@)/$(call emu_name,$@).ko"

$(EMU_MODULES:%=%-check): %-check: deps
	@+$(need_kernel)
	@$(SIP_CACHE)/base/src/scripts/checkpatch.pl --strict --no-tree --quiet \
		-f qemu/$*/$(call emu_name,$*).c && echo "$*: checkpatch --strict clean"
	@rm -f $(call emu_out,$*)/$(call emu_name,$*).o
	@out=$$(./qemu/build-module.sh qemu/$* $(SIP_CACHE)/$(KERNEL)/obj $(call emu_out,$*) 2>&1); \
		[ -z "$$out" ] || echo "$$out"; [ -z "$$out" ] && echo "$*: builds for $(KERNEL) without warnings"

platform-test: deps
	@TESTS='*platform*' ./tests/run.sh

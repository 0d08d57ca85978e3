# SPDX-License-Identifier: GPL-2.0
#
# The emulated idle platform (qemu/emu-idle, design/platform.md): an
# out-of-tree cpuidle driver giving QEMU guests idle states copied from real
# hardware, with emulated exit latency and a per-CPU energy model. The
# module is built out of the checkout, in $(SIP_CACHE)/<kernel>/modules/,
# and qemu/mkinitramfs.sh puts it in every initramfs (/lib/modules).

EMU_IDLE_OUT = $(SIP_CACHE)/$(KERNEL)/modules/emu-idle

HELP += \
	"emu-idle     build the emulated idle platform module for KERNEL (base|patched)" \
	"             into SIP_CACHE/KERNEL/modules/emu-idle/emu_idle.ko" \
	"emu-idle-check  checkpatch --strict on the module, then build it without warnings" \
	"platform-test   the platform's guest tests only (make test TESTS='*platform*')"

.PHONY: emu-idle emu-idle-check platform-test

emu-idle:
	@./qemu/emu-idle/build.sh $(SIP_CACHE)/$(KERNEL)/obj $(EMU_IDLE_OUT)
	@echo "emu-idle: $(EMU_IDLE_OUT)/emu_idle.ko"

emu-idle-check:
	@$(SIP_CACHE)/base/src/scripts/checkpatch.pl --strict --no-tree --quiet \
		-f qemu/emu-idle/emu_idle.c && echo "emu-idle: checkpatch --strict clean"
	@rm -f $(EMU_IDLE_OUT)/emu_idle.o
	@out=$$(./qemu/emu-idle/build.sh $(SIP_CACHE)/$(KERNEL)/obj $(EMU_IDLE_OUT) 2>&1); \
		[ -z "$$out" ] || echo "$$out"; [ -z "$$out" ] && echo "emu-idle: builds for $(KERNEL) without warnings"

platform-test: deps
	@TESTS='*platform*' ./tests/run.sh

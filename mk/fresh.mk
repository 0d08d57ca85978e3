# SPDX-License-Identifier: GPL-2.0
#
# `make fresh-root-test`: every target must work first time on a machine
# with nothing installed and an empty SIP_CACHE. tests/host/make-first-run.t
# checks that from make's database; this checks it for real, in a Debian 12
# root made by debootstrap with nothing but make, where FRESH_TARGETS run
# one after the other through chroot (tests/host/fresh-root.sh). Opt-in,
# not part of make test: it needs root and the network, downloads every
# package of qemu/deps.sh and builds both kernels in the root.
# FRESH_CCACHE lends the root a ccache directory for the kernel builds.

FRESH_ROOT    ?= /var/tmp/sip-fresh-root
FRESH_TARGETS ?= run
FRESH_CCACHE  ?=

HELP += \
	"fresh-root-test debootstrap a Debian 12 root with only make in it, run make FRESH_TARGETS there by chroot (TAP)" \
	"             [FRESH_TARGETS='run' ('run test': both; 'bench,QUICK=1': make bench QUICK=1)] [FRESH_ROOT=$(FRESH_ROOT)] [FRESH_CCACHE=dir]"

.PHONY: fresh-root-test

# No deps: the host needs only debootstrap, which the script installs.
fresh-root-test:
	@FRESH_CCACHE='$(FRESH_CCACHE)' ./tests/host/fresh-root.sh '$(FRESH_ROOT)' $(FRESH_TARGETS)

# SPDX-License-Identifier: GPL-2.0
#
# The defaults the host's entry points share, in one place: sourced by the
# scripts (bash or sh) and read by the Makefile, which asks a shell to
# source it. An environment variable that is already set wins.
#
#	. qemu/defaults.sh              (from the top of the checkout)
#
# SIP_CACHE: everything built (sources, objects, modules, guest tools,
# ccache), outside the checkout so that clones and CI share it
# (design/contract.md).
# SIP_LINUX: the Debian package whose tree the series applies to (its
# /usr/src/<package>.tar.xz); make deps installs it, kernel-tree.sh
# extracts it.
# SIP_TEST_OUT: what make test keeps (TAP, logs, the tests' guest runs),
# relative to the checkout.
# SIP_SUBJECT_PREFIX: the subject prefix of the series' patches
# (export-series.sh, git format-patch --subject-prefix): the revision.

: "${SIP_CACHE:=$HOME/.cache/sched-idle-predict}"
: "${SIP_LINUX:=linux-source-6.12}"
: "${SIP_TEST_OUT:=results/test}"
: "${SIP_SUBJECT_PREFIX:=RFC PATCH v9}"
export SIP_CACHE SIP_LINUX SIP_TEST_OUT SIP_SUBJECT_PREFIX

# DISK_COMPLETION: how the emulated disks end a request (emu_disk's
# completion=, qemu/boot.sh passes it on): mq, blk_mq_end_request(), or
# scsi, blk_update_request() then __blk_mq_end_request() as SCSI and MMC do.
: "${DISK_COMPLETION:=mq}"

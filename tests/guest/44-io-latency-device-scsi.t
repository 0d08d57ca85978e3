#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=x86-client SMP=2 DISKS=2ms,100us APPEND=sched_io_latency=device DISK_COMPLETION=scsi TIMEOUT=300
# SPDX-License-Identifier: GPL-2.0
#
# IO latency per device on disks that end their requests as SCSI and MMC
# do, blk_update_request() and then __blk_mq_end_request(), where the
# bios complete and wake the reader before the request ends: the checks
# of io-latency-device.sh.
. /sip/tests/guest/io-latency-device.sh

#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=x86-client SMP=2 DISKS=2ms,100us APPEND=sched_io_latency=device TIMEOUT=300
# SPDX-License-Identifier: GPL-2.0
#
# IO latency per device on disks that end their requests with
# blk_mq_end_request(), as NVMe and virtio-blk do: the checks of
# io-latency-device.sh.
. /sip/tests/guest/io-latency-device.sh

#!/bin/sh
# sip-boot: KERNEL=patched PLATFORM=x86-client SMP=2 DISKS=100us,500us,2ms TIMEOUT=400
# SPDX-License-Identifier: GPL-2.0
#
# The short form of the reliability suite (tests/stress/stress.sh, about
# 15 s of guest time, 2-3 minutes of host time): 200 tasks in IO at once on three disks with PM QoS
# flapping and idle states flipping, a fork/exit storm while tasks wait for
# IO, 10 CPU hotplug cycles and 4 rmmod/insmod cycles of the idle driver
# under IO. `make stress` runs the full form on the debug kernel.
exec /sip/tests/stress/stress.sh short

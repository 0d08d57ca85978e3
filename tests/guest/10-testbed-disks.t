#!/bin/sh
# sip-boot: KERNEL=base PLATFORM=none DISKS=0,100us,2ms TIMEOUT=120
#
# The emulated disks exist in the configured order and their measured
# O_DIRECT latencies are ordered like the configured ones; the 0 ns disk
# measures the harness's own overhead.
echo "1..4"
n=0
for d in vda vdb vdc; do
	[ -b /dev/$d ] && n=$((n + 1))
done
[ $n = 3 ] && echo "ok 1 - three emulated disks" || echo "not ok 1 - three emulated disks (found $n)"
[ "$(cat /sys/block/vdd/serial)" = sipresults ] && echo "ok 2 - results disk comes after the emulated disks" ||
	echo "not ok 2 - results disk comes after the emulated disks"
m0=$(disklat /dev/vda 300 | sed 's/.*mean_us=\([0-9]*\).*/\1/')
m1=$(disklat /dev/vdb 300 | sed 's/.*mean_us=\([0-9]*\).*/\1/')
m2=$(disklat /dev/vdc 300 | sed 's/.*mean_us=\([0-9]*\).*/\1/')
echo "# mean latency: 0ns disk (harness overhead) ${m0}us, 100us disk ${m1}us, 2ms disk ${m2}us"
[ "$m0" -lt "$m1" ] && [ "$m1" -lt "$m2" ] && echo "ok 3 - latencies ordered 0 < 100us < 2ms" ||
	echo "not ok 3 - latencies ordered 0 < 100us < 2ms"
# The 2 ms disk cannot complete faster than configured.
[ "$m2" -ge 2000 ] && echo "ok 4 - 2ms disk mean >= 2000us" || echo "not ok 4 - 2ms disk mean >= 2000us"

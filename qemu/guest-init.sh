#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the test guest. Mounts the pseudo filesystems, brings the CPUs
# the kernel booted without online (qemu/boot.sh boots with maxcpus=1),
# loads the emulated idle platform and the emulated disks, runs the command
# from /sip-cmd, reports its exit status on the console with the boot's
# nonce, writes /results to the results disk as a tar stream and reboots
# (QEMU runs with -no-reboot, so it exits).

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/usr/bin:/usr/sbin:/bin:/sbin HOME=/root
mkdir -p /proc /sys /dev /tmp /results /root /run
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
ln -sf /proc/self/fd /dev/fd 2>/dev/null

. /sip-env
export SIP_KERNEL SIP_PLATFORM SIP_SMP SIP_DISKS SIP_DISK_PROFILES SIP_DISK_COMPLETION SIP_CLOCK SIP_LINUX
say() { echo "sip-guest: $*"; }

rc=0
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -f "$c/online" ] || continue
	[ "$(cat "$c/online")" = 1 ] && continue
	echo 1 > "$c/online" || { say "cannot online ${c##*/}"; rc=125; }
done
if [ "$SIP_PLATFORM" != none ]; then
	if [ ! -f /lib/modules/emu_idle.ko ]; then
		say "PLATFORM=$SIP_PLATFORM but emu_idle.ko is not in the initramfs"
		rc=125
	elif ! insmod /lib/modules/emu_idle.ko profile="$SIP_PLATFORM"; then
		say "insmod emu_idle profile=$SIP_PLATFORM failed"
		rc=125
	fi
fi

# DISKS: emud0, emud1, ... in order (qemu/emu-disk, design/testbed.md),
# ending their requests as DISK_COMPLETION says (mq or scsi).
if [ $rc = 0 ] && [ -n "$SIP_DISK_PROFILES" ]; then
	if ! insmod /lib/modules/emu_disk.ko disks="$SIP_DISK_PROFILES" \
		completion="$SIP_DISK_COMPLETION"; then
		say "insmod emu_disk disks=$SIP_DISK_PROFILES completion=$SIP_DISK_COMPLETION failed"
		rc=125
	fi
fi

if [ $rc = 0 ]; then
	cd /sip
	sh /sip-cmd
	rc=$?
	cd /
fi
dmesg > /results/dmesg.log 2>/dev/null

res=
for b in /sys/block/vd*; do
	[ "$(cat "$b/serial" 2>/dev/null)" = sipresults ] && res=/dev/${b##*/}
done
if [ -n "$res" ]; then
	tar -c -f "$res" -C /results . || say "writing results to $res failed"
	sync
fi
echo "SIP-EXIT-$SIP_NONCE $rc"
reboot -f

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sip-boot: KERNEL=base,patched PLATFORM=none SMP=2 DISKS=nvme,sd DISK_COMPLETION=scsi TIMEOUT=300
#
# The emulated disks ending their requests as SCSI and MMC do
# (DISK_COMPLETION=scsi, emu_disk's completion=scsi): blk_update_request()
# for all the bytes, which ends the bios and wakes their waiter, then
# __blk_mq_end_request(). The mode reaches the module and is reported; data
# written reads back the same, by O_DIRECT and through the page cache, and
# never-written sectors read as zeroes; the block layer accounts every
# request once (its counters as many reads and sectors as were issued, none
# left in flight) and emu_disk ended every request it started; reads take
# their profile's time; an error status reaches the writer; a bad mode is
# refused with nothing registered, and mq loads again. PLATFORM=none: no
# idle-state exit latency in the read latency.
. /sip/tests/guest/platform-lib.sh
plan 13
D=/sys/kernel/debug/emu_disk
KO=/lib/modules/emu_disk.ko
SCSI_LINE='# completion scsi: blk_update_request(), then __blk_mq_end_request()'

# stat_of <disk> <field>: a field of /sys/block/<disk>/stat (1 reads,
# 3 sectors read, 5 writes, 9 in flight).
stat_of() { awk -v f="$2" '{ print $f }' /sys/block/$1/stat; }
# emu_of <disk> <field>: a field of the disk's line in debugfs stats
# (3 issued, 4 completed).
emu_of() { awk -v d="$1" -v f="$2" '$1 == d { print $f }' $D/stats; }
# ended <disk>...: every request emu_disk started was ended, and the block
# layer has none in flight.
ended() {
	for e; do
		[ "$(emu_of $e 3)" = "$(emu_of $e 4)" ] && [ "$(stat_of $e 9)" = 0 ] || return 1
	done
}

# 1. The mode, from the host's variable to the module's report.
is "the guest environment has DISK_COMPLETION=scsi" scsi "$SIP_DISK_COMPLETION"
is "emu_disk loaded with completion=scsi" scsi "$(cat /sys/module/emu_disk/parameters/completion)"
is "debugfs stats names the mode" "$SCSI_LINE" "$(sed -n 2p $D/stats)"

# 2. O_DIRECT round trip on emud0 (nvme): 1 MiB in 16 requests of 64 KiB
# at 8 MiB, read back and compared; the reads counted once each.
dd if=/dev/urandom of=/tmp/data bs=64k count=16 2>/dev/null
dd if=/tmp/data of=/dev/emud0 bs=64k seek=128 oflag=direct conv=fsync 2>/dev/null
r0=$(stat_of emud0 1) s0=$(stat_of emud0 3) c0=$(emu_of emud0 4)
dd if=/dev/emud0 of=/tmp/back bs=64k skip=128 count=16 iflag=direct 2>/dev/null
check "O_DIRECT: 1 MiB written to emud0 reads back the same" cmp -s /tmp/data /tmp/back
r1=$(stat_of emud0 1) s1=$(stat_of emud0 3) c1=$(emu_of emud0 4)
diag "emud0 16 reads: block layer +$((r1 - r0)) reads, +$((s1 - s0)) sectors; emu_disk +$((c1 - c0)) completed"
check_sh "the block layer accounted 16 reads of 2048 sectors, emu_disk ended 16 requests" \
	'[ $((r1 - r0)) = 16 ] && [ $((s1 - s0)) = 2048 ] && [ $((c1 - c0)) = 16 ]'

# 3. Through the page cache on emud1 (sd): 4 MiB written, the cache
# dropped, read back by readahead (large, merged requests of several bios).
dd if=/dev/urandom of=/tmp/data4 bs=64k count=64 2>/dev/null
dd if=/tmp/data4 of=/dev/emud1 bs=64k seek=16 conv=fsync 2>/dev/null
sync
echo 3 > /proc/sys/vm/drop_caches
r0=$(stat_of emud1 1)
dd if=/dev/emud1 of=/tmp/back4 bs=64k skip=16 count=64 2>/dev/null
r1=$(stat_of emud1 1)
diag "emud1 buffered 4 MiB: $((r1 - r0)) read requests"
check_sh "buffered: 4 MiB written to emud1 reads back the same, from the disk" \
	'cmp -s /tmp/data4 /tmp/back4 && [ $((r1 - r0)) -gt 0 ]'

dd if=/dev/emud0 of=/tmp/hole bs=64k skip=1024 count=4 iflag=direct 2>/dev/null
dd if=/dev/zero of=/tmp/zero bs=64k count=4 2>/dev/null
check "never-written sectors read as zeroes" cmp -s /tmp/zero /tmp/hole

# 4. Reads take the profile's time: nvme's p50 is 68 us, within 10 %.
r=$(disklat /dev/emud0 2000)
diag "scsi completion: $r"
check_sh "nvme read p50 within 10 % of 68 us" \
	"[ $(field p50_us "$r") -ge 61 ] && [ $(field p50_us "$r") -le 75 ]"
check "every request ended, none in flight (emud0, emud1)" ended emud0 emud1

# 5. A bad mode: refused, a message naming it, nothing registered.
check "rmmod with no IO in flight" rmmod emu_disk
dmesg -c > /dev/null
insmod $KO disks=nvme completion=bogus 2> /tmp/insmod.err
rc=$?
check_sh "completion=bogus: EINVAL, 'completion=bogus: must be mq' in the log, no disk, no module" \
	'[ $rc != 0 ] && grep -q "Invalid argument" /tmp/insmod.err &&
	 dmesg | grep -qF "completion=bogus: must be mq" && [ ! -e /dev/emud0 ] &&
	 [ ! -d /sys/module/emu_disk ]'

# 6. An error status in scsi mode: a store of 1 MiB cannot take 2 MiB of
# O_DIRECT writes; the writer sees the failure and the request still ends.
insmod $KO disks=nvme completion=scsi mem_mb=1
dd if=/dev/urandom of=/dev/emud0 bs=64k count=32 oflag=direct 2> /tmp/dd.err
rc=$?
diag "dd into a full store: status $rc, $(tail -1 /tmp/dd.err)"
check_sh "a failed write reaches the writer, its request ended" \
	'[ $rc != 0 ] && grep -q "No space left" /tmp/dd.err && ended emud0'
rmmod emu_disk

# 7. mq again: the default mode reported, the round trip still right.
insmod $KO disks=nvme completion=mq
dd if=/tmp/data of=/dev/emud0 bs=64k oflag=direct conv=fsync 2>/dev/null
dd if=/dev/emud0 of=/tmp/back bs=64k count=16 iflag=direct 2>/dev/null
check_sh "completion=mq: stats say so, 1 MiB reads back the same, every request ended" \
	'[ "$(sed -n 2p $D/stats)" = "# completion mq: blk_mq_end_request()" ] &&
	 cmp -s /tmp/data /tmp/back && ended emud0'

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel under QEMU (TCG), run one command in the guest, stream the
# console, and exit with the command's exit status.
#
# Environment: KERNEL CMD SMP TIMEOUT DISKS DISK_COMPLETION APPEND PLATFORM
# CLOCK RESULTS MEM V GUEST_BENCH_TOOLS (see `make help`; DISK_COMPLETION's default is in
# qemu/defaults.sh). A guest that panics, oopses, WARNs, hangs or runs past
# TIMEOUT fails with a one-line reason on stderr and a non-zero status:
#   124 timeout, 125 guest setup failed, 126 kernel died (panic/oops/WARN),
#   127 guest ended without reporting an exit status.
set -u

KERNEL=${KERNEL:-base}
CMD=${CMD:-true}
SMP=${SMP:-2}
TIMEOUT=${TIMEOUT:-300}
DISKS=${DISKS:-}
APPEND=${APPEND:-}
PLATFORM=${PLATFORM:-x86-client}
CLOCK=${CLOCK:-virtual}
MEM=${MEM:-1G}
V=${V:-0}
. "$(dirname "$0")/defaults.sh"
cache=$SIP_CACHE
RESULTS=${RESULTS:-results/last}

fail() { echo "boot: $1" >&2; exit "${2:-125}"; }

case "$SMP" in [1-8]) ;; *) fail "SMP=$SMP: must be 1..8" ;; esac
case "$TIMEOUT" in ''|*[!0-9]*) fail "TIMEOUT=$TIMEOUT: must be seconds" ;; esac
case "$CLOCK" in virtual|real) ;; *) fail "CLOCK=$CLOCK: must be virtual or real" ;; esac
# How the emulated disks end a request: emu_disk's completion= (qemu/emu-disk).
case "$DISK_COMPLETION" in mq|scsi) ;; *) fail "DISK_COMPLETION=$DISK_COMPLETION: must be mq or scsi" ;; esac
kimg=$cache/$KERNEL/obj/arch/x86/boot/bzImage
[ -f "$kimg" ] || fail "no kernel $KERNEL ($kimg); run make kernel"

# DISKS entries become emu_disk profiles (qemu/emu-disk): a profile name as
# it is, a bare latency ("100us", "2ms", "500000ns", "0") as fixed:<ns>.
disk_profile() {
	local v=$1 n m
	case "$v" in
	*ns) n=${v%ns}; m=1 ;;
	*us) n=${v%us}; m=1000 ;;
	*ms) n=${v%ms}; m=1000000 ;;
	0) n=0; m=1 ;;
	*[!a-z0-9:.-]*|'') return 1 ;;
	*) echo "$v"; return 0 ;;
	esac
	case "$n" in ''|*[!0-9]*) return 1 ;; esac
	echo "fixed:$((n * m))ns"
}
profiles=
ndisks=0
for d in $DISKS; do
	p=$(disk_profile "$d") || fail "DISKS entry '$d': expected a profile name (emu_disk checks it) or a latency (100us, 2ms, 500000ns)"
	profiles+=${profiles:+,}$p
	ndisks=$((ndisks + 1))
done
[ $ndisks -le 8 ] || fail "at most 8 DISKS"

run=$(mktemp -d /tmp/sip-boot.XXXXXX)
trap 'rm -rf "$run"' EXIT
./qemu/mkinitramfs.sh "$KERNEL" "$run/base.cpio" || fail "initramfs for $KERNEL failed"
nonce=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')

# The per-boot part of the initramfs: the command and its environment,
# appended as a second cpio archive (the kernel unpacks both).
mkdir -p "$run/cpio"
printf '%s\n' "$CMD" > "$run/cpio/sip-cmd"
{
	printf 'SIP_KERNEL=%q\nSIP_PLATFORM=%q\nSIP_SMP=%q\nSIP_DISKS=%q\nSIP_DISK_PROFILES=%q\nSIP_DISK_COMPLETION=%q\nSIP_CLOCK=%q\nSIP_NONCE=%q\nSIP_LINUX=%q\n' \
		"$KERNEL" "$PLATFORM" "$SMP" "$DISKS" "$profiles" "$DISK_COMPLETION" "$CLOCK" "$nonce" "$SIP_LINUX"
} > "$run/cpio/sip-env"
(cd "$run/cpio" && printf 'sip-cmd\nsip-env\n' | cpio -o -H newc --quiet) > "$run/cmd.cpio"
cat "$run/base.cpio" "$run/cmd.cpio" > "$run/initrd"

# The two clocks (design/testbed.md). virtual: one vCPU thread counts
# instructions, 1 ns each (-icount shift=0), and jumps over idle time to the
# next timer (sleep=off): the guest's timers, its TSC and the HPET all run
# on that count, so nothing the host does shows in guest time. Its boot
# brings up one CPU (maxcpus=1; the guest's init onlines the others) and
# lpj= gives the delay loop its calibration (a 1 GHz TSC at HZ=250), since
# calibrating stalls there. real: every vCPU its own host thread, guest
# time is host time; the same one-CPU boot keeps the two clocks' guests
# alike.
case "$CLOCK" in
virtual) accel=(-accel tcg -icount shift=0,sleep=off -seed 1
		-rtc base=2014-10-22T00:00:00,clock=vm) lpj=" lpj=4000000" ;;
real) accel=(-accel tcg,thread=multi) lpj= ;;
esac
# One HPET comparator per CPU raises the emulated disks' completions
# (qemu/emu-disk), each on its own I/O APIC pin, GSI 16 + CPU, so the
# kernel must leave the HPET alone. QEMU's pc machine offers the HPET only
# GSI 2 unless its intcap is set, and replaces any value whose low byte is
# 0 (it reads the property as a uint8_t), hence GSI 2 stays in the mask.
qemu=(qemu-system-x86_64 "${accel[@]}" -machine pc -cpu max
	-smp "$SMP" -m "$MEM" -nodefaults -no-user-config -no-reboot
	-display none -serial stdio -monitor none
	-global hpet.timers=$((SMP < 3 ? 3 : SMP)) -global hpet.hpet-intcap=0xff0004
	-kernel "$kimg" -initrd "$run/initrd"
	-drive "file=$run/results.img,format=raw,if=none,id=res,cache=unsafe"
	-device "virtio-blk-pci,drive=res,addr=0x1f,serial=sipresults")

cmdline="console=ttyS0 rdinit=/init panic=-1 oops=panic panic_on_warn=1"
cmdline+=" softlockup_panic=1 hung_task_panic=1 loglevel=4 tsc=reliable"
cmdline+=" hpet=disable maxcpus=1$lpj"
[ -n "$APPEND" ] && cmdline+=" $APPEND"
qemu+=(-append "$cmdline")

if [ "$V" = 1 ]; then
	printf 'boot: %q ' "${qemu[@]}"
	echo
fi

# The console is logged in the boot's own directory and judged from
# there; RESULTS is filled when the guest is gone, so two boots given the
# same RESULTS cannot read each other's console.
#
# Under multi-threaded TCG (CLOCK=real) a vCPU sometimes executes the int3 that x86 text
# patching (text_poke_bp(): tracepoints, jump labels, ftrace) leaves while
# it rewrites an instruction, after the patching CPU has finished and no
# longer claims it: the kernel dies with "int3: 0000 [#1]". It is a fault
# of the emulation, not of the guest (design/contract.md), and it happens
# when tracing is switched on, so such a boot is run once more, in the
# time TIMEOUT leaves, and says so on stderr. A kernel that really hits a
# stray int3 hits it again and fails.
timed_out() { [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; }
start=$(date +%s)
tries=1
while :; do
	rm -f "$run/results.img"
	truncate -s 256M "$run/results.img"
	left=$((TIMEOUT - ($(date +%s) - start)))
	timeout -k 5 "$left" "${qemu[@]}" </dev/null 2>"$run/qemu.err" |
		sed -u 's/\r$//' | tee "$run/console.log"
	qrc=${PIPESTATUS[0]}
	elapsed=$(($(date +%s) - start))
	if [ "$CLOCK" = real ] && [ $tries = 1 ] && ! timed_out &&
	   [ $((TIMEOUT - elapsed)) -ge 30 ] &&
	   grep -aq -E '^\[[ 0-9.]*\] int3: 0000 \[#1\]' "$run/console.log"; then
		cp "$run/console.log" "$run/console-int3.log"
		echo "boot: $KERNEL: int3 trap in text patching after ${elapsed}s (multi-threaded TCG); booting again" >&2
		tries=2
		continue
	fi
	break
done

rm -rf "$RESULTS"
mkdir -p "$RESULTS"
tar -xf "$run/results.img" -C "$RESULTS" 2>/dev/null
cp "$run/console.log" "$RESULTS/console.log"
[ -f "$run/console-int3.log" ] && cp "$run/console-int3.log" "$RESULTS/console-int3.log"
[ -s "$run/qemu.err" ] && cp "$run/qemu.err" "$RESULTS/qemu.err"
log=$RESULTS/console.log

# The exit status line carries this boot's nonce, so a command printing
# something similar cannot fake it.
status=$(grep -a "^SIP-EXIT-$nonce " "$run/console.log" | tail -1 | awk '{print $2}')
problem=$(grep -a -m1 -E 'Kernel panic|BUG:|Oops|WARNING:|general protection fault|INFO: task .* blocked|watchdog: BUG|KASAN|UBSAN|kmemleak: [0-9]+ new suspected' "$run/console.log" |
	sed 's/^\[[ 0-9.]*\] //')

if timed_out; then
	fail "$KERNEL: timeout after ${TIMEOUT}s${problem:+ ($problem)}" 124
fi
if [ -n "$problem" ]; then
	fail "$KERNEL: kernel reported: $problem (log: $log)" 126
fi
if [ -z "$status" ]; then
	err=$(head -c 300 "$run/qemu.err" | tr '\n' ' ')
	fail "$KERNEL: guest ended without an exit status after ${elapsed}s (qemu rc $qrc${err:+: $err}; log: $log)" 127
fi
[ "$status" != 0 ] && echo "boot: $KERNEL: command exited with status $status" >&2
exit "$status"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel under QEMU (TCG), run one command in the guest, stream the
# console, and exit with the command's exit status.
#
# Environment: KERNEL CMD SMP TIMEOUT DISKS APPEND PLATFORM RESULTS MEM V
# (see `make help`). A guest that panics, oopses, WARNs, hangs or runs past
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
MEM=${MEM:-1G}
V=${V:-0}
cache=${SIP_CACHE:=$HOME/.cache/sched-idle-predict}; export SIP_CACHE
RESULTS=${RESULTS:-results/last}

fail() { echo "boot: $1" >&2; exit "${2:-125}"; }

case "$SMP" in [1-8]) ;; *) fail "SMP=$SMP: must be 1..8" ;; esac
case "$TIMEOUT" in ''|*[!0-9]*) fail "TIMEOUT=$TIMEOUT: must be seconds" ;; esac
kimg=$cache/$KERNEL/obj/arch/x86/boot/bzImage
[ -f "$kimg" ] || fail "no kernel $KERNEL ($kimg); run make kernel"

# "100us" "2ms" "500000ns" "0" -> nanoseconds
to_ns() {
	local v=$1
	case "$v" in
	*ns) v=${v%ns}; m=1 ;;
	*us) v=${v%us}; m=1000 ;;
	*ms) v=${v%ms}; m=1000000 ;;
	0) v=0; m=1 ;;
	*) return 1 ;;
	esac
	case "$v" in ''|*[!0-9]*) return 1 ;; esac
	echo $((v * m))
}

run=$(mktemp -d /tmp/sip-boot.XXXXXX)
trap 'rm -rf "$run"' EXIT
./qemu/mkinitramfs.sh "$KERNEL" "$run/base.cpio" || fail "initramfs for $KERNEL failed"
nonce=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')

# The per-boot part of the initramfs: the command and its environment,
# appended as a second cpio archive (the kernel unpacks both).
mkdir -p "$run/cpio"
printf '%s\n' "$CMD" > "$run/cpio/sip-cmd"
{
	printf 'SIP_KERNEL=%q\nSIP_PLATFORM=%q\nSIP_SMP=%q\nSIP_DISKS=%q\nSIP_NONCE=%q\n' \
		"$KERNEL" "$PLATFORM" "$SMP" "$DISKS" "$nonce"
} > "$run/cpio/sip-env"
(cd "$run/cpio" && printf 'sip-cmd\nsip-env\n' | cpio -o -H newc --quiet) > "$run/cmd.cpio"
cat "$run/base.cpio" "$run/cmd.cpio" > "$run/initrd"

qemu=(qemu-system-x86_64 -accel tcg,thread=multi -machine pc -cpu max
	-smp "$SMP" -m "$MEM" -nodefaults -no-user-config -no-reboot
	-display none -serial stdio -monitor none
	-kernel "$kimg" -initrd "$run/initrd"
	-object iothread,id=iot0)

i=0
for d in $DISKS; do
	ns=$(to_ns "$d") || fail "DISKS entry '$d': expected e.g. 100us, 2ms, 500000ns"
	qemu+=(-blockdev "driver=null-aio,node-name=d$i,size=1073741824,latency-ns=$ns,read-zeroes=on"
		-device "virtio-blk-pci,drive=d$i,iothread=iot0,addr=$(printf '0x%x' $((0x10 + i))),serial=sipdisk$i")
	i=$((i + 1))
done
[ $i -le 8 ] || fail "at most 8 DISKS"
qemu+=(-drive "file=$run/results.img,format=raw,if=none,id=res,cache=unsafe"
	-device "virtio-blk-pci,drive=res,addr=0x1f,serial=sipresults")

cmdline="console=ttyS0 rdinit=/init panic=-1 oops=panic panic_on_warn=1"
cmdline+=" softlockup_panic=1 hung_task_panic=1 loglevel=4 tsc=reliable"
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
# Under multi-threaded TCG a vCPU sometimes executes the int3 that x86 text
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
	if [ $tries = 1 ] && ! timed_out &&
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

#!/bin/sh
# sip-boot: KERNEL=base PLATFORM=none SMP=2 DISKS=nvme,sata-ssd,emmc,sd,hdd,2ms,100us,500us TIMEOUT=300
#
# The emulated disks (qemu/emu-disk): present in the order of DISKS, each
# one's latency as a read in the guest measures it within 10 % of its
# profile at p50 and p99, several reads in flight completing in latency
# order, completions that are interrupts and not timers of the waiting
# CPU, bad parameters refused with a message and nothing changed, and the
# module removed and loaded again. PLATFORM=none: no idle-state exit
# latency is added to what the reads measure.
. /sip/tests/guest/platform-lib.sh
plan 17
D=/sys/kernel/debug/emu_disk
KO=/lib/modules/emu_disk.ko

n=0
for i in 0 1 2 3 4 5 6 7; do [ -b /dev/emud$i ] && n=$((n + 1)); done
check "eight emulated disks, emud0..emud7" [ $n = 8 ]
check "the results disk is vda" [ "$(cat /sys/block/vda/serial)" = sipresults ]
check "disks in DISKS order (emud4 hdd, emud5 fixed 2 ms)" \
	[ "$(awk '$1 == "emud4" { print $2 } $1 == "emud5" { print $2 }' $D/profiles | tr '\n' ' ')" = "hdd fixed:2000000ns " ]

# inband <profile line> <reads> <p> <measured_us>: the measured p-quantile
# of <reads> draws is within 10 % of the profile's quantile, widened by the
# sampling error of that many draws: between 0.9 Q(p - 3s) and 1.1 Q(p + 3s),
# s = sqrt(p (1 - p) / reads), the binomial standard error of the fraction
# of draws below a quantile. Q interpolates the profile's quantiles as the
# module does. On nvme's flat tail the band stays near +-10 %; on emmc's
# steep p99 (260 us, p99.9 600 us) it is wider.
inband() {
	echo "$1" | awk -v n="$2" -v p="$3" -v m="$4" '
	function root(v,   r, i) {	# busybox awk has no sqrt()
		r = v > 1 ? v : 1
		for (i = 0; i < 60; i++) r = (r + v / r) / 2
		return r
	}
	function q(x,   i) {
		x *= 100000
		if (x <= P[1]) return T[1]
		for (i = 2; i <= k; i++)
			if (x < P[i]) return T[i - 1] + (T[i] - T[i - 1]) * (x - P[i - 1]) / (P[i] - P[i - 1])
		return T[k]
	}
	{ for (i = 4; i <= NF; i++) { split($i, f, ":"); k++; P[k] = f[1]; T[k] = f[2] / 1000 } }
	END {
		s = root(p * (1 - p) / n)
		lo = 0.9 * q(p - 3 * s); hi = 1.1 * q(p + 3 * s)
		printf "%.0f..%.0f", lo, hi
		exit !(m >= lo && m <= hi)
	}'
}
# 2. Each profile's p50 and p99, 10000 reads.
for i in 0 1 2 3 4; do
	line=$(grep "^emud$i " $D/profiles)
	prof=$(echo "$line" | cut -d' ' -f2)
	r=$(disklat /dev/emud$i 10000)
	m50=$(field p50_us "$r") m99=$(field p99_us "$r")
	b50=$(inband "$line" 10000 0.5 "$m50"); ok50=$?
	b99=$(inband "$line" 10000 0.99 "$m99"); ok99=$?
	diag "$prof: measured p50 $m50 us (band $b50), p99 $m99 us (band $b99)"
	check_sh "$prof: p50 and p99 within 10 % of the profile" "[ $ok50 = 0 ] && [ $ok99 = 0 ]"
done

# 3. Reads to the 2 ms, 100 us and 500 us disks in flight at once end in
# latency order: 100 us (argument 1), 500 us (2), 2 ms (0).
o=$(diskorder /dev/emud5 /dev/emud6 /dev/emud7)
diag "diskorder 2ms 100us 500us: $o"
check "three reads in flight complete in latency order" [ "$o" = "order 1 2 0" ]

# 4. A completion is an interrupt of the emulated disk, never a timer of
# the CPU that waits: on the completing CPU, the last of the two events
# before each block_rq_complete is the emu_disk interrupt, not an hrtimer
# expiry. (The tick's expiries fall near some completions by chance; they
# are counted, not judged.)
cd /tmp
trace-cmd record -q -o /tmp/io.dat -e timer:hrtimer_expire_entry -e block:block_rq_complete \
	-e irq:irq_handler_entry disklat /dev/emud6 300 > /dev/null 2>&1
trace-cmd report -i /tmp/io.dat 2>/dev/null | awk '
	{ for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { cpu = substr($i, 2, length($i) - 2); t = $(i + 1); ev = $(i + 2); break }
	  sub(/:$/, "", t); sub(/:$/, "", ev) }
	ev == "hrtimer_expire_entry" { last[cpu] = "hrtimer"; hr_t[cpu] = t }
	ev == "irq_handler_entry" && /name=emu_disk/ { last[cpu] = "emu_disk"; irqs++ }
	ev == "block_rq_complete" { n++; if (last[cpu] != "emu_disk") bad++
		if ((cpu in hr_t) && t - hr_t[cpu] < 0.000020) near++ }
	END { printf "%d %d %d %d\n", n, irqs, bad, near }' > /tmp/io.sum
read -r ncomp nirq nbad nnear < /tmp/io.sum
diag "traced loop: $ncomp completions, $nirq emu_disk interrupts, $nbad not inside one, $nnear within 20 us of an hrtimer expiry on their CPU"
check_sh "each completion is an emu_disk interrupt" '[ "$ncomp" -ge 300 ] && [ "$nirq" -ge "$ncomp" ]'
check "no completion comes from an hrtimer of the completing CPU" [ "$nbad" = 0 ]

# 5. Bad parameters: refused with EINVAL and a message naming the problem,
# nothing changed (the loaded module keeps working).
bad() {	# <description> <expected dmesg text> <params...>
	desc=$1 want=$2; shift 2
	dmesg -c > /dev/null
	if insmod $KO "$@" 2> /tmp/insmod.err; then
		fail "$desc: accepted"
		rmmod emu_disk
		return
	fi
	check_sh "$desc: refused with EINVAL, '$want' in the log, no disk left" \
		"grep -q 'Invalid argument' /tmp/insmod.err && dmesg | grep -qF \"$want\" && [ ! -e /dev/emud0 ]"
}
rmmod emu_disk
check "rmmod with no IO in flight" [ ! -e /dev/emud0 ]
bad "unknown profile" "unknown profile 'ssd'" disks=nvme,ssd
bad "latency above 1 s" "'fixed:2000ms': expected" disks=fixed:2000ms
bad "irq_cpu beyond the CPUs" "irq_cpu=9: must be -1 or a CPU below" disks=nvme irq_cpu=9
check "insmod again" insmod $KO disks=fixed:100us,hdd
r=$(disklat /dev/emud0 200)
diag "after reload: $r"
check_sh "the reloaded disk reads at its latency (p50 within 10 %)" "[ $(field p50_us "$r") -ge 90 ] && [ $(field p50_us "$r") -le 110 ]"

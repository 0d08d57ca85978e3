#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sip-idle-report on bad input: a missing, empty, truncated or corrupt
# trace.dat, a trace without power:cpu_idle, a bad platform file. Each must
# give exit status 1 and exactly one line on stderr, never a crash. Run with
# the ASan/UBSan build (leaks inside libtraceevent/libtracecmd on corrupt
# input are suppressed, ours are not) and under valgrind memcheck.
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh
need_analyser analyser-tests
S=$TOOLS/sip-idle-report-san
scratch
keep=$SIP_TEST_OUT/analyser-robust
mkdir -p "$keep"
# Sanitizer reports go to files (the analyser silences stdout and stderr
# while libtracecmd reads) and exit with their own status, never 1.
# allocator_may_return_null: a corrupt size makes the library ask for
# petabytes; malloc returns NULL as it would without ASan. handle_segv=0:
# the trace libraries (not built with ASan) dereference wild pointers on
# some corrupt files, in the analyser's decoder process; that process must
# die of the signal so that the analyser reports the file as corrupt. ASan
# still checks every access the analyser's own code makes, and a signal in
# the process that runs the model fails the test (status -11).
mkdir "$tmp/san"
export ASAN_OPTIONS=allocator_may_return_null=1:handle_segv=0:handle_sigbus=0:exitcode=86:log_path=$tmp/san/asan
export UBSAN_OPTIONS=exitcode=87:print_stacktrace=1:log_path=$tmp/san/ubsan
export LSAN_OPTIONS=suppressions=$PWD/tests/host/analyser-lsan.supp:print_suppressions=0


# fails_cleanly <binary> <description> <expected message part> args...:
# status 1, one line on stderr naming the problem, nothing on stdout.
fails_cleanly() {
	local bin=$1 what=$2 msg=$3 rc lines
	shift 3
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ $rc = 1 ] && [ "$lines" = 1 ] && grep -q -- "$msg" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok 0 "$what: $(cat "$tmp/err")"
	else
		ok 1 "$what: status $rc, $lines stderr lines: $(head -c 300 "$tmp/err" | tr '\n' '|')"
	fi
}

synth() {	# <name> <script text>
	printf '%s\n' "$2" > "$tmp/$1.txt"
	python3 tests/data/synth-trace.py "$tmp/$1.txt" "$tmp/$1.dat"
}

: > "$tmp/empty.dat"
mkfifo "$tmp/fifo"
head -c 3000 $D/base.dat > "$tmp/cut-head.dat"
head -c 9000 $D/base.dat > "$tmp/cut-data.dat"
head -c $(( $(stat -c %s $D/base.dat) - 1 )) $D/base.dat > "$tmp/cut-last.dat"
printf 'not a trace at all\n' > "$tmp/text.dat"
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[0:10] = b"\x17\x08\x44tracinX"; open(sys.argv[2], "wb").write(b)' \
	$D/base.dat "$tmp/magic.dat"
synth nofmt "%omit cpu_idle
1000 0 sched_switch prev_pid=0 next_pid=1"
synth noevents "1000 0 sched_switch prev_pid=0 next_pid=1"
printf 'sip-platform 1\nlatency_limit_us none\nstate 1 C1 1 1 1 1 enabled\n' > "$tmp/badplat.txt"
# A control byte in a line (here GS, 0x1d) must not reach the message raw.
printf 'sip-platform 1\nlaten\035cy_limit_us none\n' > "$tmp/ctlplat.txt"
printf 'sip-platform 1\nplatform my/laptop\n' > "$tmp/nameplat.txt"

for bin in "$R" "$S"; do
	b=$(basename "$bin")
	fails_cleanly "$bin" "$b: missing file" "No such file" "$tmp/nonexistent.dat"
	fails_cleanly "$bin" "$b: a directory" "Is a directory" "$tmp"
	fails_cleanly "$bin" "$b: a FIFO" "not a regular file" "$tmp/fifo"
	fails_cleanly "$bin" "$b: --cpu-limit not a number" "seconds from 0" --cpu-limit 1s $D/base.dat
	fails_cleanly "$bin" "$b: empty file" "empty file" "$tmp/empty.dat"
	fails_cleanly "$bin" "$b: text file" "not a readable trace-cmd data file" "$tmp/text.dat"
	fails_cleanly "$bin" "$b: bad magic" "not a readable trace-cmd data file" "$tmp/magic.dat"
	fails_cleanly "$bin" "$b: cut in the formats" "not a readable" "$tmp/cut-head.dat"
	fails_cleanly "$bin" "$b: cut in the event data" "truncated or corrupt" "$tmp/cut-data.dat"
	fails_cleanly "$bin" "$b: last byte missing" "truncated or corrupt" "$tmp/cut-last.dat"
	fails_cleanly "$bin" "$b: no power:cpu_idle format" "no power:cpu_idle event in the trace" "$tmp/nofmt.dat"
	fails_cleanly "$bin" "$b: power:cpu_idle format, no event" "no power:cpu_idle events recorded" "$tmp/noevents.dat"
	fails_cleanly "$bin" "$b: malformed platform file" "badplat.txt:3: state index 1 out of order" \
		-p "$tmp/badplat.txt" $D/base.dat
	fails_cleanly "$bin" "$b: missing platform file" "No such file" -p "$tmp/none.txt" $D/base.dat
	fails_cleanly "$bin" "$b: control byte in the platform file" 'ctlplat.txt:2: unknown or malformed line "laten?cy_limit_us"' \
		-p "$tmp/ctlplat.txt" $D/base.dat
	fails_cleanly "$bin" "$b: bad platform name" 'nameplat.txt:2: platform name "my/laptop"' \
		-p "$tmp/nameplat.txt" $D/base.dat
	fails_cleanly "$bin" "$b: unknown format" "unknown format" -f xml $D/base.dat
	fails_cleanly "$bin" "$b: unwritable output" "No such file" -o "$tmp/no/dir/out" $D/base.dat
done

# The seeded corruption of the fuzz runs below: 1, 4, 16 or 64 random
# bytes at a random offset, in the first 4 KiB (headers, formats) for
# every third seed.
cat > "$tmp/corrupt.py" <<'EOF'
import random, sys


def corrupt(data, seed):
    r = random.Random(seed)
    b = bytearray(data)
    off = r.randrange(0, 4096) if seed % 3 == 0 else r.randrange(0, len(b))
    for i in range(r.choice([1, 4, 16, 64])):
        if off + i < len(b):
            b[off + i] = r.randrange(256)
    return b, off


if __name__ == "__main__":
    seed, src, dst = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    open(dst, "wb").write(corrupt(open(src, "rb").read(), seed)[0])
EOF

# Corruptions of base.dat that crash libtraceevent 1.7 (Debian 12): seed
# 640 in the event format parser (strcmp on a wild pointer), seed 3877 in
# kbuffer_load_subbuffer(). The decoder dies; the analyser says so.
for seed in 640 3877; do
	python3 "$tmp/corrupt.py" $seed $D/base.dat "$tmp/crash-$seed.dat"
	for bin in "$R" "$S"; do
		fails_cleanly "$bin" "$(basename "$bin"): base.dat seed $seed, a crash in libtraceevent" \
			"libtracecmd crashed (Segmentation fault) decoding it" "$tmp/crash-$seed.dat"
	done
done

# The decoder's limits, with libtracecmd made to misbehave on purpose
# (analyser-fault.c, preloaded): a loop burning CPU, the same record over
# and over, memory growing without end, a wild pointer. Each must end in
# one line, and in seconds. The address-space limit is not set in the
# ASan build (its shadow maps terabytes), so "grow" runs on the plain one.
fault=$tmp/analyser-fault.so
if cc -O2 -Wall -Wextra -Werror -shared -fPIC $(pkg-config --cflags libtracecmd) \
	-o "$fault" tests/host/analyser-fault.c -ldl 2>"$tmp/cc.err"; then
	for bin in "$R" "$S"; do
		b=$(basename "$bin")
		# fault:CPU limit (grow: none, the address space is the limit):message
		for f in spin:1:"used more than 1 s of CPU time" \
			 repeat:1:"more than 8 records per byte of file" \
			 segv:1:"libtracecmd crashed (Segmentation fault)" \
			 grow:0:"error reading the event data"; do
			IFS=: read -r fl lim msg <<<"$f"
			[ "$bin" = "$S" ] && [ "$fl" = grow ] && continue
			start=$(date +%s)
			SIP_FAULT=$fl LD_PRELOAD=$fault ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0 \
				fails_cleanly "$bin" "$b: libtracecmd made to $fl" "$msg" \
				--cpu-limit "$lim" $D/base.dat
			secs=$(( $(date +%s) - start ))
			ok "$([ $secs -le 30 ]; echo $?)" "$b: ... and it ended in $secs s (<= 30)"
		done
	done
else
	ok 1 "analyser-fault.so does not build: $(head -c 300 "$tmp/cc.err" | tr '\n' '|')"
fi

# The platform file: 300 seeded edits of the known-answer one (a token
# replaced by a number at a limit, a control byte, an empty string..., a
# byte changed, bytes deleted). Status 0 and silence, or status 1 and one
# printable line.
cat > "$tmp/platfuzz.py" <<'EOF'
import random, subprocess, sys
src, binp, trace, n, path = open(sys.argv[1], "rb").read(), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
tokens = [b"0", b"-1", b"18446744073709551615", b"18446744073709551616", b"1e308",
          b"nan", b"inf", b"", b" ", b"\t", b"\n", b"\r", b"\x1d", b"\x00", b"state",
          b"99", b"enabled", b"disabled", b"#", b"x" * 300, b"10", b"0.5"]
bad = 0
for seed in range(n):
    r = random.Random(seed)
    b = bytearray(src)
    for _ in range(r.choice([1, 2, 4])):
        op, off = r.randrange(3), r.randrange(len(b))
        if op == 0:
            b[off:off + r.randrange(1, 8)] = r.choice(tokens)
        elif op == 1:
            b[off] = r.randrange(256)
        else:
            del b[off:off + r.randrange(1, 20)]
    open(path, "wb").write(b)
    p = subprocess.run([binp, "-p", path, trace], capture_output=True, timeout=60)
    err = p.stderr
    good = (p.returncode == 0 and not err) or \
           (p.returncode == 1 and err.startswith(b"sip-idle-report: ") and err.endswith(b"\n") and
            all(32 <= c < 127 for c in err[:-1]))
    if not good:
        bad += 1
        print("# seed %d: status %d: %r" % (seed, p.returncode, err[:200]))
print(bad)
EOF
res=$(python3 "$tmp/platfuzz.py" $D/platform.txt "$S" $D/base.dat 300 "$tmp/plat.txt")
bad=$(echo "$res" | tail -1)
echo "$res" | grep '^#' | head -5
ok "$([ "$bad" = 0 ]; echo $?)" "300 edits of platform.txt: report, or one printable line ($bad bad)"

# Every 512th cut point of a trace: status 1 with one line, or (a cut that
# loses nothing the reader needs) exactly the full trace's report.
bad=0
"$R" -P -f csv $D/base.dat > "$tmp/base-full.csv"
for n in $(seq 0 512 20480) 17 100 4097 12289; do
	head -c $n $D/base.dat > "$tmp/cut.dat"
	"$S" -P -f csv "$tmp/cut.dat" >"$tmp/cut.csv" 2>"$tmp/err"; rc=$?
	if ! { [ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ]; } &&
	   ! { [ $rc = 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/base-full.csv" "$tmp/cut.csv"; }; then
		bad=$((bad + 1)); echo "# cut at $n: status $rc: $(head -c 200 "$tmp/err" | tr '\n' '|')"
	fi
done
ok $bad "every cut point of base.dat: one-line error, no crash ($bad bad)"

# Corrupt bytes: 150 seeded corruptions of each trace, in the headers and
# formats or anywhere. Status 0 (the damage hit nothing read, or only the
# series' event format: one warning line) or 1 with one line; never a crash
# or a sanitizer report.
cat > "$tmp/fuzz.py" <<'EOF'
import os, subprocess, sys
sys.path.insert(0, os.path.dirname(sys.argv[0]))
from corrupt import corrupt
src, n, binp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(src, "rb").read()
bad = 0
for seed in range(n):
    b, off = corrupt(data, seed)
    path = sys.argv[4]
    open(path, "wb").write(b)
    # A run that does not end is a finding too (one corruption of a guest
    # trace once ran for over 20 minutes at 14 GB): it is stopped, counted
    # bad and its input kept beside the test's results.
    try:
        p = subprocess.run([binp, "-P", path], capture_output=True, text=True,
                           errors="replace", timeout=120)
    except subprocess.TimeoutExpired:
        bad += 1
        keep = "%s.hang-seed%d" % (sys.argv[5], seed)
        open(keep, "wb").write(b)
        print("# seed %d offset %d: still running after 120 s (input kept in %s)"
              % (seed, off, keep))
        continue
    # ASan warns when a corrupt size makes the library ask for petabytes
    # (allocator_may_return_null=1: malloc returns NULL as it would without
    # ASan); that warning is not a finding.
    lines = [l for l in p.stderr.splitlines()
             if not (l.startswith("==") and "failed to allocate" in l)]
    warn = all(l.startswith("sip-idle-report: warning: ") for l in lines)
    good = (p.returncode == 0 and (not lines or warn)) or \
           (p.returncode == 1 and len(lines) == 1 and lines[0].startswith("sip-idle-report: "))
    if not good:
        bad += 1
        print("# seed %d offset %d: status %d: %s" % (seed, off, p.returncode,
              " | ".join(lines)[:300]))
print(bad)
EOF
for n in base predict sources; do
	for bin in "$R" "$S"; do
		res=$(python3 "$tmp/fuzz.py" $D/$n.dat 150 "$bin" "$tmp/fz.dat" "$keep/$n")
		bad=$(echo "$res" | tail -1)
		echo "$res" | grep '^#' | head -5
		ok "$([ "$bad" = 0 ]; echo $?)" "$(basename "$bin"): 150 corruptions of $n.dat, no crash, one line ($bad bad)"
	done
done

# The guest trace of analyser-guest.t (trace-cmd file format 7, zstd
# compressed), when that test ran before this one: every 16 KiB cut point
# and 100 corruptions for each build.
real=$SIP_TEST_OUT/analyser-guest/trace.dat
if [ -s "$real" ]; then
	# A cut may also fall in a part the reader does not need (the
	# file's last bytes): then the report must be the full trace's.
	bad=0 size=$(stat -c %s "$real")
	"$R" -P -f csv "$real" > "$tmp/full.csv"
	for n in $(seq 0 16384 "$size") $((size - 1)); do
		head -c $n "$real" > "$tmp/cut.dat"
		"$S" -P -f csv "$tmp/cut.dat" >"$tmp/cut.csv" 2>"$tmp/err"; rc=$?
		if ! { [ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ]; } &&
		   ! { [ $rc = 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/full.csv" "$tmp/cut.csv"; }; then
			bad=$((bad + 1)); echo "# guest trace cut at $n: status $rc: $(head -c 200 "$tmp/err" | tr '\n' '|')"
		fi
	done
	ok $bad "every 16 KiB cut point of the guest trace: one-line error (or, cut where nothing is read, the full report), no crash ($bad bad)"
	for bin in "$R" "$S"; do
		res=$(python3 "$tmp/fuzz.py" "$real" 100 "$bin" "$tmp/fz.dat" "$keep/guest")
		bad=$(echo "$res" | tail -1)
		echo "$res" | grep '^#' | head -5
		ok "$([ "$bad" = 0 ]; echo $?)" "$(basename "$bin"): 100 corruptions of the guest trace ($bad bad)"
	done
else
	for i in 1 2 3; do ok 0 "guest trace # SKIP no $real (analyser-guest.t did not run)"; done
fi
reports=$(grep -l "ERROR\|runtime error" "$tmp"/san/* 2>/dev/null | wc -l)
[ "$reports" = 0 ] || head -20 $(grep -l "ERROR\|runtime error" "$tmp"/san/* | head -1) | sed 's/^/# /'
ok "$([ "$reports" = 0 ]; echo $?)" "no sanitizer report from any run ($reports)"

# valgrind memcheck: no error on the good traces (leaks included) and on
# the error paths (leaks inside the libraries' error paths excluded).
if command -v valgrind >/dev/null; then
	vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
	for n in base predict sources; do
		$vg "$R" -f json $D/$n.dat >/dev/null 2>"$tmp/vg"; rc=$?
		ok "$([ $rc = 0 ]; echo $?)" "valgrind: $n.dat, status $rc$( [ $rc = 0 ] || echo ": $(head -c 300 "$tmp/vg" | tr '\n' '|')")"
	done
	for f in cut-data cut-last magic nofmt noevents empty; do
		valgrind -q --error-exitcode=99 "$R" "$tmp/$f.dat" >/dev/null 2>"$tmp/vg"; rc=$?
		ok "$([ $rc = 1 ]; echo $?)" "valgrind: $f.dat fails without memory errors (status $rc)"
	done
else
	for i in 1 2 3 4 5 6 7 8; do ok 0 "valgrind # SKIP valgrind not installed"; done
fi
plan $tap_n

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a trace.dat (trace-cmd file format version 6) from an event script.

Known-answer tests need traces whose every timestamp is chosen by hand; the
guest records real ones, this writes synthetic ones the same readers
(libtracecmd, trace-cmd report, KernelShark) accept.

Script, one item per line, '#' starts a comment:

    %cpus 2                     number of per-CPU buffers (default 1)
    %omit cpu_idle              leave an event's format out of the file
    %include sched_idle_predict add a format not included by default
    %layout sched_idle_predict v1
                                use an older layout of a series event
                                (anywhere in the script; see LAYOUTS)
    <ts_ns> <cpu> <event> [field=value ...]
    lost <cpu> <count>          the next event on <cpu> starts a new page
                                whose header says <count> events were lost
                                (count -1: lost, number unknown)

Events: cpu_idle, cpu_idle_miss, sched_switch, sched_wakeup, block_rq_issue,
block_rq_complete, print (a trace_marker write; in its buf, '_' stands for
a space), sched_idle_predict, sched_sleep_predict. Fields not given are
zero (strings empty). Timestamps must not decrease within a CPU.

The layouts follow Linux 6.1's formats (x86_64), except the series' events
sched_idle_predict and sched_sleep_predict, whose fields are the series'
(design/series.md) and whose offsets are this file's choice: readers must
look fields up by name. Linux 6.12 changed the two block events (see the
note above EVENTS); the fixtures keep 6.1's. sched_idle_predict's source is
printed by __print_symbolic(): 0 timer, 1 io, 2 task, 3 history.
"""
import struct
import sys

PAGE_SIZE = 4096
PAGE_HDR = 16           # u64 timestamp + local_t commit (long = 8 bytes)
RB_MISSED_EVENTS = 1 << 31
RB_MISSED_STORED = 1 << 30

HEADER_PAGE = (
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
    "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n")

HEADER_EVENT = (
    "# compressed entry header\n"
    "\ttype_len    :    5 bits\n"
    "\ttime_delta  :   27 bits\n"
    "\tarray       :   32 bits\n\n"
    "\tpadding     : type == 29\n"
    "\ttime_extend : type == 30\n"
    "\ttime_stamp : type == 31\n"
    "\tdata max type_len  == 28\n")

COMMON = [("unsigned short", "common_type", 0, 2, 0),
          ("unsigned char", "common_flags", 2, 1, 0),
          ("unsigned char", "common_preempt_count", 3, 1, 0),
          ("int", "common_pid", 4, 4, 1)]

# name: (system, id, size, [(ctype, field, offset, size, signed)], print fmt)
# sched_idle_predict as series v4-v7 traced it (next_task_ns, source): the
# current layout is this one plus horizon_ns (patch 14), and LAYOUTS keeps
# it as v2. The print format is its text and arguments, apart, so that a
# layout can add a field to both.
PREDICT_V2_FIELDS = [
    ("int", "cpu", 8, 4, 1), ("s64", "next_timer_ns", 16, 8, 1),
    ("s64", "next_io_ns", 24, 8, 1), ("s64", "next_task_ns", 32, 8, 1),
    ("s64", "latency_req_ns", 40, 8, 1), ("s64", "predicted_ns", 48, 8, 1),
    ("s64", "duration_ns", 56, 8, 1), ("int", "state", 64, 4, 1),
    ("int", "tick_stopped", 68, 4, 1), ("int", "source", 72, 4, 1)]
PREDICT_V2_PRINT = ('"cpu=%d next_timer_ns=%lld next_io_ns=%lld next_task_ns=%lld '
                    'latency_req_ns=%lld predicted_ns=%lld duration_ns=%lld state=%d '
                    'tick_stopped=%d source=%s')
PREDICT_V2_ARGS = ('REC->cpu, REC->next_timer_ns, REC->next_io_ns, REC->next_task_ns, '
                   'REC->latency_req_ns, REC->predicted_ns, REC->duration_ns, '
                   'REC->state, REC->tick_stopped, __print_symbolic(REC->source, '
                   '{ 0, "timer" }, { 1, "io" }, { 2, "task" }, { 3, "history" })')

# Against Linux 6.12 (include/trace/events/power.h, sched.h, block.h,
# kernel/trace/trace_entries.h, kernel/trace/ring_buffer.c), x86_64:
# cpu_idle, cpu_idle_miss, sched_switch, sched_wakeup and print, and the
# page and event headers (4 KiB sub-buffers), are as below. block_rq_issue
# and block_rq_complete gained a field "unsigned short ioprio" and print
# it, " %s,%u,%u" (class, hint, level) before the last bracket: 6.12's
# block_rq_issue is dev 8, sector 16, nr_sector 24, bytes 28, ioprio 32,
# rwbs[8] 34, comm[16] 42, cmd 60, size 64; block_rq_complete is dev 8,
# sector 16, nr_sector 24, error 28, ioprio 32, rwbs[8] 34, cmd 44, size
# 48. The tables keep 6.1's: the analyser reads dev and sector, by name,
# and their offsets did not move.
EVENTS = {
    "cpu_idle": ("power", 10, 16, [
        ("u32", "state", 8, 4, 0), ("u32", "cpu_id", 12, 4, 0)],
        '"state=%lu cpu_id=%lu", (unsigned long)REC->state, (unsigned long)REC->cpu_id'),
    "cpu_idle_miss": ("power", 11, 20, [
        ("u32", "cpu_id", 8, 4, 0), ("u32", "state", 12, 4, 0),
        ("bool", "below", 16, 1, 0)],
        '"cpu_id=%lu state=%lu type=%s", (unsigned long)REC->cpu_id, '
        '(unsigned long)REC->state, (REC->below)?"below":"above"'),
    "sched_switch": ("sched", 20, 64, [
        ("char", "prev_comm[16]", 8, 16, 0), ("pid_t", "prev_pid", 24, 4, 1),
        ("int", "prev_prio", 28, 4, 1), ("long", "prev_state", 32, 8, 1),
        ("char", "next_comm[16]", 40, 16, 0), ("pid_t", "next_pid", 56, 4, 1),
        ("int", "next_prio", 60, 4, 1)],
        '"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%ld ==> '
        'next_comm=%s next_pid=%d next_prio=%d", REC->prev_comm, REC->prev_pid, '
        'REC->prev_prio, REC->prev_state, REC->next_comm, REC->next_pid, REC->next_prio'),
    "sched_wakeup": ("sched", 21, 36, [
        ("char", "comm[16]", 8, 16, 0), ("pid_t", "pid", 24, 4, 1),
        ("int", "prio", 28, 4, 1), ("int", "target_cpu", 32, 4, 1)],
        '"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, '
        'REC->prio, REC->target_cpu'),
    "block_rq_issue": ("block", 30, 64, [
        ("dev_t", "dev", 8, 4, 0), ("sector_t", "sector", 16, 8, 0),
        ("unsigned int", "nr_sector", 24, 4, 0), ("unsigned int", "bytes", 28, 4, 0),
        ("char", "rwbs[8]", 32, 8, 0), ("char", "comm[16]", 40, 16, 0),
        ("__data_loc char[]", "cmd", 56, 4, 0)],
        '"%d,%d %s %u (%s) %llu + %u [%s]", ((unsigned int) ((REC->dev) >> 20)), '
        '((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs, REC->bytes, '
        '__get_str(cmd), (unsigned long long)REC->sector, REC->nr_sector, REC->comm'),
    "block_rq_complete": ("block", 31, 48, [
        ("dev_t", "dev", 8, 4, 0), ("sector_t", "sector", 16, 8, 0),
        ("unsigned int", "nr_sector", 24, 4, 0), ("int", "error", 28, 4, 1),
        ("char", "rwbs[8]", 32, 8, 0), ("__data_loc char[]", "cmd", 40, 4, 0)],
        '"%d,%d %s (%s) %llu + %u [%d]", ((unsigned int) ((REC->dev) >> 20)), '
        '((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs, '
        '__get_str(cmd), (unsigned long long)REC->sector, REC->nr_sector, REC->error'),
    # trace_marker writes; its format goes to the ftrace formats section
    "print": ("ftrace", 5, 16, [
        ("unsigned long", "ip", 8, 8, 0), ("char", "buf[]", 16, 0, 0)],
        '"%ps: %s", (void *)REC->ip, REC->buf'),
    # the series' events (design/series.md), signed 64-bit times
    "sched_idle_predict": ("sched", 40, 88,
        PREDICT_V2_FIELDS + [("s64", "horizon_ns", 80, 8, 1)],
        PREDICT_V2_PRINT + ' horizon_ns=%lld", ' + PREDICT_V2_ARGS + ', REC->horizon_ns'),
    "sched_sleep_predict": ("sched", 41, 40, [
        ("int", "pid", 8, 4, 1), ("int", "block_cpu", 12, 4, 1),
        ("int", "wake_cpu", 16, 4, 1), ("u64", "predicted_ns", 24, 8, 0),
        ("u64", "slept_ns", 32, 8, 0)],
        '"pid=%d block_cpu=%d wake_cpu=%d predicted_ns=%llu slept_ns=%llu", '
        'REC->pid, REC->block_cpu, REC->wake_cpu, REC->predicted_ns, REC->slept_ns'),
}

# Older layouts of the series' events, for the readers' compatibility
# tests: (event, version) -> an EVENTS entry.
LAYOUTS = {
    # series v4-v7: next_task_ns and source, before horizon_ns (patch 14)
    ("sched_idle_predict", "v2"): ("sched", 40, 80, PREDICT_V2_FIELDS,
                                   PREDICT_V2_PRINT + '", ' + PREDICT_V2_ARGS),
    # series v2, before the sleep predictor and the intercept history:
    # no next_task_ns, no source
    ("sched_idle_predict", "v1"): ("sched", 40, 64, [
        ("int", "cpu", 8, 4, 1), ("s64", "next_timer_ns", 16, 8, 1),
        ("s64", "next_io_ns", 24, 8, 1), ("s64", "latency_req_ns", 32, 8, 1),
        ("s64", "predicted_ns", 40, 8, 1), ("s64", "duration_ns", 48, 8, 1),
        ("int", "state", 56, 4, 1), ("int", "tick_stopped", 60, 4, 1)],
        '"cpu=%d next_timer_ns=%lld next_io_ns=%lld latency_req_ns=%lld '
        'predicted_ns=%lld duration_ns=%lld state=%d tick_stopped=%d", REC->cpu, '
        'REC->next_timer_ns, REC->next_io_ns, REC->latency_req_ns, REC->predicted_ns, '
        'REC->duration_ns, REC->state, REC->tick_stopped'),
}
DEFAULT = ["cpu_idle", "cpu_idle_miss", "sched_switch", "sched_wakeup",
           "block_rq_issue", "block_rq_complete", "print"]


def die(msg):
    sys.stderr.write("synth-trace: %s\n" % msg)
    sys.exit(1)


def format_text(name):
    system, eid, _, fields, fmt = EVENTS[name]
    out = "name: %s\nID: %d\nformat:\n" % (name, eid)
    for ctype, field, off, size, sign in COMMON:
        out += "\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;\n" % (
            ctype, field, off, size, sign)
    out += "\n"
    for ctype, field, off, size, sign in fields:
        out += "\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;\n" % (
            ctype, field, off, size, sign)
    return out + "\nprint fmt: %s\n" % fmt


def event_data(name, values, lineno):
    _, eid, size, fields, _ = EVENTS[name]
    buf = bytearray(size)
    struct.pack_into("<HBBi", buf, 0, eid, 0, 0, int(values.pop("common_pid", 0)))
    for ctype, field, off, fsize, sign in fields:
        key = field.split("[")[0]
        val = values.pop(key, None)
        if ctype.startswith("__data_loc"):
            # an empty string stored after the fixed part
            loc = size - 4 if size - 4 >= off + 4 else size
            struct.pack_into("<I", buf, off, (1 << 16) | loc)
            continue
        if ctype == "char" and fsize == 0:
            # flexible array at the end: the string and its NUL
            buf += (val or "").replace("_", " ").encode() + b"\0"
            continue
        if ctype == "char":
            b = (val or "").encode()[:fsize - 1]
            buf[off:off + len(b)] = b
            continue
        v = int(val or "0", 0)
        fmtc = {1: "b", 4: "i", 8: "q"}[fsize]
        if not sign or v >= 1 << (8 * fsize - 1):
            fmtc = fmtc.upper()
        try:
            struct.pack_into("<" + fmtc, buf, off, v)
        except struct.error:
            die("line %d: %s=%s does not fit %d bytes" % (lineno, key, val, fsize))
    if values:
        die("line %d: %s has no field %s" % (lineno, name, ", ".join(values)))
    return bytes(buf)


class CpuBuffer:
    def __init__(self):
        self.pages = []
        self.page = None
        self.lost = None

    def _new_page(self, ts):
        self.page = {"ts": ts, "last": ts, "data": bytearray(), "lost": self.lost}
        self.pages.append(self.page)
        self.lost = None

    def add(self, ts, data):
        words = (len(data) + 3) // 4
        need = 4 + words * 4 + 8  # + a possible time extend
        if self.page is None or self.lost is not None or \
           PAGE_HDR + len(self.page["data"]) + need + 8 > PAGE_SIZE:
            self._new_page(ts)
        p = self.page
        delta = ts - p["last"]
        if delta < 0:
            die("timestamps go backwards on a CPU")
        if delta >= 1 << 27:
            # type_len 30: time extend, delta split in 27 + 32 bits
            p["data"] += struct.pack("<II", 30 | ((delta & ((1 << 27) - 1)) << 5),
                                     delta >> 27)
            delta = 0
        p["data"] += struct.pack("<I", words | (delta << 5))
        p["data"] += data + bytes(words * 4 - len(data))
        p["last"] = ts

    def serialise(self):
        out = bytearray()
        for p in self.pages:
            commit = len(p["data"])
            extra = b""
            if p["lost"] is not None:
                commit |= RB_MISSED_EVENTS
                if p["lost"] >= 0:
                    commit |= RB_MISSED_STORED
                    extra = struct.pack("<Q", p["lost"])
            page = struct.pack("<QQ", p["ts"], commit) + p["data"] + extra
            out += page + bytes(PAGE_SIZE - len(page))
        return bytes(out)


def main():
    if len(sys.argv) != 3:
        die("usage: synth-trace.py SCRIPT OUT.dat")
    ncpus = 1
    formats = list(DEFAULT)
    events = []
    lost = []
    with open(sys.argv[1]) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#")[0].split()
            if not line:
                continue
            if line[0] == "%cpus":
                ncpus = int(line[1])
            elif line[0] == "%omit":
                formats = [x for x in formats if x != line[1]]
            elif line[0] == "%layout":
                key = (line[1], line[2]) if len(line) > 2 else None
                if key not in LAYOUTS:
                    die("line %d: unknown layout %s" % (lineno, " ".join(line[1:])))
                EVENTS[line[1]] = LAYOUTS[key]
            elif line[0] == "%include":
                if line[1] not in EVENTS:
                    die("line %d: unknown event %s" % (lineno, line[1]))
                if line[1] not in formats:
                    formats.append(line[1])
            elif line[0] == "lost":
                events.append((None, int(line[1]), "lost", int(line[2]), lineno))
            else:
                ts, cpu, name = int(line[0]), int(line[1]), line[2]
                if name not in EVENTS:
                    die("line %d: unknown event %s" % (lineno, name))
                if name not in formats:
                    die("line %d: event %s has no format in this file" % (lineno, name))
                vals = dict(kv.split("=", 1) for kv in line[3:])
                events.append((ts, cpu, name, vals, lineno))
    bufs = [CpuBuffer() for _ in range(ncpus)]
    for ts, cpu, name, vals, lineno in events:
        if cpu >= ncpus:
            die("line %d: cpu %d but %%cpus %d" % (lineno, cpu, ncpus))
        if name == "lost":
            bufs[cpu].lost = vals
        else:
            bufs[cpu].add(ts, event_data(name, vals, lineno))

    out = bytearray(b"\x17\x08\x44tracing" + b"6\0")
    out += struct.pack("<BBI", 0, 8, PAGE_SIZE)
    for tag, text in ((b"header_page\0", HEADER_PAGE), (b"header_event\0", HEADER_EVENT)):
        out += tag + struct.pack("<Q", len(text)) + text.encode()
    ftrace = [n for n in formats if EVENTS[n][0] == "ftrace"]
    out += struct.pack("<I", len(ftrace))
    for name in ftrace:
        text = format_text(name).encode()
        out += struct.pack("<Q", len(text)) + text
    systems = {}
    for name in formats:
        if EVENTS[name][0] != "ftrace":
            systems.setdefault(EVENTS[name][0], []).append(name)
    out += struct.pack("<I", len(systems))
    for system, names in systems.items():
        out += system.encode() + b"\0" + struct.pack("<I", len(names))
        for name in names:
            text = format_text(name).encode()
            out += struct.pack("<Q", len(text)) + text
    out += struct.pack("<I", 0)        # kallsyms
    out += struct.pack("<I", 0)        # printk formats
    cmdlines = b"0 <idle>\n"
    out += struct.pack("<Q", len(cmdlines)) + cmdlines
    out += struct.pack("<I", ncpus)
    out += b"flyrecord\0"
    datas = [b.serialise() for b in bufs]
    table_end = len(out) + 16 * ncpus
    off = (table_end + PAGE_SIZE - 1) // PAGE_SIZE * PAGE_SIZE
    for d in datas:
        out += struct.pack("<QQ", off, len(d))
        off += len(d)
    out += bytes((table_end + PAGE_SIZE - 1) // PAGE_SIZE * PAGE_SIZE - len(out))
    for d in datas:
        out += d
    with open(sys.argv[2], "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()

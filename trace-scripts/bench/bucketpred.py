# SPDX-License-Identifier: GPL-2.0
"""The series' IO latency bucket predictor, replayed in userspace.

A copy of io_latency_learn()/io_latency_predict() (kernel/sched/io_latency.c,
patch 2) with the bucket width as a parameter, and the readers of the
traces it is replayed on. bench-report.py replays the per-task waits of
the bench (io_latency:io_latency_wait); bucket-table.py also the requests
of each device (block:block_rq_issue/complete). A hit is a prediction in
the bucket of the measured latency (at the kernel's 200 us: within one
bucket, as the RFD counts).
"""
import re

NR_BUCKETS, SUCCESSIVE, HITS_MAX, AVG_SHIFT = 8, 5, 64, 3
BUCKET_WIDTHS_US = [100, 200, 500, 1000]
KERNEL_BUCKET_US = 200


class Pred:
    """Userspace copy of struct io_latency_pred and its two functions."""

    def __init__(self, width_ns):
        self.w = width_ns
        self.b = []  # dicts avg, index, hits, age, in list order
        self.run_index = 0
        self.run_len = 0

    def predict(self):
        if not self.b:
            return 0
        best = 0
        for pos in range(1, len(self.b)):
            if self.b[pos]["hits"] * (2 * best + 1) > self.b[best]["hits"] * (2 * pos + 1):
                best = pos
        return self.b[best]["avg"]

    def move(self, frm, to):
        b = self.b.pop(frm)
        self.b.insert(to, b)

    def learn(self, lat):
        index = lat // self.w
        for b in self.b:
            b["age"] = min(b["age"] + 1, 255)
        pos = next((i for i, b in enumerate(self.b) if b["index"] == index), None)
        if pos is None:
            if len(self.b) == NR_BUCKETS:
                victim = 0
                for i in range(1, len(self.b)):
                    if self.b[i]["age"] >= self.b[victim]["age"]:
                        victim = i
                self.move(victim, NR_BUCKETS - 1)
                pos = NR_BUCKETS - 1
                self.b[pos] = {"avg": lat, "index": index, "hits": 0, "age": 0}
            else:
                self.b.append({"avg": lat, "index": index, "hits": 0, "age": 0})
                pos = len(self.b) - 1
        else:
            b = self.b[pos]
            b["avg"] += (lat - b["avg"]) >> AVG_SHIFT  # arithmetic shift, as s64 >>
        b = self.b[pos]
        b["age"] = 0
        b["hits"] += 1
        if b["hits"] == HITS_MAX:
            for x in self.b:
                x["hits"] >>= 1
        if self.run_len and self.run_index == index:
            self.run_len += 1
        else:
            self.run_index, self.run_len = index, 1
        if self.run_len == SUCCESSIVE:
            self.move(pos, 0)
            self.run_len = 0


# learnt= appeared in v5 (only waits a block request completion ended are
# learnt); a trace without it learnt every wait.
IOL_RE = re.compile(r"^\s*(\S+)-(\d+)\s+\[\d+\].*io_latency_wait: cpu=\d+ "
                    r"predicted_ns=(\d+) actual_ns=(\d+)(?: learnt=(\d))?")


def read_waits(path, comm="sipwl"):
    """{pid: [(kernel predicted_ns, actual_ns, learnt), ...]} of comm's waits."""
    seqs = {}
    with open(path) as f:
        for line in f:
            m = IOL_RE.match(line)
            if m and m.group(1) == comm:
                learnt = m.group(5) is None or m.group(5) == "1"
                seqs.setdefault(m.group(2), []).append(
                    (int(m.group(3)), int(m.group(4)), learnt))
    return seqs


def replay(seqs, width_us):
    """hits, predicted waits, agreement with the kernel's predictions.

    Only the waits the kernel learnt are learnt and judged (the others
    measure no device); agreement covers every wait.
    """
    hits = preds = agree = 0
    w = width_us * 1000
    for seq in seqs.values():
        p = Pred(w)
        for kpred, actual, learnt in seq:
            guess = p.predict()
            agree += guess == kpred
            if not learnt:
                continue
            if guess:
                preds += 1
                hits += guess // w == actual // w
            p.learn(actual)
    return hits, preds, agree


# block_rq_issue: "259,0 R 4096 () 8 + 8 [disklat]";
# block_rq_complete: "259,0 R () 8 + 8 [0]". Timestamps in s (tracefs text).
RQ_RE = re.compile(r"^\s*\S+-\d+\s+\[\d+\]\s+\S+\s+([\d.]+): (block_rq_issue|block_rq_complete): "
                   r"(\d+,\d+) (\S+) .*?(\d+) \+ (\d+) \[")


def read_requests(path):
    """{dev: [latency_ns, ...]} in completion order, issue to complete."""
    pending, lats = {}, {}
    with open(path) as f:
        for line in f:
            m = RQ_RE.match(line)
            if not m:
                continue
            ts = round(float(m.group(1)) * 1e9)
            key = (m.group(3), m.group(4)[0], m.group(5))
            if m.group(2) == "block_rq_issue":
                pending[key] = ts
            elif key in pending:
                lats.setdefault(m.group(3), []).append(ts - pending.pop(key))
    return lats


def replay_device(lats, width_us):
    """hits and predictions of one predictor per device, learning each request.

    Requests are replayed in completion order; with one request in flight
    (the table's reader) that is also the issue order, so each prediction
    is the one the device's predictor would have made at issue.
    """
    hits = preds = 0
    w = width_us * 1000
    for seq in lats.values():
        p = Pred(w)
        for lat in seq:
            guess = p.predict()
            if guess:
                preds += 1
                hits += guess // w == lat // w
            p.learn(lat)
    return hits, preds

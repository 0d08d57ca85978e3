#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bucket-table.py DIR - the RFD's bucket table, per profile, per task and per device.

DIR holds what trace-scripts/guest/bucket-guest.sh wrote: for each disk
<index>-<disk>.txt (tracefs text of io_latency_wait, block_rq_issue and
block_rq_complete while one disklat reader ran) and <index>-<disk>.lat.
The series' bucket predictor (bucketpred.py) is replayed at each bucket
width on two sequences of the same reads:
  per task    the reader's IO waits (io_latency_wait actual_ns, the waits
              the kernel learnt), what patch 1 learns from: the device
              latency plus the wake-up (interrupt, idle exit, switch);
  per device  each request's issue-to-complete time (block events), what a
              per-device predictor in blk-mq would learn from.
A hit is a prediction in the bucket of the measured value; the first
request of a sequence has no prediction and is not counted. "kernel" is
the hit rate of the predictions the running kernel made (predicted_ns) at
its 200 us, which the per-task replay at 200 us must reproduce; "kernel
device" that of the predictions the kernel's per-device tracking made for
each request (io_latency_request, booted with sched_io_latency=device),
"-" when it was not on.
Prints the table in markdown; --json FILE also writes it as JSON.
"""
import argparse
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bucketpred import (BUCKET_WIDTHS_US, KERNEL_BUCKET_US, read_requests,  # noqa: E402
                        read_waits, replay, replay_device)

# The RFD's cover letter (2014), hit rate at 200 us buckets.
RFD = {"sata-ssd": ("SSD", 99.7), "sd": ("SD card", 95.5), "hdd": ("USB HDD", 66.3)}


def pct(h, n):
    return 100.0 * h / n if n else None


def fmt(v):
    return "-" if v is None else f"{v:.1f}"


def kernel_hits(seqs, width_us):
    w = width_us * 1000
    h = n = 0
    for seq in seqs.values():
        for kpred, actual, learnt in seq:
            if learnt and kpred:
                n += 1
                h += kpred // w == actual // w
    return h, n


REQ_RE = re.compile(r".*io_latency_request: dev=\S+ class=\d+ predicted_ns=(\d+) actual_ns=(\d+)")


def kernel_device_hits(path, width_us):
    """hits and predictions of the kernel's per-device predictor."""
    w = width_us * 1000
    h = n = 0
    with open(path) as f:
        for line in f:
            m = REQ_RE.match(line)
            if m and int(m.group(1)):
                n += 1
                h += int(m.group(1)) // w == int(m.group(2)) // w
    return h, n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--json")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(a.dir, "*-*.txt")),
                   key=lambda f: int(os.path.basename(f).split("-", 1)[0]))
    if not files:
        sys.exit(f"bucket-table: no <index>-<disk>.txt in {a.dir} (make bucket-table writes them)")
    rows = []
    for f in files:
        disk = os.path.basename(f)[:-4].split("-", 1)[1]
        seqs = read_waits(f, comm="disklat")
        lats = read_requests(f)
        lat = ""
        lf = f[:-4] + ".lat"
        if os.path.exists(lf):
            kv = dict(re.findall(r"(\w+)=(\S+)", open(lf).read()))
            lat = f"{kv.get('p50_us', '?')} / {kv.get('p99_us', '?')}"
        row = {"disk": disk, "read_p50_p99_us": lat,
               "waits": sum(sum(1 for x in s if x[2]) for s in seqs.values()),
               "requests": sum(len(s) for s in lats.values()),
               "task": {}, "device": {}}
        for wu in BUCKET_WIDTHS_US:
            h, n, _ = replay(seqs, wu)
            row["task"][str(wu)] = pct(h, n)
            h, n = replay_device(lats, wu)
            row["device"][str(wu)] = pct(h, n)
        h, n = kernel_hits(seqs, KERNEL_BUCKET_US)
        row["kernel_200"] = pct(h, n)
        h, n = kernel_device_hits(f, KERNEL_BUCKET_US)
        row["kernel_device_200"] = pct(h, n)
        if not row["requests"]:
            sys.exit(f"bucket-table: no block requests traced in {f}")
        rows.append(row)

    w = BUCKET_WIDTHS_US
    print("| disk | read p50 / p99 us | waits | requests | "
          + " | ".join(f"task {x} us" for x in w) + " | "
          + " | ".join(f"device {x} us" for x in w) + " | kernel 200 us | kernel device 200 us | RFD 200 us |")
    print("|---|---|---|---|" + "---|" * (2 * len(w) + 3))
    for r in rows:
        ref = RFD.get(r["disk"])
        print(f"| {r['disk']} | {r['read_p50_p99_us']} | {r['waits']} | {r['requests']} | "
              + " | ".join(fmt(r["task"][str(x)]) for x in w) + " | "
              + " | ".join(fmt(r["device"][str(x)]) for x in w) + " | "
              + f"{fmt(r['kernel_200'])} | {fmt(r['kernel_device_200'])} | "
              + f"{f'{ref[1]} ({ref[0]})' if ref else '-'} |")
    if a.json:
        with open(a.json, "w") as jf:
            json.dump(rows, jf, indent=1)


if __name__ == "__main__":
    main()

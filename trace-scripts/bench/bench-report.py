#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench-report.py - aggregate the boots of `make bench` (design/bench.md).

Reads RAW/r<rep>-<policy>/ as trace-scripts/bench/bench.sh leaves them (per
workload: report.json from sip-idle-report --window, workload.txt and
late.txt from sipwl, io_latency.txt on the patched kernel; per boot:
cost.txt, disklat.txt, bench-boot.txt) and writes OUT/bench.json,
OUT/bench.md and the tables the plots are drawn from (OUT/bench/*.dat).
The policies, their decision functions and the workloads' order are the
bench's table (bench.tsv beside this file).

The guest records raw samples (sipwl's wake-up lateness, the duration of
every decision call); their percentiles are computed here, by
percentile(), with the analyser's definition (nearest rank).

Per workload and policy every figure is the median over the repetitions,
with min-max beside it. Exit status 1 with one line on stderr when a boot's
files are missing or malformed.
"""
import argparse
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bucketpred import BUCKET_WIDTHS_US, KERNEL_BUCKET_US, read_waits, replay  # noqa: E402

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench.tsv")


def read_table(path=TABLE):
    """kind -> {name: [fields after the name]}, in the table's order."""
    t = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            kind, name, *rest = line.rstrip("\n").split("\t")
            t.setdefault(kind, {})[name] = ["" if x == "-" else x for x in rest]
    return t


BENCH = read_table()
POLICIES = list(BENCH["policy"])
# the policies of the patched kernel, "sched" (its defaults) first: each
# gets its own table of targets
PATCHED = ["sched"] + [p for p, f in BENCH["policy"].items() if f[0] == "patched" and p != "sched"]
WORKLOADS = list(BENCH["workload"])
METRICS = ["correct_pct", "too_deep_pct", "too_shallow_pct", "energy_vs_oracle",
           "wake_p50_us", "wake_p99_us", "throughput", "entries"]
# decision functions per policy (the table's); the governors' select calls
# tick_nohz_get_sleep_length itself, so only the outermost ones are summed;
# the first is called once per idle entry
COST_FUNCS = {p: f[2].split() for p, f in BENCH["policy"].items()}
COST_ENTRY = {p: f[0] for p, f in COST_FUNCS.items()}
# the replay of the series' bucket predictor: bucketpred.py


def fail(msg):
    print(f"bench-report: {msg}", file=sys.stderr)
    sys.exit(1)


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")


def percentile(values, p):
    """Nearest rank, as the analyser (model.c): the smallest sample with at
    least p % of the samples at or below it; None without samples."""
    if not values:
        return None
    v = sorted(values)
    return v[max((p * len(v) + 99) // 100 - 1, 0)]


def read_late(path):
    """sipwl -l: {"late": [ns, ...], "timer_late": [...]}; {} without the file."""
    out = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) == 2:
                    out.setdefault(w[0], []).append(int(w[1]))
    return out


def late_figures(late):
    """late_p50_us ... timer_late_p99_us of LATE_METRICS, None without samples."""
    out = {}
    for m in LATE_METRICS:
        stem, _, p = m[:-len("_us")].rpartition("_p")
        v = percentile(late.get(stem), int(p))
        out[m] = v / 1000 if v is not None else None
    return out


def workload_line(path):
    try:
        with open(path) as f:
            line = f.read().strip()
    except OSError as e:
        fail(f"{path}: {e}")
    kv = dict(re.findall(r"(\w+)=(\S+)", line))
    if "throughput" not in kv or "seconds" not in kv:
        fail(f"{path}: no sipwl result line: {line!r}")
    return kv


def judge(rep, wl, late):
    """The figures of one workload in one boot."""
    tot = rep["total"]
    c = sum(s["correct"] for s in tot["states"])
    d = sum(s["too_deep"] for s in tot["states"])
    s_ = sum(s["too_shallow"] for s in tot["states"])
    n = c + d + s_
    secs = float(wl["seconds"])
    wake = rep["latency"]["wake_to_run"]
    pred = rep.get("prediction") or {}
    t_abs = (pred.get("timer") or {}).get("abs_error") or {}
    return {
        "correct_pct": 100.0 * c / n if n else None,
        "too_deep_pct": 100.0 * d / n if n else None,
        "too_shallow_pct": 100.0 * s_ / n if n else None,
        "energy_vs_oracle": tot["energy_ratio"] if tot["oracle_energy_uj"] else None,
        "wake_p50_us": wake["p50_ns"] / 1000 if wake["count"] else None,
        "wake_p99_us": wake["p99_ns"] / 1000 if wake["count"] else None,
        "throughput": float(wl["throughput"]),
        "unit": wl.get("unit", "ops/s"),
        "entries": tot["idle_periods"] / secs if secs else None,
        "judged": n,
        "lost_events": rep["lost_events"],
        "timer_abs_err_p50_us": t_abs["p50_ns"] / 1000 if t_abs.get("count") else None,
        "timer_abs_err_p99_us": t_abs["p99_ns"] / 1000 if t_abs.get("count") else None,
        "slack_exit_us": slack_exit_us(rep, tot),
        **late_figures(late),
    }


# sipwl's own wake-up lateness, where the workload reports it: from the
# deadline (timer workloads) or from the waking CPU's write (remote-wakeup,
# sock-rr, prodcons, mix), to the woken task running; timer_*: mix's timer
# task beside the woken one.
LATE_METRICS = ["late_p50_us", "late_p99_us", "timer_late_p50_us", "timer_late_p99_us"]
# Per-workload figures of the harness's own error, not of the policy.
HARNESS_METRICS = ["slack_exit_us"]
TIMER_SLACK_US = 50   # a normal task's default timer slack


def slack_exit_us(rep, tot):
    """What a timer wake-up should cost in virtual time: the task's slack
    plus the median exit latency over the idle entries of the CPU with the
    most entries (the timer task's), since the lateness p50 it is compared
    with is a median over the same wake-ups (design/testbed.md)."""
    states = (rep.get("platform") or {}).get("states") or []
    cpus = rep.get("per_cpu") or []
    if not states or not cpus:
        return None
    exit_ns = {s["index"]: s["exit_latency_ns"] for s in states}
    busiest = max(cpus, key=lambda c: sum(s.get("entries", 0) for s in c["states"]))
    entered = sorted((exit_ns.get(s["index"], 0), s.get("entries", 0)) for s in busiest["states"])
    total = sum(n for _, n in entered)
    if not total:
        return None
    seen = 0
    for e, n in entered:
        seen += n
        if 2 * seen >= total:
            return TIMER_SLACK_US + e / 1000
    return None


def quantile_us(points, p):
    """emu_disk's interpolation of a profile (qemu/emu-disk/emu_disk.c)."""
    x = p * 100000
    for (pa, ta), (pb, tb) in zip(points, points[1:]):
        if x < pb:
            return (ta + (tb - ta) * (x - pa) / (pb - pa)) / 1000
    return points[-1][1] / 1000


def disk_profiles(boots):
    """dev -> profile name, p50 and p99, from a boot's emu_disk profiles file."""
    for b in boots:
        f = os.path.join(b, "emu_disk-profiles.txt")
        if not os.path.exists(f):
            continue
        out = {}
        for line in open(f):
            w = line.split()
            if len(w) < 4 or not w[0].startswith("emud"):
                continue
            pts = [(int(a), int(t)) for a, t in (x.split(":") for x in w[3:])]
            out["/dev/" + w[0]] = {"name": w[1], "p50_us": quantile_us(pts, 0.5),
                                   "p99_us": quantile_us(pts, 0.99)}
        return out
    return {}


def med(vals):
    v = [x for x in vals if x is not None]
    if not v:
        return None, None, None
    return statistics.median(v), min(v), max(v)


def read_cost(path):
    """cost.txt, "function ns" per call: calls, mean, p50 and p99 per function."""
    calls = {}
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 2:
                calls.setdefault(p[0], []).append(float(p[1]))
    return {fn: {"calls": len(v), "mean_ns": sum(v) / len(v),
                 "p50_ns": percentile(v, 50), "p99_ns": percentile(v, 99)}
            for fn, v in calls.items()}


def cost_per_entry(pol, funcs):
    """ns spent in the deciding functions per idle entry (mean)."""
    entry = funcs.get(COST_ENTRY[pol])
    if not entry or not entry["calls"]:
        return None
    total = sum(funcs[f]["calls"] * funcs[f]["mean_ns"] for f in COST_FUNCS[pol] if f in funcs)
    return total / entry["calls"]


def fmt(v, nd=1):
    if v is None:
        return "-"
    return f"{v:.{nd}f}"


def cell(m, nd=1):
    if m[0] is None:
        return "-"
    if m[1] == m[2]:
        return fmt(m[0], nd)
    return f"{fmt(m[0], nd)} ({fmt(m[1], nd)}-{fmt(m[2], nd)})"


def targets(out, a, me="sched"):
    """The project's targets for policy me (sched or another patched one), each with its worst case."""
    W = out["workloads"]
    res = []

    def check(name, rows):
        # rows: (workload, value, limit, met, text)
        rows = [r for r in rows if r[1] is not None and r[2] is not None]
        bad = [r for r in rows if not r[3]]
        worst = "-"
        if rows:
            r = max(bad, key=lambda r: abs(r[1] - r[2])) if bad else rows[0]
            worst = f"{r[0]}: {r[4]}" if bad else "all met"
        res.append({"target": name, "checked": len(rows), "met": len(rows) - len(bad),
                    "worst": worst,
                    "rows": [{"workload": r[0], "value": r[1], "limit": r[2], "met": r[3]}
                             for r in rows]})

    def get(w, p, k):
        return W.get(w, {}).get(p, {}).get(k)

    timer_io1 = [w for w in W if w.startswith("timer-") and w != "timer-jitter"
                 or w in ("io-fast", "io-mid", "io-slow")]
    check("correct >= 95 % (timer-periodic, single-disk IO)",
          [(w, get(w, me, "correct_pct"), 95.0, (get(w, me, "correct_pct") or 0) >= 95,
            f"{fmt(get(w, me, 'correct_pct'))} %") for w in timer_io1])
    io = [w for w in W if w.startswith("io-")]
    rows = []
    for w in io:
        s_, t = get(w, me, "correct_pct"), get(w, "teo", "correct_pct")
        if s_ is not None and t is not None:
            rows.append((w, s_, t + 10, s_ >= t + 10, f"{fmt(s_)} against teo {fmt(t)} + 10"))
    check("correct >= teo + 10 points (IO)", rows)
    rows = []
    for w in W:
        s_, t = get(w, me, "correct_pct"), get(w, "teo", "correct_pct")
        if s_ is not None and t is not None:
            rows.append((w, s_, t - 2, s_ >= t - 2, f"{fmt(s_)} against teo {fmt(t)} - 2"))
    check("correct >= teo - 2 points (all)", rows)
    check("energy / oracle <= 1.10",
          [(w, get(w, me, "energy_vs_oracle"), 1.10,
            (get(w, me, "energy_vs_oracle") or 0) <= 1.10,
            fmt(get(w, me, "energy_vs_oracle"), 3)) for w in W])
    rows = []
    for w in W:
        s_, t = get(w, me, "wake_p99_us"), get(w, "teo", "wake_p99_us")
        if s_ is not None and t is not None:
            rows.append((w, s_, t, s_ <= t, f"{fmt(s_)} us against teo {fmt(t)} us"))
    check("wake p99 <= teo's", rows)
    rows = []
    for w in W:
        s_ = get(w, me, "throughput")
        base = [get(w, p, "throughput") for p in ("menu", "teo", "ladder")]
        base = [b for b in base if b]
        if s_ is not None and base:
            rows.append((w, s_, 0.99 * max(base), s_ >= 0.99 * max(base),
                         f"{fmt(s_)} = {fmt(100 * s_ / max(base))} % of the best base {fmt(max(base))}"))
    check("throughput >= 99 % of the best base governor", rows)
    dc = out["decision_cost"]
    s_ = dc.get(me, {}).get("per_entry_ns")
    t = dc.get("teo", {}).get("per_entry_ns")
    check("decision cost <= teo's",
          [("cost pass", s_, t, s_ is not None and t is not None and s_ <= t,
            f"{fmt(s_, 0)} ns against teo {fmt(t, 0)} ns")])
    if a.time_target:
        check(f"wall time < {a.time_target} s",
              [("run", a.elapsed, a.time_target, a.elapsed < a.time_target, f"{a.elapsed} s")])
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--platform", default="x86-client")
    ap.add_argument("--smp", type=int, default=2)
    ap.add_argument("--elapsed", type=int, default=0)
    ap.add_argument("--time-target", type=int, default=0,
                    help="seconds the whole run should stay under (0: none)")
    ap.add_argument("--workloads", default="",
                    help="the order of the tables (default: the bench table's)")
    a = ap.parse_args()

    boots = sorted(glob.glob(os.path.join(a.raw, "r*-*")))
    boots = [b for b in boots if os.path.isdir(b)]
    if not boots:
        fail(f"{a.raw}: no boots")
    data = {}     # W -> P -> metric -> [values]
    costs = {}    # P -> funcs of the first boot with a cost.txt
    disklat = {}  # dev -> [p50_us, ...]
    waits = {}    # W -> [seqs, ...] (patched boots)
    reps = set()
    kinfo = {}
    for b in boots:
        m = re.match(r"r(\d+)-(\w+)$", os.path.basename(b))
        if not m:
            continue
        rep, pol = int(m.group(1)), m.group(2)
        reps.add(rep)
        for line in open(os.path.join(b, "bench-boot.txt")):
            k, _, v = line.strip().partition(" ")
            kinfo.setdefault(pol, {})[k] = v
        for wdir in sorted(glob.glob(os.path.join(b, "*", "report.json"))):
            w = os.path.basename(os.path.dirname(wdir))
            wd = os.path.dirname(wdir)
            f = judge(load_json(wdir), workload_line(os.path.join(wd, "workload.txt")),
                      read_late(os.path.join(wd, "late.txt")))
            d = data.setdefault(w, {}).setdefault(pol, {})
            for k, v in f.items():
                d.setdefault(k, []).append(v)
            iol = os.path.join(os.path.dirname(wdir), "io_latency.txt")
            if pol == "sched" and os.path.exists(iol):
                waits.setdefault(w, []).append(read_waits(iol))
        c = read_cost(os.path.join(b, "cost.txt"))
        if c and pol not in costs:
            costs[pol] = c
        dl = os.path.join(b, "disklat.txt")
        if os.path.exists(dl):
            for line in open(dl):
                kv = dict(re.findall(r"(\w+)=(\S+)", line))
                dev = line.split()[1] if line.startswith("disklat") else None
                if dev and "p50_us" in kv:
                    disklat.setdefault(dev, {}).setdefault("p50", []).append(float(kv["p50_us"]))
                    disklat[dev].setdefault("mean", []).append(float(kv["mean_us"]))
                    disklat[dev].setdefault("p99", []).append(float(kv["p99_us"]))

    for b in sorted(glob.glob(os.path.join(a.raw, "cost-*"))):
        pol = os.path.basename(b)[len("cost-"):]
        c = read_cost(os.path.join(b, "cost.txt"))
        if c:
            costs[pol] = c
    order = [w for w in (a.workloads.split() or WORKLOADS) if w in data]
    data = {w: data[w] for w in order + sorted(set(data) - set(order))}

    out = {"profile": a.platform, "smp": a.smp,
           "kernel": kinfo.get("sched", {}).get("kernel", "patched"),
           "kernels": {p: kinfo[p].get("kernel") for p in kinfo},
           "repetitions": len(reps), "elapsed_s": a.elapsed,
           "workloads": {}, "ranges": {}, "decision_cost": {}, "bucket_replay": {},
           "harness": {}}
    for w in data:
        out["workloads"][w] = {}
        out["ranges"][w] = {}
        for p in POLICIES:
            if p not in data[w]:
                continue
            d = data[w][p]
            out["workloads"][w][p] = {k: med(d[k])[0]
                                      for k in METRICS + LATE_METRICS + HARNESS_METRICS}
            out["workloads"][w][p]["unit"] = d["unit"][0]
            out["workloads"][w][p]["lost_events"] = sum(d["lost_events"])
            out["ranges"][w][p] = {k: list(med(d[k])[1:]) for k in METRICS + LATE_METRICS}
    for p in POLICIES:
        if p in costs:
            out["decision_cost"][p] = {"per_entry_ns": cost_per_entry(p, costs[p]),
                                       "functions": costs[p]}
    for w, runs in waits.items():
        row = {}
        for width in BUCKET_WIDTHS_US:
            h = n = ag = tot = 0
            for seqs in runs:
                hh, nn, aa = replay(seqs, width)
                h, n, ag = h + hh, n + nn, ag + aa
                tot += sum(len(s) for s in seqs.values())
            row[str(width)] = {"hit_pct": 100.0 * h / n if n else None, "predicted": n,
                               "waits": tot}
            if width == KERNEL_BUCKET_US:
                row["kernel_agreement_pct"] = 100.0 * ag / tot if tot else None
        out["bucket_replay"][w] = row
    out["harness"]["disklat_us"] = {dev: {k: med(v)[0] for k, v in d.items()}
                                    for dev, d in disklat.items()}
    out["harness"]["disk_profiles"] = disk_profiles(boots)
    for w in ("timer-20ms", "timer-3ms", "timer-1ms", "idle"):
        if w in data and "sched" in data[w]:
            out["harness"]["timer_workload"] = w
            out["harness"]["sched_timer_abs_err_us"] = {
                "p50": med(data[w]["sched"]["timer_abs_err_p50_us"])[0],
                "p99": med(data[w]["sched"]["timer_abs_err_p99_us"])[0]}
            out["harness"]["energy_vs_oracle"] = {
                p: out["workloads"][w][p]["energy_vs_oracle"] for p in out["workloads"][w]}
            break

    out["targets"] = targets(out, a)
    for p in PATCHED[1:]:
        if any(p in d for d in out["workloads"].values()):
            out["targets_" + p] = targets(out, a, p)

    os.makedirs(os.path.join(a.out, "bench"), exist_ok=True)
    with open(os.path.join(a.out, "bench.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")

    # --- markdown -------------------------------------------------------
    L = []
    L.append(f"# make bench: {a.platform}, SMP={a.smp}, {len(reps)} repetition(s)\n")
    L.append(f"Kernels: {', '.join(f'{p}={k}' for p, k in sorted(out['kernels'].items()))}. "
             f"Wall time {a.elapsed} s. Figures: median (min-max) over the repetitions; "
             "judgement over every idle period of the workload's trace window "
             "(design/analysis.md); energy relative to the per-period oracle.\n")
    hdr = ("| policy | correct % | too deep % | too shallow % | energy/oracle | "
           "wake p50 us | wake p99 us | throughput | entries/s |")
    for w in data:
        unit = next(iter(data[w].values()))["unit"][0]
        L.append(f"\n## {w}\n")
        L.append(hdr.replace("throughput", f"throughput ({unit})"))
        L.append("|---|---|---|---|---|---|---|---|---|")
        for p in POLICIES:
            if p not in data[w]:
                continue
            d = data[w][p]
            lost = sum(d["lost_events"])
            L.append(f"| {p}{' (lost events: %d)' % lost if lost else ''} | "
                     + " | ".join(cell(med(d[k]), 3 if k == "energy_vs_oracle" else 1)
                                  for k in METRICS) + " |")
    late = [(w, pre) for w in data for pre in ("", "timer_")
            if any(med(d[pre + "late_p50_us"])[0] is not None for d in data[w].values())]
    if late:
        L.append("\n## Wake-up lateness seen by the workloads (sipwl)\n")
        L.append("From the deadline (timer workloads) or from the waking CPU's write "
                 "(remote-wakeup, sock-rr, prodcons, mix) to the woken task running: "
                 "p50 / p99 us, medians over the repetitions (design/bench.md).\n")
        L.append("| workload | " + " | ".join(POLICIES) + " |")
        L.append("|---|" + "---|" * len(POLICIES))
        for w, pre in late:
            cells = []
            for p in POLICIES:
                d = data[w].get(p)
                cells.append(f"{fmt(med(d[pre + 'late_p50_us'])[0])} / "
                             f"{fmt(med(d[pre + 'late_p99_us'])[0])}" if d else "-")
            L.append(f"| {w}{' (timer task)' if pre else ''} | " + " | ".join(cells) + " |")
    L.append("\n## Cost of choosing\n")
    L.append("function_graph durations of the functions that decide the idle state, "
             "under TCG with the tracer's own overhead in every traced call (design/bench.md).\n")
    L.append("| policy | ns per idle entry | functions: calls, mean / p50 / p99 ns |")
    L.append("|---|---|---|")
    for p, c in out["decision_cost"].items():
        fs = "; ".join(f"{fn} {v['calls']}, {v['mean_ns']:.0f} / {v['p50_ns']:.0f} / "
                       f"{v['p99_ns']:.0f}" for fn, v in sorted(c["functions"].items()))
        L.append(f"| {p} | {fmt(c['per_entry_ns'], 0)} | {fs} |")
    if out["bucket_replay"]:
        L.append("\n## Bucket predictor: hit rate by bucket width (replay)\n")
        L.append("The series' io_latency_wait sequences (actual_ns per task) replayed "
                 "through a userspace copy of io_latency_learn()/io_latency_predict() "
                 "with each bucket width; the kernel runs 200 us. Agreement: replayed "
                 "200 us predictions equal to the kernel's traced predicted_ns.\n")
        L.append("| workload | waits | " + " | ".join(f"{x} us" for x in BUCKET_WIDTHS_US)
                 + " | agreement % |")
        L.append("|---|---|" + "---|" * len(BUCKET_WIDTHS_US) + "---|")
        for w, row in out["bucket_replay"].items():
            L.append(f"| {w} | {row['200']['waits']} | "
                     + " | ".join(fmt(row[str(x)]["hit_pct"]) for x in BUCKET_WIDTHS_US)
                     + f" | {fmt(row.get('kernel_agreement_pct'))} |")
    for me, key in [("sched", "targets")] + [(p, "targets_" + p) for p in PATCHED[1:]]:
        if key not in out:
            continue
        L.append(f"\n## Targets ({me}, medians)\n")
        L.append("| target | met | worst case |")
        L.append("|---|---|---|")
        for t in out[key]:
            L.append(f"| {t['target']} | {t['met']}/{t['checked']} | {t['worst']} |")
    L.append("\n## The harness's own error\n")
    if out["harness"].get("timer_workload"):
        h = out["harness"]
        L.append(f"- {h['timer_workload']} (timers only: the next timer is known exactly): "
                 f"sched's |actual - predicted| idle length p50 "
                 f"{fmt(h['sched_timer_abs_err_us']['p50'])} us, p99 "
                 f"{fmt(h['sched_timer_abs_err_us']['p99'])} us; energy/oracle "
                 + ", ".join(f"{p} {fmt(v, 3)}" for p, v in h["energy_vs_oracle"].items()))
    for w in ("timer-300us", "timer-1ms", "timer-3ms"):
        if w not in out["workloads"]:
            continue
        L.append(f"- {w}: wake-up lateness p50 (sipwl) against timer slack 50 us + the median "
                 "exit latency of the timer CPU's idle entries: "
                 + ", ".join(f"{p} {fmt(v.get('late_p50_us'))} / {fmt(v.get('slack_exit_us'))} us"
                             for p, v in out["workloads"][w].items()))
    for dev, d in sorted(out["harness"]["disklat_us"].items()):
        prof = out["harness"].get("disk_profiles", {}).get(dev, {})
        L.append(f"- disklat {dev} ({prof.get('name', '?')}, exit latency emulation off): "
                 f"p50 {fmt(d.get('p50'))} us (profile {fmt(prof.get('p50_us'))}), "
                 f"p99 {fmt(d.get('p99'))} us (profile {fmt(prof.get('p99_us'))}), mean {fmt(d.get('mean'))} us")
    with open(os.path.join(a.out, "bench.md"), "w") as f:
        f.write("\n".join(L) + "\n")

    # --- tables for the plots -------------------------------------------
    for k in METRICS:
        with open(os.path.join(a.out, "bench", f"{k}.dat"), "w") as f:
            f.write("# workload " + " ".join(f"{p} {p}_min {p}_max" for p in POLICIES) + "\n")
            for w in data:
                row = [w]
                for p in POLICIES:
                    m = med(data[w][p][k]) if p in data[w] else (None, None, None)
                    row += ["?" if x is None else f"{x:.4f}" for x in m]
                f.write(" ".join(row) + "\n")
    print(open(os.path.join(a.out, "bench.md")).read())


if __name__ == "__main__":
    main()

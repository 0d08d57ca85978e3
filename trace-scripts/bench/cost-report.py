#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cost-report.py - the tables of `make bench-cost` from its boots.

usage: cost-report.py --raw DIR --out DIR [--reference POLICY]
                      [--policies 'P ...'] [--variants 'V ...']
                      [--platform NAME] [--append ARGS]

DIR/<kernel>-<view>/cost-rows.txt holds the guest's lines (cost-guest.sh)

    row NAME rep R ops N elapsed_ns E idle_ns I idle_entries K

for kernel base and patched, view states and poll; DIR/<kernel>-states/
entry-<policy>.txt one instruction count per idle entry. In virtual time a
guest ns is one instruction, so a run's instructions are its elapsed time
less the time its CPU spent in idle states (I, skipped by the emulator):
instructions per operation are (E - I) / N. A row's figure is the median
of its runs; "patched/base" is the base's instructions over the patched
kernel's, the throughput ratio the issue's targets are written in (>= 0.99
with every input on). The idle entry figures are per policy: entries,
median, the 10th, 90th and 99th percentiles and the mean of the counts up
to the 99th percentile. A variant V (inputs
switched off at boot) is DIR/patched-states-V/, the same rows and the
series' idle entry figure: its patched/base per row, and what the inputs
it switches off cost, its instructions per operation less the all-on
figure's, as a share of the base's.

Writes OUT/cost.json and OUT/cost.md; exits 1 with a message naming the
missing or malformed file when a boot's results are incomplete.
"""
import argparse
import json
import os
import statistics
import sys

KERNELS = ("base", "patched")
VIEWS = (("states", "idle states present"), ("poll", "idle=poll"))
ROW_KEYS = ("ops", "elapsed_ns", "idle_ns", "idle_entries")
# An idle entry's path is thousands of instructions; a pair further apart
# than this is an artefact of the trace (see read_entries()).
ENTRY_MAX_NS = 1000000


def fail(msg):
    print(f"cost-report: {msg}", file=sys.stderr)
    sys.exit(1)


def read_rows(path):
    """{row: [run, ...]} in file order; a run is a dict of ROW_KEYS."""
    rows = {}
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    for n, line in enumerate(lines, 1):
        w = line.split()
        if not w:
            continue
        try:
            if len(w) != 12 or w[0] != "row" or w[2] != "rep":
                raise ValueError
            run = {k: int(w[w.index(k) + 1]) for k in ROW_KEYS}
        except ValueError:
            fail(f"{path}:{n}: not a cost row: {line!r}")
        if run["ops"] <= 0 or run["elapsed_ns"] <= 0 or run["idle_ns"] < 0:
            fail(f"{path}:{n}: no operations or no time: {line!r}")
        rows.setdefault(w[1], []).append(run)
    if not rows:
        fail(f"{path}: no rows")
    return rows


def per_op(run):
    return (run["elapsed_ns"] - run["idle_ns"]) / run["ops"]


def pct(sorted_vals, p):
    i = min(len(sorted_vals) - 1, max(0, round(p / 100 * (len(sorted_vals) - 1))))
    return sorted_vals[i]


def read_entries(path):
    try:
        with open(path) as f:
            vals = sorted(int(x) for x in f.read().split())
        total = len(vals)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    except ValueError:
        fail(f"{path}: not one instruction count per line")
    # About 2 % of the pairs, with every policy alike, are tens of ms
    # apart either way (negative too): the trace's timestamps of those
    # pairs, not the path, which is a few thousand instructions. Pairs
    # outside [0, ENTRY_MAX_NS) are dropped and counted.
    vals = [v for v in vals if 0 <= v < ENTRY_MAX_NS]
    if not vals:
        fail(f"{path}: no idle entries")
    p99 = pct(vals, 99)
    return {
        "entries": len(vals),
        "dropped": total - len(vals),
        "mean": round(statistics.fmean(v for v in vals if v <= p99), 1),
        "median": statistics.median(vals),
        "p10": pct(vals, 10),
        "p90": pct(vals, 90),
        "p99": p99,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--reference", default="teo")
    ap.add_argument("--policies", default="")
    ap.add_argument("--platform", default="")
    ap.add_argument("--append", default="")
    ap.add_argument("--variants", default="")
    a = ap.parse_args()

    views = {}
    for view, _ in VIEWS:
        data = {k: read_rows(os.path.join(a.raw, f"{k}-{view}", "cost-rows.txt"))
                for k in KERNELS}
        if list(data["base"]) != list(data["patched"]):
            fail(f"{view}: the kernels ran different rows: "
                 f"{list(data['base'])} and {list(data['patched'])}")
        rows = []
        for name in data["base"]:
            fig = {}
            for k in KERNELS:
                runs = data[k][name]
                ipo = [per_op(r) for r in runs]
                fig[k] = {
                    "instructions_per_op": round(statistics.median(ipo), 1),
                    "min": round(min(ipo), 1),
                    "max": round(max(ipo), 1),
                    "runs": len(runs),
                    "idle_entries_per_kop": round(
                        1000 * sum(r["idle_entries"] for r in runs)
                        / sum(r["ops"] for r in runs), 2),
                }
            b, p = fig["base"], fig["patched"]
            fig["ratio"] = round(b["instructions_per_op"] / p["instructions_per_op"], 4)
            # the spread: the worst and best pairing of the runs
            fig["ratio_min"] = round(b["min"] / p["max"], 4)
            fig["ratio_max"] = round(b["max"] / p["min"], 4)
            fig["row"] = name
            rows.append(fig)
        views[view] = rows

    variants = {}
    base_rows = {r["row"]: r["base"]["instructions_per_op"] for r in views["states"]}
    all_rows = {r["row"]: r["patched"]["instructions_per_op"] for r in views["states"]}
    for v in a.variants.split():
        d = os.path.join(a.raw, f"patched-states-{v}")
        data = read_rows(os.path.join(d, "cost-rows.txt"))
        if list(data) != list(base_rows):
            fail(f"variant {v}: rows {list(data)}, not {list(base_rows)}")
        rows = []
        for name, runs in data.items():
            ipo = statistics.median(per_op(r) for r in runs)
            rows.append({
                "row": name,
                "instructions_per_op": round(ipo, 1),
                "ratio": round(base_rows[name] / ipo, 4),
                # what the inputs switched off cost, % of the base
                "inputs_cost_pct": round(100 * (all_rows[name] - ipo) / base_rows[name], 2),
            })
        entry_path = os.path.join(d, "entry-sched.txt")
        variants[v] = {
            "rows": rows,
            "idle_entry": read_entries(entry_path) if os.path.exists(entry_path) else None,
        }

    pols = a.policies.split()
    entry = {}
    for pol in pols:
        for k in KERNELS:
            path = os.path.join(a.raw, f"{k}-states", f"entry-{pol}.txt")
            if os.path.exists(path):
                entry[pol] = read_entries(path)
        if pol not in entry:
            fail(f"no idle entry figure of policy {pol} (entry-{pol}.txt)")

    out = {
        "platform": a.platform,
        "reference": a.reference,
        "patched_append": a.append,
        "views": views,
        "idle_entry": entry,
        "variants": variants,
    }
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "cost.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")

    md = ["# What the hooks cost: instructions per operation, one CPU", ""]
    md.append(f"Base kernel under {a.reference}, patched kernel under the series"
              + (f" booted with `{a.append}`" if a.append else "")
              + f"; platform {a.platform or 'none'}, virtual time (one guest ns is "
              "one instruction), median of each row's runs; patched/base is the "
              "base's instructions per operation over the patched kernel's "
              "(the throughput ratio), with its spread over the runs.")
    for view, title in VIEWS:
        md += ["", f"## {title}", "",
               "| row | base instr/op | patched instr/op | patched/base | spread "
               "| idle entries per 1000 ops (base, patched) |",
               "|---|---|---|---|---|---|"]
        for r in views[view]:
            b, p = r["base"], r["patched"]
            md.append(f"| {r['row']} | {b['instructions_per_op']:.0f} "
                      f"| {p['instructions_per_op']:.0f} | {r['ratio']:.3f} "
                      f"| {r['ratio_min']:.3f}-{r['ratio_max']:.3f} "
                      f"| {b['idle_entries_per_kop']:g}, {p['idle_entries_per_kop']:g} |")
    if entry:
        md += ["", "## Instructions per idle entry", "",
               "From the idle loop's entry (arch_cpu_idle_enter()) to the driver's "
               "->enter() (the power:cpu_idle event), one CPU; both points carry "
               "the tracer's own constant, the same for every policy. Pairs "
               f"outside 0-{ENTRY_MAX_NS} ns are the trace's artefacts and dropped.", "",
               "| policy | entries | dropped | median | p10 | p90 | p99 | mean to p99 |",
               "|---|---|---|---|---|---|---|---|"]
        for pol in pols:
            e = entry[pol]
            md.append(f"| {pol} | {e['entries']} | {e['dropped']} | {e['median']:.0f} "
                      f"| {e['p10']} | {e['p90']} | {e['p99']} | {e['mean']:.0f} |")
    if variants:
        names = list(variants)
        md += ["", "## Inputs switched off (states view)", "",
               "patched/base with every input on, then with each variant's inputs "
               "off at boot; in brackets what those inputs cost, % of the base's "
               "instructions per operation.", "",
               "| row | all on | " + " | ".join(names) + " |",
               "|---|---|" + "---|" * len(names)]
        for r in views["states"]:
            cells = []
            for v in names:
                vr = next(x for x in variants[v]["rows"] if x["row"] == r["row"])
                cells.append(f"{vr['ratio']:.3f} ({vr['inputs_cost_pct']:+.1f} %)")
            md.append(f"| {r['row']} | {r['ratio']:.3f} | " + " | ".join(cells) + " |")
        if any(variants[v]["idle_entry"] for v in names):
            md += ["", "| idle entry, median instructions | all on | "
                   + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
            allm = entry.get("sched", {}).get("median")
            md.append("| sched | " + (f"{allm:.0f}" if allm is not None else "-") + " | "
                      + " | ".join(f"{variants[v]['idle_entry']['median']:.0f}"
                                   if variants[v]["idle_entry"] else "-" for v in names)
                      + " |")
    with open(os.path.join(a.out, "cost.md"), "w") as f:
        f.write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()

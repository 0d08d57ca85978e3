#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench-compare.py - one policy of two `make bench` runs, workload by workload.

usage: bench-compare.py [--policy P] [--labels BEFORE,AFTER] [--tolerance PCT]
                        BEFORE AFTER

BEFORE and AFTER are bench.json files (or the directories holding them)
of two runs of the same bench, typically the series before and after a
change (the policy's kernel built from each). For every workload both
runs have, the policy's median and min-max of each judged figure are
printed side by side, as a markdown table, and a figure is "worse" when
the two runs' ranges do not overlap and AFTER's is on the bad side (its
best repetition is worse than BEFORE's worst) by more than the
tolerance: its median differs from BEFORE's by more than PCT percent of
BEFORE's (default TOLERANCE_PCT below). A move to the bad side within
the tolerance is listed apart and does not count. With one repetition
per run the ranges are the medians.

The figures are those of the bench's targets (design/bench.md), each
with its good direction: correct % up, energy / oracle and wake-up p99
down, throughput up (too deep and too shallow % are what correct % is
not: bench.md has them). A figure absent in either run (throughput of
the idle workload) is not compared.

The judge must be the same in both runs: compare bench.json files that
sip-idle-report of one version wrote, from traces of one test bed.

Exit status: 0 when no figure is worse, 1 when one is (listed after the
table), 2 on bad input (one line on stderr: a missing or malformed file,
a policy that a run does not have, no workload in common).
"""
import argparse
import json
import os
import sys

# The smallest move that counts, in percent of the BEFORE median. The
# bench's own throughput target calls 99 % of the best governor equal;
# in virtual time a figure with no spread moves by less than that for a
# few instructions (0.1 us of wake-up p99 on 894 us is 100 instructions
# more on the wake-up path, 0.01 %).
TOLERANCE_PCT = 1.0

# figure -> (column title, +1 when higher is better, -1 when lower is)
FIGURES = [
    ("correct_pct", "correct %", +1),
    ("energy_vs_oracle", "energy/oracle", -1),
    ("wake_p99_us", "wake p99 us", -1),
    ("throughput", "throughput", +1),
]


def fail(msg):
    print(f"bench-compare: {msg}", file=sys.stderr)
    sys.exit(2)


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, "bench.json")
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    if not isinstance(d, dict) or not isinstance(d.get("workloads"), dict):
        fail(f"{path}: not a bench.json (no workloads)")
    return path, d


def figure(run, w, pol, key):
    """(median, lo, hi) of one figure, None when the run has no value."""
    med = run["workloads"].get(w, {}).get(pol, {}).get(key)
    if med is None:
        return None
    rng = run.get("ranges", {}).get(w, {}).get(pol, {}).get(key) or [med, med]
    lo, hi = rng
    if lo is None or hi is None:
        lo = hi = med
    return med, lo, hi


def worse(before, after, sign, tol_pct):
    """None, "tolerated" or "worse": after's best repetition worse than
    before's worst, its median by more than tol_pct % of before's."""
    apart = after[2] < before[1] if sign > 0 else after[1] > before[2]
    if not apart:
        return None
    if abs(after[0] - before[0]) > abs(before[0]) * tol_pct / 100:
        return "worse"
    return "tolerated"


def fmt(f):
    if f is None:
        return "-"
    med, lo, hi = f
    digits = 3 if abs(med) < 10 and med != int(med) else 1
    if lo == hi:
        return f"{med:.{digits}f}"
    return f"{med:.{digits}f} ({lo:.{digits}f}-{hi:.{digits}f})"


def main():
    ap = argparse.ArgumentParser(description="one policy of two make bench runs")
    ap.add_argument("--policy", default="sched")
    ap.add_argument("--labels", default="before,after",
                    help="the two runs' names in the table (default before,after)")
    ap.add_argument("--tolerance", type=float, default=TOLERANCE_PCT, metavar="PCT",
                    help=f"moves within PCT %% of the before median do not count (default {TOLERANCE_PCT})")
    ap.add_argument("before")
    ap.add_argument("after")
    a = ap.parse_args()
    if not 0 <= a.tolerance < 100:
        fail(f"--tolerance {a.tolerance}: a percentage, at least 0 and below 100")
    labels = a.labels.split(",")
    if len(labels) != 2 or not all(labels):
        fail(f"--labels {a.labels!r}: two names separated by a comma")

    runs = [load(a.before), load(a.after)]
    for path, run in runs:
        if not any(a.policy in p for p in run["workloads"].values()):
            fail(f"{path}: no figures of policy {a.policy}")
    wb, wa = runs[0][1]["workloads"], runs[1][1]["workloads"]
    common = [w for w in wa if w in wb and a.policy in wa[w] and a.policy in wb[w]]
    if not common:
        fail(f"no workload has figures of {a.policy} in both runs")
    only = sorted(set(wb) ^ set(wa))

    b, af = runs[0][1], runs[1][1]
    print(f"# {a.policy}: {labels[0]} ({runs[0][0]}, {b.get('repetitions', '?')} repetitions)"
          f" against {labels[1]} ({runs[1][0]}, {af.get('repetitions', '?')} repetitions)")
    print()
    print("Median (min-max) over the repetitions; a figure is worse when "
          f"{labels[1]}'s best repetition is worse than {labels[0]}'s worst "
          f"and its median moved by more than {a.tolerance:g} %.")
    print()
    print("| workload | " + " | ".join(f"{t} {labels[0]} | {labels[1]}" for _, t, _ in FIGURES) + " |")
    print("|---|" + "---|---|" * len(FIGURES))
    bad, small = [], []
    for w in common:
        cells = []
        for key, title, sign in FIGURES:
            fb, fa = figure(b, w, a.policy, key), figure(af, w, a.policy, key)
            mark = ""
            how = worse(fb, fa, sign, a.tolerance) if fb is not None and fa is not None else None
            if how == "worse":
                mark = " **worse**"
                bad.append(f"{w}: {title} {fmt(fb)} -> {fmt(fa)}")
            elif how == "tolerated":
                mark = " (within)"
                small.append(f"{w}: {title} {fmt(fb)} -> {fmt(fa)}")
            cells.append(fmt(fb))
            cells.append(fmt(fa) + mark)
        print(f"| {w} | " + " | ".join(cells) + " |")
    print()
    if only:
        print(f"Not compared (in one run only): {', '.join(only)}.")
        print()
    if bad:
        print(f"{len(bad)} figures worse in {labels[1]}:")
        for line in bad:
            print(f"- {line}")
    else:
        print(f"No figure worse in {labels[1]} on {len(common)} workloads.")
    if small:
        print()
        print(f"{len(small)} figures on the bad side by at most {a.tolerance:g} % (not counted):")
        for line in small:
            print(f"- {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

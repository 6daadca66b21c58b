"""Rows and fits of lab/growth.sh.

growth.py row SUITE NP JSONL ERR   one TSV row: records and bytes of the
                                   results file, then lab/inside.c's line
growth.py fit TSV                  per suite and figure, the exponent k of
                                   figure ~ P^k by least squares over
                                   log P, the local one between the two
                                   largest P, and the model's (docs/scale.md)
"""
import json
import math
import os
import re
import sys

# The model's exponent of each figure as P grows (docs/scale.md), for
# P large enough that the constant parts no longer count.
# outside_cpu_s is rank 0's CPU time outside the MPI calls (its wall
# time outside them, outside_s, also holds the waits for a core when the
# processes outnumber the cores). imb-ref is IMB-MPI1's Alltoall at the
# same P: the MPI library's own growth, for the memory.
MODEL = {
    "links": {"records": 1, "bytes": 2, "hwm_over_ref_kib": 2, "outside_cpu_s": 2},
    "mpi1": {"records": 1, "bytes": 1, "hwm_over_ref_kib": 1, "outside_cpu_s": 1},
    "osu": {"records": 0, "bytes": 0, "hwm_over_ref_kib": 1, "outside_cpu_s": 0},
    "skampi": {"records": 1, "bytes": 1, "hwm_over_ref_kib": 0, "outside_cpu_s": 1},
}
FIGURES = ["records", "bytes", "hwm_kib", "hwm_over_ref_kib", "outside_s", "outside_cpu_s"]


def row(suite, np_, jsonl, err):
    records = 0
    with open(jsonl if jsonl != "-" else os.devnull) as f:
        for line in f:
            if line.strip() and "schema" not in json.loads(line):
                records += 1
    m = None
    with open(err) as f:
        for line in f:
            m = re.search(r"growth-pmpi rank 0: wall (\S+) inside (\S+) cpu (\S+) cpu_inside (\S+) calls \d+ "
                          r"hwm_kib (-?\d+)", line) or m
    if m is None:
        sys.exit(f"growth.py: no line of lab/inside.c in {err}")
    wall, inside, cpu, cpu_in, hwm = float(m[1]), float(m[2]), float(m[3]), float(m[4]), int(m[5])
    size = os.path.getsize(jsonl) if jsonl != "-" else 0
    print(f"{suite}\t{np_}\t{records}\t{size}\t{hwm}\t{wall:.3f}\t{wall - inside:.3f}\t{cpu - cpu_in:.3f}")


def slope(xs, ys):
    lx = [math.log(x) for x in xs]
    ly = [math.log(max(y, 1e-9)) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    den = sum((a - mx) ** 2 for a in lx)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / den if den else float("nan")


def fit(tsv):
    rows = {}
    with open(tsv) as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            rows.setdefault(r["suite"], []).append(r)
    print("| suite | figure | values at P = " + ", ".join(r["np"] for r in next(iter(rows.values()))) +
          " | k, least squares | k, two largest P | model |")
    print("| --- | --- | --- | --- | --- | --- |")
    ref = {r["np"]: float(r["hwm_kib"]) for r in rows.get("imb-ref", [])}
    for suite, rs in rows.items():
        if suite != "imb-ref" and ref:
            for r in rs:  # what grows beyond the MPI library's own memory
                r["hwm_over_ref_kib"] = float(r["hwm_kib"]) - ref.get(r["np"], float("nan"))
        ps = [int(r["np"]) for r in rs]
        for fig in FIGURES:
            if fig not in rs[0]:
                continue
            vs = [float(r[fig]) for r in rs]
            if suite == "imb-ref" and fig in ("records", "bytes"):
                continue
            k = slope(ps, vs)
            kl = slope(ps[-2:], vs[-2:]) if len(ps) > 1 else float("nan")
            vals = ", ".join(f"{v:g}" for v in vs)
            print(f"| {suite} | {fig} | {vals} | {k:.2f} | {kl:.2f} | {MODEL.get(suite, {}).get(fig, '?')} |")


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "row":
        row(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "fit":
        fit(sys.argv[2])
    else:
        sys.exit(__doc__)

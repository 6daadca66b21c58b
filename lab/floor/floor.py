#!/usr/bin/env python3
"""floor.py DIR NP MPI...: the table of lab/floor/floor.sh from its ticks
files DIR/MPI.{c,go}.ROUND.ticks: per MPI, the median over the launches of
the largest rank's Private and Pss and of the node total (the sum of the
ranks' Pss) at each launch's peak (lab/rss.py), in MiB, C and Go, and
Go's excess, per rank for the node total too."""
import glob
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import rss  # noqa: E402  (lab/rss.py)


def figures(path):
    p = rss.peak(path)
    if p is None:
        sys.exit("floor.py: %s: no tick with every rank" % path)
    r = p["ranks"]
    return {"Private": max(x["Private"] for x in r), "Pss": max(x["Pss"] for x in r),
            "total": sum(x["Pss"] for x in r)}


def main(d, np, mpis):
    print("| MiB, np %d | C | Go | Go's excess |" % np)
    print("| --- | --- | --- | --- |")
    for m in mpis:
        med = {}
        for p in ("c", "go"):
            runs = [figures(f) for f in sorted(glob.glob(os.path.join(d, "%s.%s.*.ticks" % (m, p))))]
            med[p] = {k: statistics.median(x[k] for x in runs) / 1024 for k in runs[0]}
        for k, name in (("Private", "Private, largest rank"), ("Pss", "Pss, largest rank"),
                        ("total", "node total (sum of Pss)")):
            c, g = med["c"][k], med["go"][k]
            extra = " (%.2f per rank)" % ((g - c) / np) if k == "total" else ""
            print("| %s: %s | %.2f | %.2f | +%.2f%s |" % (m, name, c, g, g - c, extra))


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3:])

#!/usr/bin/env python3
"""memory.py: the memory table of lab/memory.sh or of lab/device/run.sh's
mem part (docs/memory.md).

Usage: python3 lab/memory.py DIR
  DIR holds MPI.mem.PROG.npN.ROUND.ticks files (PROG mb or imb), written
  by lab/rss.py -watch; or DIR is a device run's OUT, whose raw.tar.gz
  holds them under raw/.

For each MPI and process count: the largest rank's Rss, Pss and Private
(Private_Clean + Private_Dirty) and the node total (the sum of the ranks'
Pss) at each launch's peak (rss.py -peaks), as the median over the
launches with their min and max, mpibench against IMB-MPI1 (difference
and ratio of the medians), and the goals' verdicts: Private per rank at
most IMB-MPI1's + 4 MiB; the node total at most 1.15 times IMB-MPI1's at
16 ranks.
"""
import os
import re
import statistics
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rss  # noqa: E402  (lab/rss.py)

NAME = re.compile(r"^(\w+)\.mem\.(mb|imb)\.np(\d+)\.(\d+)\.ticks$")
PRIVATE_MIB = 4  # the goal: mpibench's Private per rank <= IMB-MPI1's + 4 MiB
TOTAL_RATIO = 1.15  # the goal: node total <= 1.15 x IMB-MPI1's ...
TOTAL_NP = 16  # ... at 16 ranks
MPI_NAMES = {"openmpi": "Open MPI", "mpich": "MPICH"}
ROWS = (("Rss, largest rank", "Rss"), ("Pss, largest rank", "Pss"),
        ("Private, largest rank", "Private"), ("node total (sum of Pss)", "total"))


def exit_code(path):
    """The launch's exit status from rss.py's last line; None if it has none."""
    with open(path) as f:
        for line in f:
            m = re.match(r"# exit (-?\d+)", line)
            if m:
                return int(m.group(1))
    return None


def launch(path):
    """kB per row key of one launch's peak; None for a failed launch."""
    if exit_code(path) != 0:
        return None
    p = rss.peak(path)
    if p is None:
        return None
    r = p["ranks"]
    return {"Rss": max(x["Rss"] for x in r), "Pss": max(x["Pss"] for x in r),
            "Private": max(x["Private"] for x in r), "total": sum(x["Pss"] for x in r), "np": p["np"]}


def collect(d):
    """(mpi, np) -> prog -> [launch], and (mpi, np) -> prog -> failed count."""
    runs, failed = {}, {}
    for name in sorted(os.listdir(d)):
        m = NAME.match(name)
        if not m:
            continue
        key, prog = (m.group(1), int(m.group(3))), m.group(2)
        v = launch(os.path.join(d, name))
        if v is None or v["np"] != key[1]:
            failed.setdefault(key, {}).setdefault(prog, 0)
            failed[key][prog] += 1
            continue
        runs.setdefault(key, {}).setdefault(prog, []).append(v)
    return runs, failed


def mib(kb):
    return kb / 1024


def spread(vals):
    return "%.2f (%.2f-%.2f)" % (mib(statistics.median(vals)), mib(min(vals)), mib(max(vals)))


def table(key, progs, failed):
    mpi, np_ = key
    mb, imb = progs.get("mb", []), progs.get("imb", [])
    fails = ", ".join("%d of %s" % (failed[p], n) for p, n in (("mb", "mpibench"), ("imb", "IMB-MPI1")) if failed.get(p))
    print("### %s, np %d: %d launches of mpibench, %d of IMB-MPI1%s" % (
        MPI_NAMES.get(mpi, mpi), np_, len(mb), len(imb), "; failed: " + fails if fails else ""))
    print()
    if not mb or not imb:
        print("(no comparison: a program has no launch)\n")
        return
    print("| MiB, median (min-max) | IMB-MPI1 | mpibench | difference | ratio |")
    print("| --- | --- | --- | --- | --- |")
    med = {}
    for label, k in ROWS:
        a, b = statistics.median(v[k] for v in imb), statistics.median(v[k] for v in mb)
        med[k] = (a, b)
        print("| %s | %s | %s | %+.2f | %.3f |" % (
            label, spread([v[k] for v in imb]), spread([v[k] for v in mb]), mib(b - a), b / a))
    print()
    a, b = med["Private"]
    print("- Private per rank <= IMB-MPI1's + %d MiB: %+.2f MiB, %s" % (
        PRIVATE_MIB, mib(b - a), "met" if b - a <= PRIVATE_MIB * 1024 else "MISSED"))
    a, b = med["total"]
    verdict = "met" if b <= TOTAL_RATIO * a else "MISSED"
    if np_ != TOTAL_NP:
        verdict += " at np %d (the goal is for %d ranks)" % (np_, TOTAL_NP)
    print("- node total <= %.2fx IMB-MPI1's: %.3fx, %s" % (TOTAL_RATIO, b / a, verdict))
    print()


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    d = argv[0]
    with tempfile.TemporaryDirectory() as tmp:
        tgz = os.path.join(d, "raw.tar.gz")
        if not any(NAME.match(n) for n in os.listdir(d)) and os.path.exists(tgz):
            with tarfile.open(tgz) as t:
                safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
                t.extractall(tmp, members=[m for m in t.getmembers() if NAME.match(os.path.basename(m.name))], **safe)
            d = os.path.join(tmp, "raw")
        if not os.path.isdir(d):
            print("memory.py: no ticks files in %s" % argv[0], file=sys.stderr)
            return 1
        runs, failed = collect(d)
    if not runs and not failed:
        print("memory.py: no ticks files in %s" % argv[0], file=sys.stderr)
        return 1
    for key in sorted(set(runs) | set(failed)):
        table(key, runs.get(key, {}), failed.get(key, {}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

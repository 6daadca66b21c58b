"""Table of lab/side.sh: median ratio mpibench / peer with min and max.

Usage: side.py DIR ROUNDS "MPIS" "PARTS" (side.sh calls it; rerun it by
hand on the outputs side.sh kept after a failure).
"""
import glob
import json
import math
import re
import statistics
import sys

KIB, MIB = 1024, 1048576
PP_LENS = [0, 8, KIB, 64 * KIB, 4 * MIB]


def fail(msg):
    print("side.py: " + msg, file=sys.stderr)
    sys.exit(2)


def jsonl(path, bad):
    """The records of a JSON Lines file; bad(message) is called for each unreadable line."""
    for i, line in enumerate(open(path), 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except ValueError as e:
            bad("%s:%d: %s" % (path, i, e))


def mpibench(path):
    """(benchmark, bytes) -> record of the np 2, non-check rows."""
    out = {}
    for rec in jsonl(path, fail):
        if rec.get("check") or rec.get("np") != 2 or "bytes" not in rec:
            continue
        out[(rec["benchmark"], rec["bytes"])] = rec
    return out


def imb_tables(lines):
    """(benchmark, processes, bytes) -> {column: value} from IMB's text tables."""
    out, name, procs, cols = {}, None, None, None
    for line in lines:
        m = re.match(r"# Benchmarking (\S+)", line)
        if m:
            name, procs, cols = m.group(1), None, None
            continue
        m = re.match(r"# #processes = (\d+)", line)
        if m:
            procs = int(m.group(1))
            continue
        f = line.split()
        if f and f[0] == "#bytes":
            cols = f
            continue
        if name and cols and len(f) == len(cols) and f[0].isdigit():
            try:
                out[(name, procs, int(f[0]))] = dict(zip(cols, map(float, f)))
            except ValueError:
                pass
        elif not f:
            cols = None
    return out


def imb(path):
    """(benchmark, bytes) -> {column: value} from IMB's text tables (np 2 runs)."""
    return {(name, n): cols for (name, _, n), cols in imb_tables(open(path)).items()}


def osu(path):
    """bytes -> the first figure of an OSU table's row (osu_latency: us;
    osu_bw, osu_bibw, osu_mbw_mr: MB/s)."""
    out = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 2 and f[0].isdigit():
            out[int(f[0])] = float(f[1])
    return out


# mpibench osu's tests against OSU's binaries (part osup2p): the record's
# key of the figure OSU prints first, and its unit.
OSU_P2P = (("osu_latency", "t_avg_us", "us"), ("osu_bw", "mbytes_per_sec", "MB/s"),
           ("osu_bibw", "mbytes_per_sec", "MB/s"), ("osu_mbw_mr", "mbytes_per_sec", "MB/s"))
# The persistent ones (part osupers).
OSU_PERS = (("osu_latency_persistent", "t_avg_us", "us"), ("osu_bw_persistent", "mbytes_per_sec", "MB/s"),
            ("osu_bibw_persistent", "mbytes_per_sec", "MB/s"))
# The one-sided ones (part osurma).
OSU_RMA = (("osu_put_latency", "t_avg_us", "us"), ("osu_get_latency", "t_avg_us", "us"),
           ("osu_put_bw", "mbytes_per_sec", "MB/s"), ("osu_get_bw", "mbytes_per_sec", "MB/s"),
           ("osu_put_bibw", "mbytes_per_sec", "MB/s"), ("osu_acc_latency", "t_avg_us", "us"))
OSU_W = (("osu_alltoallw", "t_avg_us", "us"),)


def wall(path):
    for line in open(path):
        if line.startswith("WALL "):
            return float(line.split()[1])
    fail("%s: no wall time" % path)


def maxrss(prefix):
    """The larger of the two ranks' peak RSS in kB (files PREFIX.PID)."""
    v = [int(open(f).read().split()[-1]) for f in glob.glob(prefix + ".*")]
    if len(v) != 2:
        fail("%s.*: want 2 files (one per rank), got %d" % (prefix, len(v)))
    return max(v)


def get(d, key, path):
    if key not in d:
        fail("%s: no row %s" % (path, key))
    return d[key]


def size(n):
    if n >= MIB:
        return "%d MiB" % (n // MIB)
    if n >= KIB:
        return "%d KiB" % (n // KIB)
    return "%d B" % n


def mpi1_rows(add, tmp, m, r, part, note):
    """Round r of part mpi1 (IMB 3.0's definition against IMB-MPI1 given IMB 3.0's counts, root
    cycling and loop) or mpi1w (mpibench -imb 2021, IMB 2021's definition, the same flags)."""
    a = mpibench("%s/%s.%s.%d.jsonl" % (tmp, m, part, r))
    p = "%s/%s.%s.B.%d" % (tmp, m, part, r)
    b = imb(p)
    for n in PP_LENS:
        add("PingPong %s vs IMB-MPI1%s" % (size(n), note), get(a, ("PingPong", n), p)["t_max_us"],
            get(b, ("PingPong", n), p)["t[usec]"])
    add("PingPing 8 B vs IMB-MPI1%s" % note, get(a, ("PingPing", 8), p)["t_max_us"],
        get(b, ("PingPing", 8), p)["t[usec]"])
    for bm, n in (("Bcast", 8), ("Bcast", 4 * MIB), ("Reduce", 4 * MIB)):
        add("%s %s vs IMB-MPI1 (t_avg%s)" % (bm, size(n), note), get(a, (bm, n), p)["t_avg_us"],
            get(b, (bm, n), p)["t_avg[usec]"])


def rows(tmp, m, rounds, parts):
    """(label, [ratio per round]) for one MPI."""
    got = {}

    def add(label, a, b):
        got.setdefault(label, []).append(a / b if b > 0 else float("inf"))

    for r in range(1, rounds + 1):
        for part, note in (("mpi1", ""), ("mpi1w", ", -imb 2021")):
            if part in parts:
                mpi1_rows(add, tmp, m, r, part, note)
        if "osu" in parts:
            p = "%s/%s.osu.B.%d" % (tmp, m, r)
            a, b = mpibench("%s/%s.osu.%d.jsonl" % (tmp, m, r)), osu(p)
            for n in PP_LENS[1:]:  # osu_latency 7.4 starts at 1 B
                add("PingPong %s vs osu_latency" % size(n), get(a, ("PingPong", n), p)["t_max_us"], get(b, n, p))
        for part, tests in (("osup2p", OSU_P2P), ("osupers", OSU_PERS), ("osurma", OSU_RMA), ("osuw", OSU_W)):
            if part not in parts:
                continue
            for bm, key, unit in tests:
                p = "%s/%s.%s.B.%d" % (tmp, m, bm, r)
                a, b = mpibench("%s/%s.%s.%d.jsonl" % (tmp, m, bm, r)), osu(p)
                for n in PP_LENS[1:]:
                    add("osu %s %s vs %s (%s)" % (bm, size(n), bm, unit), get(a, (bm, n), p)[key], get(b, n, p))
        if "thread" in parts:
            p = "%s/%s.thread.A.%d.jsonl" % (tmp, m, r)
            a, b = mpibench(p), mpibench("%s/%s.thread.B.%d.jsonl" % (tmp, m, r))
            for n in PP_LENS:
                add("PingPong %s funneled vs single (mpibench)" % size(n),
                    get(a, ("PingPong", n), p)["t_max_us"], get(b, ("PingPong", n), p)["t_max_us"])
        if "mem" in parts:
            a, b = "%s/%s.mem.A.%d.rss" % (tmp, m, r), "%s/%s.mem.B.%d.rss" % (tmp, m, r)
            add("peak RSS per rank, PingPong+Allreduce vs IMB-MPI1", maxrss(a), maxrss(b))
        if "ext" in parts:
            add("ext run but Window vs IMB-EXT (wall)", wall("%s/%s.ext.A.%d" % (tmp, m, r)),
                wall("%s/%s.ext.B.%d" % (tmp, m, r)))
    return got


def signed_rank_p(ratios):
    """Two-sided exact p of Wilcoxon's signed-rank test that the rounds'
    log ratios are centred on 0 (ratio 1): the rounds are pairs (both
    programs launched back to back), so this asks whether mpibench and the
    peer differ beyond the launch-to-launch noise. Ties get average ranks
    (counted in halves so that the exact distribution stays on integers);
    ratios of exactly 1 are dropped (Wilcoxon's rule). 1.0 when no round
    is left. With 7 rounds the smallest p is 2/128 = 0.016."""
    d = [math.log(r) for r in ratios if r > 0 and r != 1 and math.isfinite(r)]
    if not d:
        return 1.0
    order = sorted(range(len(d)), key=lambda i: abs(d[i]))
    half = [0] * len(d)  # twice the average rank
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and abs(d[order[j + 1]]) == abs(d[order[i]]):
            j += 1
        for k in range(i, j + 1):
            half[order[k]] = i + j + 2
        i = j + 1
    w = sum(h for h, x in zip(half, d) if x > 0)
    counts = {0: 1}  # number of sign patterns per doubled W+
    for h in half:
        nxt = dict(counts)
        for s, c in counts.items():
            nxt[s + h] = nxt.get(s + h, 0) + c
        counts = nxt
    total = 2 ** len(d)
    lo = sum(c for s, c in counts.items() if s <= w) / total
    hi = sum(c for s, c in counts.items() if s >= w) / total
    return min(1.0, 2 * min(lo, hi))


def verdict(v, p):
    """'~1' where the rounds cannot tell the two apart at the 5 % level,
    else whether mpibench's figure is above or below the peer's."""
    if p >= 0.05:
        return "~1"
    return "above" if statistics.median(v) > 1 else "below"


def main():
    tmp, rounds, mpis, parts = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split()
    print()
    print("%-8s %-52s %7s %7s %7s %7s %s" % ("MPI", "row (np 2): mpibench / peer", "median", "min", "max",
                                             "p", "verdict"))
    for m in mpis:
        for label, v in rows(tmp, m, rounds, parts).items():
            p = signed_rank_p(v)
            print("%-8s %-52s %7.3f %7.3f %7.3f %7.3f %s" % (m, label, statistics.median(v), min(v), max(v),
                                                             p, verdict(v, p)))
    print()
    print("p: Wilcoxon signed-rank test (exact, two-sided) of the rounds' log ratios against 0;")
    print("verdict ~1: mpibench and the peer do not differ beyond the noise of the launches at the 5 % level.")


if __name__ == "__main__":  # lab/device/summary.py imports the statistics
    main()

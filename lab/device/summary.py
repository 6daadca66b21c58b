"""Markdown tables of a lab/device/run.sh output directory (python3 stdlib).

Usage: python3 lab/device/summary.py OUT

Reads OUT/{openmpi,mpich}.log (each step's output between ### BEGIN/END
markers) and OUT/{openmpi,mpich}.jsonl (mpibench's records tagged with
_mpi, _step, _side, _round) and prints
  - np 2, per row: the median over the rounds of mpibench / peer within a
    round, min and max, the rounds used, and lab/side.py's signed-rank p
    and verdict (for MB/s rows, above is faster);
  - the np scaling launch: t_avg per benchmark, process count and length,
    mpibench against IMB-MPI1, and their ratio.
"""
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from side import imb_tables as imb, jsonl, signed_rank_p, size, verdict  # noqa: E402  (lab/side.py)

MPIS = ("openmpi", "mpich")
OSU_LENS = (8, 1024, 65536)
PP_LENS = (0, 8, 1024, 65536)


def steps(path):
    """(step, side, round) -> (rc, wall, [lines]) from an MPI's log."""
    out, cur, lines = {}, None, []
    if not os.path.exists(path):
        return out
    for line in open(path, errors="replace"):
        m = re.match(r"### BEGIN \S+ (\S+) (\S+) (\d+)", line)
        if m:
            cur, lines = (m.group(1), m.group(2), int(m.group(3))), []
            continue
        m = re.match(r"### END \S+ (\S+) (\S+) (\d+) rc=(\d+) wall=([\d.]+)", line)
        if m and cur:
            out[cur] = (int(m.group(4)), float(m.group(5)), lines)
            cur = None
            continue
        if cur:
            lines.append(line)
    return out


def records(path):
    """(step, round) -> [mpibench record], no -check rows."""
    out = {}
    if not os.path.exists(path):
        return out
    for r in jsonl(path, lambda msg: print("summary.py: %s (line skipped)" % msg, file=sys.stderr)):
        if r.get("check") or "bytes" not in r:
            continue
        out.setdefault((r["_step"], r["_round"]), []).append(r)
    return out


def osu(lines):
    """bytes -> the first figure of an OSU row (us or MB/s)."""
    out = {}
    for line in lines:
        f = line.split()
        if len(f) >= 2 and f[0].isdigit():
            try:
                out[int(f[0])] = float(f[1])
            except ValueError:
                pass
    return out


def mb(recs, bench, n, np_=2):
    for r in recs:
        if r["benchmark"] == bench and r["bytes"] == n and r.get("np") == np_:
            return r
    return None


def pair_rows(st, rec):
    """label -> [ratio per round] and label -> unit note."""
    got = {}
    rounds = sorted({k[2] for k in st if k[0] in ("osu_bibw", "osu_latency", "mpi1")})

    def add(label, a, b):
        if a is not None and b is not None and b > 0:
            got.setdefault(label, []).append(a / b)
        else:
            got.setdefault(label, [])

    for r in rounds:
        for bm, key, unit in (("osu_bibw", "mbytes_per_sec", "MB/s"), ("osu_latency", "t_avg_us", "us")):
            a, b = st.get((bm, "A", r)), st.get((bm, "B", r))
            ok = a and b and a[0] == 0 and b[0] == 0
            recs, peer = rec.get((bm, r), []), osu(b[2]) if b else {}
            for n in OSU_LENS:
                ra = mb(recs, bm, n)
                add("osu %s %s vs %s (%s)" % (bm, size(n), bm, unit),
                    ra[key] if ok and ra else None, peer.get(n) if ok else None)
        a, b = st.get(("mpi1", "A", r)), st.get(("mpi1", "B", r))
        ok = a and b and a[0] == 0 and b[0] == 0
        recs, peer = rec.get(("mpi1", r), []), imb(b[2]) if b else {}
        for bm in ("PingPong", "PingPing"):
            for n in PP_LENS:
                ra, rb = mb(recs, bm, n), peer.get((bm, 2, n))
                add("mpi1 %s %s vs IMB-MPI1 (t)" % (bm, size(n)),
                    ra["t_max_us"] if ok and ra else None, rb["t[usec]"] if ok and rb else None)
    full_rows(st, rec, add)
    return got, len(rounds) or len({k[2] for k in st if k[0] in ("full", "fullw")})


FULL_ROWS = (("PingPong", 0, "t"), ("PingPong", 8, "t"), ("PingPong", 1024, "t"), ("PingPong", 65536, "t"),
             ("PingPong", 4194304, "t"), ("PingPing", 8, "t"), ("Bcast", 8, "t_avg"), ("Bcast", 4194304, "t_avg"),
             ("Reduce", 4194304, "t_avg"))


def full_rows(st, rec, add):
    """PARTS=full and fullw: the rows of issue 13's table from mpi1's default run (fullw: with
    -imb 2021) against IMB-MPI1's."""
    for part in ("full", "fullw"):
        full_part(st, rec, add, part)


def full_part(st, rec, add, part):
    for r in sorted({k[2] for k in st if k[0] == part}):
        a, b = st.get((part, "A", r)), st.get((part, "B", r))
        ok = a and b and a[0] == 0 and b[0] == 0
        recs, peer = rec.get((part, r), []), imb(b[2]) if b else {}
        for bm, n, col in FULL_ROWS:
            ra, rb = mb(recs, bm, n), peer.get((bm, 2, n))
            mine = "t_max_us" if col == "t" else "t_avg_us"
            theirs = "t[usec]" if col == "t" else "t_avg[usec]"
            add("%s mpi1 %s %s vs IMB-MPI1 (%s)" % (part, bm, size(n), col),
                ra[mine] if ok and ra else None, rb[theirs] if ok and rb else None)


def figure(lines):
    """The 8-byte figure of an OSU-style output (OSU, mpibench osu, osudriver, gokernel)."""
    for line in lines:
        f = line.split()
        if len(f) == 2 and f[0] == "8":
            return float(f[1])
    return None


def drivers(st):
    """osu_bibw 8 B by mpibench, OSU, osudriver and gokernel (medians over the rounds, each / OSU's
    in its round), and imbdriver's samples in one process (odd and even medians)."""
    sides = ("mb", "osu", "cdrv", "godrv", "osu+coll", "cdrv+coll", "godrv+coll")
    names = {"mb": "mpibench osu", "osu": "OSU osu_bibw", "cdrv": "osudriver (C main)", "godrv": "gokernel (Go main)",
             "osu+coll": "OSU after mpibench's set-up collectives (lab/precoll.c)",
             "cdrv+coll": "osudriver after them", "godrv+coll": "gokernel after them (GOKERNEL_PRE=coll)"}
    rounds = sorted({k[2] for k in st if k[0] == "bibw8"})
    if rounds:
        print()
        print("osu_bibw -m 8:8, MB/s, %d rounds, order rotating: median (min-max), and the median of / OSU per round" % len(rounds))
        print()
        print("| program | MB/s | / OSU |")
        print("|---|---:|---:|")
        for sd in sides:
            v, r = [], []
            for n in rounds:
                x, y = st.get(("bibw8", sd, n)), st.get(("bibw8", "osu", n))
                fx, fy = figure(x[2]) if x else None, figure(y[2]) if y else None
                if fx is not None:
                    v.append(fx)
                    if fy:
                        r.append(fx / fy)
            if v:
                print("| %s | %.2f (%.2f-%.2f) | %s |" % (names[sd], statistics.median(v), min(v), max(v),
                                                          "%.3f" % statistics.median(r) if r else "-"))
    for sd in ("pingping", "bcast"):
        x = st.get(("modes", sd, 1))
        if not x:
            continue
        v = [float(line.split()[2]) for line in x[2] if len(line.split()) == 3 and line.split()[0] in ("PingPing", "Bcast")]
        if v:
            print()
            print("imbdriver %s, %d samples in one process (us): odd %.2f, even %.2f, min %.2f, median %.2f, max %.2f" % (
                sd, len(v), statistics.median(v[0::2]), statistics.median(v[1::2]), min(v), statistics.median(v), max(v)))


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    head = os.path.join(out, "run.log")
    if os.path.exists(head):
        print("## Device")
        print()
        print("```")
        for line in open(head, errors="replace"):
            if re.match(r"(nproc|uname|PRETTY_NAME|ldd:|Model name|memory|working MPIs|settings|libstdc\+\+|glibc|"
                        r"mpirun \(Open MPI\)|\s+Version:|\[.*(using setting|SKIPPED|done))", line):
                print(line.rstrip())
        print("```")
    for m in MPIS:
        st, rec = steps(os.path.join(out, m + ".log")), records(os.path.join(out, m + ".jsonl"))
        if not st:
            continue
        fails = ["%s %s %d rc=%d" % (k[0], k[1], k[2], v[0]) for k, v in sorted(st.items()) if v[0] != 0]
        print()
        print("## %s" % m)
        if fails:
            print()
            print("failed steps: " + ", ".join(fails))
        got, nr = pair_rows(st, rec)
        if got:
            print()
            print("np 2, %d rounds, interleaved: mpibench / peer per round" % nr)
            print()
            print("| row | median | min | max | rounds | p | verdict |")
            print("|---|---:|---:|---:|---:|---:|---|")
            for label, v in got.items():
                if not v:
                    print("| %s | - | - | - | 0 | - | - |" % label)
                    continue
                p = signed_rank_p(v)
                print("| %s | %.3f | %.3f | %.3f | %d | %.3f | %s |" % (label, statistics.median(v), min(v), max(v),
                                                                      len(v), p, verdict(v, p)))
        sr = max([k[2] for k in st if k[0] == "scale"] or [1])  # 2: run.sh's unbound retry
        a, b = st.get(("scale", "A", sr)), st.get(("scale", "B", sr))
        if a or b:
            recs = rec.get(("scale", sr), [])
            peer = imb(b[2]) if b else {}
            nps = sorted({r["np"] for r in recs} | {k[1] for k in peer if k[1]})
            print()
            print("scaling launch (mpibench rc=%s, %.1f s; IMB-MPI1 rc=%s, %.1f s): t_avg in us" %
                  (a[0] if a else "-", a[1] if a else 0, b[0] if b else "-", b[1] if b else 0))
            print()
            print("| benchmark | np | bytes | mpibench | IMB-MPI1 | ratio |")
            print("|---|---:|---:|---:|---:|---:|")
            for bm in ("Allreduce", "Bcast", "Alltoall"):
                for np_ in nps:
                    lens = sorted({r["bytes"] for r in recs if r["benchmark"] == bm and r["np"] == np_} |
                                  {k[2] for k in peer if k[0] == bm and k[1] == np_})
                    for n in lens:
                        ra, rb = mb(recs, bm, n, np_), peer.get((bm, np_, n))
                        x = ra["t_avg_us"] if ra else None
                        y = rb["t_avg[usec]"] if rb else None
                        ratio = "%.3f" % (x / y) if x is not None and y else "-"
                        print("| %s | %d | %s | %s | %s | %s |" % (bm, np_, size(n), "%.2f" % x if x is not None else "-",
                                                                   "%.2f" % y if y is not None else "-", ratio))
        drivers(st)
    print()
    print("p: Wilcoxon signed-rank test (exact, two-sided) of the rounds' log ratios against 0 (lab/side.py);")
    print("verdict ~1: no difference beyond the launches' noise at the 5 % level; for MB/s rows above is faster.")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""rotate.py ROUNDS: run several programs in rotating order and compare rows.

A benchmark helper, not a test. PROGS holds name=command pairs separated
by ';' (the first is the reference); ROWS the rows, as BENCHMARK,BYTES
words (default "PingPong,0 PingPong,8"); COL the IMB column read (default
t[usec]; t_avg[usec] where a table has no t[usec]). Round i runs the
programs starting from the i-th, so that drift on the machine hits all
alike. Each program prints IMB's tables (IMB-MPI1, mpibench mpi1) or
lab/imbdriver.c's and gokernel imb's "BENCHMARK BYTES MICROSECONDS"
lines, or OSU's "SIZE VALUE" rows (osu_latency, osu_bw, mpibench osu: the
row osu,SIZE). Prints per row the reference's median and, per other program, its
median and the median of its per-round ratios to the reference. See
docs/lab.md, "Side by side with the peers".

Example (MPICH, the 2-core VM):
  PROGS="imb=mpirun.mpich -np 2 IMB-MPI1 PingPong -time 1000000;mb=mpirun.mpich -np 2 mpibench mpi1 PingPong" \\
  ROWS="PingPong,0 PingPong,8 PingPong,1024" python3 lab/rotate.py 31
"""
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from side import imb_tables  # noqa: E402

KINDS = ("PingPong", "PingPing", "Bcast", "Reduce")


def fail(msg):
    print("rotate.py: " + msg, file=sys.stderr)
    sys.exit(2)


def parse(out, col):
    """(benchmark, bytes) -> microseconds from one program's output."""
    d = {}
    for (name, _, n), cols in imb_tables(out.splitlines()).items():
        d[(name, n)] = cols.get(col, cols.get("t_avg[usec]"))
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[0] in KINDS and f[1].isdigit():
            d[(f[0], int(f[1]))] = float(f[2])
        elif len(f) == 2 and f[0].isdigit():  # OSU's "SIZE VALUE" rows
            d[("osu", int(f[0]))] = float(f[1])
    return d


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        fail("usage: PROGS='name=cmd;...' [ROWS=...] rotate.py ROUNDS")
    rounds = int(sys.argv[1])
    progs = [p.split("=", 1) for p in os.environ.get("PROGS", "").split(";") if "=" in p]
    if len(progs) < 2:
        fail("PROGS: want at least two name=command pairs separated by ';'")
    rows = []
    for w in os.environ.get("ROWS", "PingPong,0 PingPong,8").split():
        name, _, n = w.partition(",")
        if not n.isdigit():
            fail(f"ROWS: {w!r}: want BENCHMARK,BYTES")
        rows.append((name, int(n)))
    col = os.environ.get("COL", "t[usec]")
    vals = {name: {r: [] for r in rows} for name, _ in progs}
    for i in range(rounds):
        k = i % len(progs)
        for name, cmd in progs[k:] + progs[:k]:
            out = subprocess.run(cmd, shell=True, capture_output=True, text=True)
            if out.returncode:
                fail(f"{name}: exit {out.returncode}: {out.stderr[-2000:]}")
            d = parse(out.stdout, col)
            for r in rows:
                if d.get(r) is None:
                    fail(f"{name}: no row {r[0]} {r[1]} B in its output")
                vals[name][r].append(d[r])
    ref = progs[0][0]
    for r in rows:
        line = f"{r[0]:9s} {r[1]:8d}  {ref}={statistics.median(vals[ref][r]):.3f}"
        for name, _ in progs[1:]:
            ratios = [a / b for a, b in zip(vals[name][r], vals[ref][r])]
            line += f"  {name}={statistics.median(vals[name][r]):.3f} ({statistics.median(ratios):.3f})"
        print(line)


if __name__ == "__main__":
    main()

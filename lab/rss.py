#!/usr/bin/env python3
"""rss.py: what a rank's memory costs (docs/memory.md).

Usage (Linux, as a user who may read /proc/PID of the ranks):
  python3 lab/rss.py -watch PROGRAM TICKS [--] mpirun -np 2 PROGRAM ARGS...
  python3 lab/rss.py -peaks TICKS...
  mpirun -np 2 python3 lab/rss.py OUT PROGRAM ARGS...
  python3 lab/rss.py -show OUT.*

-watch runs the launch command and, every RSS_INTERVAL seconds (default
0.02), reads /proc/PID/smaps_rollup of every process below it whose
executable is PROGRAM (a rank), appending one line per rank and tick to
TICKS; it exits with the command's status. -peaks prints each TICKS
file's peak: every rank's Rss, Pss and Private (Private_Clean +
Private_Dirty) at the tick where the sum of the ranks' Pss is largest
(the node total), with all ranks present. The snapshot, not each rank's
own maximum: when a rank exits, the pages it shared with the others are
divided among fewer processes, so the last rank's Pss and Private rise
at the end without it using anything more.

The other form (one per rank, under mpirun) shows where a rank's resident
memory goes: every 50 ms it reads the rank's VmRSS, and at each new peak
counts the resident pages of every mapping from /proc/PID/pagemap, the
executable's split by ELF section (readelf -S). It writes OUT.PID (JSON:
peak VmRSS in kB, kB per mapping) and exits with PROGRAM's status; -show
prints the files as tables. Mappings over 1 GiB (reserved address space,
MPICH's shared memory) are left out.
"""
import collections
import json
import os
import re
import struct
import subprocess
import sys
import time

# The smaps_rollup fields a tick keeps, in the order of a TICKS line.
FIELDS = ("Rss", "Pss", "Pss_Anon", "Pss_File", "Pss_Shmem", "Private_Clean", "Private_Dirty")


def rollup(pid):
    """kB per field of FIELDS, or None once the process has no memory."""
    out = {}
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            p = line.split()
            if len(p) == 3 and p[0].rstrip(":") in FIELDS:
                out[p[0].rstrip(":")] = int(p[1])
    return out if out.get("Rss") else None


def rank_of(pid):
    """The MPI rank from the launcher's environment (Open MPI, MPICH), else -1."""
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            env = dict(v.split(b"=", 1) for v in f.read().split(b"\0") if b"=" in v)
    except OSError:
        return -1
    for k in (b"OMPI_COMM_WORLD_RANK", b"PMI_RANK", b"PMIX_RANK"):
        if k in env:
            return int(env[k])
    return -1


def below(pid, root):
    """Whether process pid descends from root (or is it)."""
    for _ in range(64):
        if pid == root:
            return True
        try:
            with open("/proc/%d/stat" % pid) as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        if pid <= 1:
            return False
    return False


def same_file(pid, st):
    try:
        s = os.stat("/proc/%d/exe" % pid)
    except OSError:
        return False
    return (s.st_dev, s.st_ino) == (st.st_dev, st.st_ino)


def watch(program, out, cmd):
    """Runs cmd, writing a tick line per rank of program every interval."""
    interval = float(os.environ.get("RSS_INTERVAL", "0.02"))
    exe = os.stat(program)
    # pid -> rank; pids not below the launch. A process below it that is
    # not (yet) PROGRAM is looked at again: it may exec PROGRAM later.
    ranks, other = {}, set()
    t0 = time.monotonic()
    # close_fds=False: MPICH's launcher hands its PMI socket down as a file.
    proc = subprocess.Popen(cmd, close_fds=False)
    with open(out, "w") as f:
        f.write("# rss.py -watch %s: t_s pid rank %s (kB)\n" % (program, " ".join(FIELDS)))
        f.write("# command: %s\n" % " ".join(cmd))
        while proc.poll() is None:
            for name in os.listdir("/proc"):
                pid = int(name) if name.isdigit() else 0
                if not pid or pid in other or pid in ranks:
                    continue
                if not below(pid, proc.pid):
                    other.add(pid)
                elif same_file(pid, exe):
                    ranks[pid] = rank_of(pid)
            for pid in [p for p, r in ranks.items() if r < 0]:
                ranks[pid] = rank_of(pid)  # read again: it may have caught the exec
            t = time.monotonic() - t0
            for pid, rank in ranks.items():
                try:
                    r = rollup(pid)
                except OSError:
                    r = None  # it has ended
                if r:
                    f.write("%.3f %d %d %s\n" % (t, pid, rank, " ".join(str(r.get(k, 0)) for k in FIELDS)))
            time.sleep(interval)
        f.write("# exit %d after %.2f s, %d ranks\n" % (proc.returncode, time.monotonic() - t0, len(ranks)))
    return proc.returncode


def read_ticks(path):
    """{t: {pid: (rank, {field: kB})}} of a TICKS file."""
    ticks = collections.defaultdict(dict)
    with open(path) as f:
        for line in f:
            p = line.split()
            if line.startswith("#") or len(p) != 3 + len(FIELDS):
                continue
            ticks[p[0]][int(p[1])] = (int(p[2]), dict(zip(FIELDS, map(int, p[3:]))))
    return ticks


def peak(path):
    """The peak of a TICKS file: {"np", "ticks", "ranks": [{rank, pid, Rss,
    Pss, Private, ...}]} at the largest sum of Pss among the ticks where
    every rank seen was present; None without such a tick."""
    ticks = read_ticks(path)
    pids = set()
    for t in ticks.values():
        pids.update(t)
    full = [t for t in ticks.values() if len(t) == len(pids)]
    if not full:
        return None
    best = max(full, key=lambda t: sum(v["Pss"] for _, v in t.values()))
    ranks = []
    for pid, (rank, v) in sorted(best.items(), key=lambda kv: (kv[1][0], kv[0])):
        row = dict(v, rank=rank, pid=pid, Private=v["Private_Clean"] + v["Private_Dirty"])
        ranks.append(row)
    return {"np": len(pids), "ticks": len(ticks), "ranks": ranks}


def print_peaks(paths):
    for path in paths:
        p = peak(path)
        if p is None:
            print("%s: no tick with every rank" % path)
            continue
        print("%s: %d ranks, %d ticks; node total Pss %d kB" % (
            path, p["np"], p["ticks"], sum(r["Pss"] for r in p["ranks"])))
        print("  %5s %9s %9s %9s %9s %9s %9s" % ("rank", "Rss", "Pss", "Private", "Pss_Anon", "Pss_File", "Pss_Shmem"))
        for r in p["ranks"]:
            print("  %5d %9d %9d %9d %9d %9d %9d" % (
                r["rank"], r["Rss"], r["Pss"], r["Private"], r["Pss_Anon"], r["Pss_File"], r["Pss_Shmem"]))


def sections(path):
    """(name, start, size) of the executable's allocated ELF sections."""
    out = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True).stdout
    secs = []
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m and int(m.group(2), 16):
            secs.append((m.group(1), int(m.group(2), 16), int(m.group(3), 16)))
    return secs


def label(name, perms, addr, exe, secs):
    if os.path.realpath(name) == exe:
        for s, start, size in secs:
            if start <= addr < start + size:
                return "exe " + s
        return "exe (other)"
    return name.split("/")[-1] + " " + perms


def snapshot(pid, exe, secs):
    """kB resident per mapping label."""
    res = collections.Counter()
    with open("/proc/%d/maps" % pid) as f:
        maps = f.read().splitlines()
    with open("/proc/%d/pagemap" % pid, "rb") as pm:
        for line in maps:
            p = line.split(None, 5)
            a, b = (int(x, 16) for x in p[0].split("-"))
            name = p[5] if len(p) > 5 else "[anon]"
            if name.startswith("[vsyscall") or b - a > 1 << 30:
                continue
            pm.seek(a // 4096 * 8)
            data = pm.read((b - a) // 4096 * 8)
            for i in range(len(data) // 8):
                if struct.unpack_from("<Q", data, i * 8)[0] >> 63:
                    res[label(name, p[1], a + i * 4096, exe, secs)] += 4
    return res


def run(out, cmd):
    exe = os.path.realpath(cmd[0])
    secs = sections(exe)
    # close_fds=False: MPICH's launcher hands its PMI socket down as a file.
    proc = subprocess.Popen(cmd, close_fds=False)
    best, res = 0, collections.Counter()
    while proc.poll() is None:
        try:
            with open("/proc/%d/status" % proc.pid) as f:
                rss = int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
            if rss > best:
                best, res = rss, snapshot(proc.pid, exe, secs)
        except (OSError, AttributeError):
            pass  # the process is starting or ending
        time.sleep(0.05)
    with open("%s.%d" % (out, proc.pid), "w") as f:
        json.dump({"vmrss_kb": best, "kb": res}, f)
    return proc.returncode


def show(files):
    for path in files:
        with open(path) as f:
            d = json.load(f)
        kb = collections.Counter(d["kb"])
        print("%s: peak VmRSS %d kB, pages counted %d kB" % (path, d["vmrss_kb"], sum(kb.values())))
        for k, v in kb.most_common():
            if v >= 100:
                print("  %8d  %s" % (v, k))


def main(argv):
    if len(argv) >= 2 and argv[0] == "-show":
        show(argv[1:])
        return 0
    if len(argv) >= 2 and argv[0] == "-peaks":
        print_peaks(argv[1:])
        return 0
    if len(argv) >= 4 and argv[0] == "-watch":
        cmd = argv[4:] if argv[3] == "--" else argv[3:]
        return watch(argv[1], argv[2], cmd) if cmd else 2
    if len(argv) < 2 or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    return run(argv[0], argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

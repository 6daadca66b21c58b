#!/usr/bin/env python3
"""rss.py: where a rank's resident memory goes (README.md, "Memory").

Usage (Linux, as a user who may read /proc/PID/pagemap of its own processes):
  mpirun -np 2 python3 lab/rss.py OUT PROGRAM ARGS...
  python3 lab/rss.py -show OUT.*

Runs PROGRAM; every 50 ms reads its VmRSS, and at each new peak counts the
resident pages of every mapping from /proc/PID/pagemap, the executable's
split by ELF section (readelf -S). Writes OUT.PID (JSON: peak VmRSS in kB,
kB per mapping) when PROGRAM ends and exits with its status. -show prints
the files as tables. Mappings over 1 GiB (reserved address space, MPICH's
shared memory) are left out, and the pages are counted just after VmRSS is
read, so the two sums can differ.
"""
import collections
import json
import os
import re
import struct
import subprocess
import sys
import time


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
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    return run(argv[0], argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env bash
# Overhead proof: mpibench's PingPong against a minimal C ping-pong
# (lab/pingpong.c) that uses the same methodology, on the same MPI.
#
# Usage (from the repository root):
#   bash lab/run.sh                 # Open MPI, 9 rounds
#   MPI=mpich ROUNDS=3 bash lab/run.sh
#   STRICT=1 bash lab/run.sh        # exit 1 when the 0 B ratio exceeds 1.03
#
# The two programs alternate ROUNDS times, swapping which goes first each
# round, so that drift on the machine hits both alike. For each length the
# table shows the minimum over rounds of each tool (the least disturbed run:
# interference only ever adds time, so the ratio of minima is the estimate
# of the harness's own overhead) and the ratio of medians beside it.
set -euo pipefail

MPI=${MPI:-openmpi}
ROUNDS=${ROUNDS:-9}
STRICT=${STRICT:-0}
TARGET=1.03

case $ROUNDS in
'' | *[!0-9]* | 0) echo "run.sh: ROUNDS must be a positive integer, got '$ROUNDS'" >&2; exit 2 ;;
esac

case $MPI in
openmpi)
	mpicc=mpicc.openmpi
	mpirun=(mpirun.openmpi -np 2 --oversubscribe)
	if [ "$(id -u)" -eq 0 ]; then
		mpirun+=(--allow-run-as-root)
	fi
	gotags=()
	;;
mpich)
	mpicc=mpicc.mpich
	mpirun=(mpirun.mpich -np 2)
	gotags=(-tags mpich)
	;;
*)
	echo "run.sh: MPI must be openmpi or mpich, got '$MPI'" >&2
	exit 2
	;;
esac

# Work from the repository root whatever the current directory.
cd "$(dirname "${BASH_SOURCE[0]}")/.."

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpibench-overhead.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

version=$("${mpirun[0]}" --version 2>&1 | awk '/Version:/ { print "HYDRA " $2; exit } NR == 1 { print }' | tail -n 1)
echo "MPI=$MPI ROUNDS=$ROUNDS ($version)"

"$mpicc" -O2 -Wall -o "$tmp/pingpong" lab/pingpong.c
go build "${gotags[@]}" -o "$tmp/mpibench" ./cmd/mpibench

printf '%s\n' 0 1024 4194304 >"$tmp/msglen"

run_logged() { # log cmd...: run cmd with output to log, show log on failure
	local log=$1
	shift
	if ! "$@" >"$log" 2>&1; then
		echo "run.sh: failed: $*" >&2
		cat "$log" >&2
		exit 1
	fi
}

for r in $(seq 1 "$ROUNDS"); do
	echo "round $r/$ROUNDS"
	if ((r % 2)); then
		run_logged "$tmp/c.$r.out" "${mpirun[@]}" "$tmp/pingpong"
	fi
	run_logged "$tmp/mpibench.$r.log" "${mpirun[@]}" "$tmp/mpibench" mpi1 PingPong \
		-msglen "$tmp/msglen" -json "$tmp/mpibench.$r.jsonl"
	if ! ((r % 2)); then
		run_logged "$tmp/c.$r.out" "${mpirun[@]}" "$tmp/pingpong"
	fi
done

python3 - "$tmp" "$ROUNDS" "$STRICT" "$TARGET" <<'EOF'
import json, statistics, sys

tmp, rounds, strict, target = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", float(sys.argv[4])
lengths = [0, 1024, 4194304]
c = {x: [] for x in lengths}   # bytes -> C times, one per round
m = {x: [] for x in lengths}   # bytes -> mpibench times, one per round
reps = {}

def fail(msg):
    print("run.sh: " + msg, file=sys.stderr)
    sys.exit(2)

for r in range(1, rounds + 1):
    name = "%s/c.%d.out" % (tmp, r)
    seen = set()
    for line in open(name):
        f = line.split()
        if len(f) != 3 or not f[0].isdigit():
            continue  # anything the MPI runtime printed
        x, n, t = int(f[0]), int(f[1]), float(f[2])
        if x in c and x not in seen:
            seen.add(x)
            c[x].append(t)
            reps[x] = n
    if seen != set(lengths):
        fail("%s: lengths %s missing" % (name, sorted(set(lengths) - seen)))

    name = "%s/mpibench.%d.jsonl" % (tmp, r)
    got = {}
    for i, line in enumerate(open(name), 1):
        line = line.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except ValueError as e:
            fail("%s:%d: %s" % (name, i, e))
        if rec.get("benchmark") != "PingPong" or rec.get("check"):
            continue
        x = rec.get("bytes")
        if x in m:
            if rec.get("reps") != reps.get(x):
                print("run.sh: warning: %s: %d B: mpibench reps %s, C reps %s"
                      % (name, x, rec.get("reps"), reps.get(x)), file=sys.stderr)
            got[x] = max(got.get(x, 0.0), float(rec["t_max_us"]))
    if set(got) != set(lengths):
        fail("%s: PingPong lengths %s missing" % (name, sorted(set(lengths) - set(got))))
    for x, t in got.items():
        m[x].append(t)

print()
print("%-9s %5s %12s %12s %11s %13s %13s" % ("bytes", "reps", "C_min[usec]", "mb_min[usec]",
      "ratio(min)", "C_median", "ratio(median)"))
ratio0 = None
for x in lengths:
    cmin, mmin = min(c[x]), min(m[x])
    cmed, mmed = statistics.median(c[x]), statistics.median(m[x])
    ratio = mmin / cmin if cmin > 0 else float("inf")
    rmed = mmed / cmed if cmed > 0 else float("inf")
    if x == 0:
        ratio0 = ratio
    print("%-9d %5d %12.4f %12.4f %11.3f %13.4f %13.3f" % (x, reps[x], cmin, mmin, ratio, cmed, rmed))
print()
print("ratio (mpibench/C) of the minima at 0 B: %.3f (target <= %.2f)" % (ratio0, target))
if strict and ratio0 > target:
    sys.exit(1)
EOF

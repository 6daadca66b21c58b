#!/usr/bin/env bash
# Growth with the process count (issue 23, docs/scale.md): runs a short
# plan of each suite at 8, 16, 32 and 64 processes (oversubscribed where
# the cores are fewer) and fits, by lab/growth.py, the exponent k of each
# figure ~ P^k: records and bytes of the results file, rank 0's peak
# resident memory (VmHWM), and rank 0's wall time outside the MPI calls
# (lab/inside.c, preloaded, times them). A benchmark, not a test; its
# table goes in docs/log/. Open MPI only: MPICH's ranks busy-poll, and 64
# of them on 2 cores never finish.
#
# Usage (from anywhere):
#   bash lab/growth.sh
#   PS="8 16 32" SUITES="links mpi1" KEEP=/tmp/growth bash lab/growth.sh
#
# Environment:
#   PS      process counts (default "8 16 32 64")
#   SUITES  any of links mpi1 osu skampi imb-ref (default all); imb-ref is
#           IMB-MPI1's Alltoall at the same P, the MPI library's own growth
#   DEST    where ../shared/peers/build.sh put IMB-MPI1 (default ~/.cache/mpibench-peers)
#   KEEP    a directory to keep the outputs in (default: a temporary one)
set -euo pipefail

PS=${PS:-8 16 32 64}
SUITES=${SUITES:-links mpi1 osu skampi imb-ref}
DEST=${DEST:-$HOME/.cache/mpibench-peers}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpibench-growth.XXXXXX")
out=${KEEP:-$tmp}
mkdir -p "$out"
trap 'rm -rf "$tmp"' EXIT

for p in $PS; do
	case $p in '' | *[!0-9]* | 0 | 1) echo "growth.sh: PS: want process counts of at least 2, got '$p'" >&2; exit 2 ;; esac
done
(cd "$here/.." && go build -o "$tmp/mpibench" ./cmd/mpibench)
mpicc.openmpi -shared -fPIC -O2 -o "$tmp/inside.so" "$here/inside.c"
# The SKaMPI plan: the ping-pong survey (P−1 rounds of pairs) before a
# short ping-pong sweep, and Barrier over the process counts (one point a
# count up to 64, then doubling: docs/skampi.md).
cat >"$tmp/growth.ski" <<'SKI'
epsilon 0.5
minreps 4
maxreps 8
timelimit 0.05
budget 3
measure Pingpong_Send_Recv pingpong Send_Recv bytes 1..4
measure Barrier_nodes collective Barrier procs 2..P step=scale
SKI

plan() { # suite json: the arguments of the suite's short plan
	case $1 in
	links) echo links -size 8 -iters 1 -window 1 -json "$2" ;;
	mpi1) echo mpi1 Alltoall Bcast -multi 1 -iter 5 -msglog 0:2 -json "$2" ;;
	osu) echo osu osu_alltoall -i 5 -x 1 -m 1:4 -json "$2" ;;
	skampi) echo skampi -config "$tmp/growth.ski" -samples=false -json "$2" ;;
	imb-ref) echo Alltoall -npmin "$3" -iter 5 -msglog 0:2 ;;
	*) echo "growth.sh: SUITES: unknown suite '$1'" >&2; return 2 ;;
	esac
}

echo "suite	np	records	bytes	hwm_kib	wall_s	outside_s	outside_cpu_s" >"$out/growth.tsv"
for s in $SUITES; do
	for p in $PS; do
		js=$out/$s.np$p.jsonl
		rm -f "$js" "$js.state"
		read -ra args <<<"$(plan "$s" "$js" "$p")"
		exe=$tmp/mpibench
		if [ "$s" = imb-ref ]; then
			exe=$DEST/openmpi/bin/IMB-MPI1 js=-
		fi
		echo "$s np $p: ${args[*]}" >&2
		mpirun.openmpi --allow-run-as-root --oversubscribe -np "$p" -x LD_PRELOAD="$tmp/inside.so" \
			"$exe" "${args[@]}" >"$out/$s.np$p.out" 2>"$out/$s.np$p.err" ||
			{ echo "growth.sh: $s at $p processes failed (exit $?): $out/$s.np$p.err" >&2; exit 1; }
		python3 "$here/growth.py" row "$s" "$p" "$js" "$out/$s.np$p.err" >>"$out/growth.tsv"
	done
done
python3 "$here/growth.py" fit "$out/growth.tsv"

#!/usr/bin/env bash
# Modes: PingPing 8 B and Bcast 4 MiB take one of a few speeds per sample,
# decided by the state the job is in, not by the program that runs them.
# The C experiment behind those rows of lab/side.sh (docs/lab.md,
# "Side by side with the peers"). A benchmark, not a test.
#
# Usage (from the repository root):
#   bash lab/modes.sh                    # Open MPI and MPICH, 7 rounds
#   ROUNDS=3 MPIS=openmpi bash lab/modes.sh
#
# Part 1: lab/imbdriver.c (mpibench's own C kernels, no Go) times the same
# sample again and again in one process: PingPing 8 B 40 times, PingPong
# 8 B 40 times (the control), Bcast 4 MiB 16 times; per launch the median
# of the odd and of the even samples, and min / median / max.
# Part 2: PingPing 8 B run alone and after PingPong (one launch each, all
# of IMB 3.0's lengths), by mpibench mpi1 and by IMB-MPI1 (-time 1000000,
# IMB 3.0's counts), ROUNDS interleaved launches each: the median t[usec].
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-7}
MPIS=${MPIS:-openmpi mpich}
DEST=${DEST:-$HOME/.cache/mpibench-peers}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

stats() { # label: one line of numbers on stdin -> odd/even medians, min/median/max
	python3 -c '
import statistics as s, sys
v = [float(x) for x in sys.stdin.read().split()]
odd, even = v[0::2], v[1::2]
print("%-34s n=%-3d odd %8.2f even %8.2f  min %8.2f med %8.2f max %8.2f" % (
    sys.argv[1], len(v), s.median(odd), s.median(even), min(v), s.median(v), max(v)))' "$1"
}

t8() { # benchmark: the 8-byte t[usec] of that benchmark's table
	awk -v b="$1" '/Benchmarking/ { cur = $3 } cur == b && $1 == 8 { print $3; exit }'
}

for m in $MPIS; do
	if [ "$m" = openmpi ]; then
		mpirun=(mpirun.openmpi -np 2 --oversubscribe)
		[ "$(id -u)" -ne 0 ] || mpirun+=(--allow-run-as-root)
		mpicc=mpicc.openmpi tags=()
	else
		mpirun=(mpirun.mpich -np 2) mpicc=mpicc.mpich tags=(-tags mpich)
	fi
	"$mpicc" -O2 -Impi -Isuites/imb/kernel -o "$tmp/drv-$m" lab/imbdriver.c suites/imb/kernel/kernels.c suites/imb/kernel/slots.c \
		suites/imb/kernel/imbbarrier.c mpi/check.c mpi/chk.c mpi/settle.c -lpthread
	go build "${tags[@]}" -o "$tmp/mb-$m" ./cmd/mpibench
	echo "== $m: one process, the same sample again and again (µs per repetition)"
	for r in $(seq 1 "$ROUNDS"); do
		# shellcheck disable=SC2046
		"${mpirun[@]}" "$tmp/drv-$m" PingPing $(printf '8 %.0s' $(seq 40)) | awk '{ print $3 }' | tr '\n' ' ' | stats "PingPing 8 B, launch $r"
	done
	for r in 1 2; do
		# shellcheck disable=SC2046
		"${mpirun[@]}" "$tmp/drv-$m" PingPong $(printf '8 %.0s' $(seq 40)) | awk '{ print $3 }' | tr '\n' ' ' | stats "PingPong 8 B (control), launch $r"
	done
	for r in 1 2 3; do
		# shellcheck disable=SC2046
		"${mpirun[@]}" "$tmp/drv-$m" Bcast $(printf '4194304 %.0s' $(seq 16)) | awk '{ print $3 }' | tr '\n' ' ' | stats "Bcast 4 MiB, launch $r"
	done
	echo "== $m: PingPing 8 B t[usec], alone and after PingPong, $ROUNDS interleaved launches"
	imb=("$DEST/$m/bin/IMB-MPI1")
	for r in $(seq 1 "$ROUNDS"); do
		a=$("${mpirun[@]}" "$tmp/mb-$m" mpi1 PingPing | t8 PingPing)
		b=$("${mpirun[@]}" "${imb[@]}" PingPing -time 1000000 | t8 PingPing)
		c=$("${mpirun[@]}" "$tmp/mb-$m" mpi1 PingPong PingPing | t8 PingPing)
		d=$("${mpirun[@]}" "${imb[@]}" PingPong PingPing -time 1000000 | t8 PingPing)
		echo "$a $b $c $d"
	done | python3 -c '
import statistics as s, sys
rows = [list(map(float, l.split())) for l in sys.stdin if len(l.split()) == 4]
names = ["mpibench, alone", "IMB-MPI1, alone", "mpibench, after PingPong", "IMB-MPI1, after PingPong"]
for i, n in enumerate(names):
    col = [r[i] for r in rows]
    print("%-26s median %.2f  (%s)" % (n, s.median(col), " ".join("%.2f" % x for x in col)))'
done

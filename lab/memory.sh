#!/usr/bin/env bash
# Memory as it costs: mpibench mpi1 PingPong Allreduce against IMB-MPI1
# 2021.11's, same MPI, same process count, interleaved launches; every
# rank's Rss, Pss and Private sampled from /proc/PID/smaps_rollup by
# lab/rss.py, the table by lab/memory.py. A benchmark, not a test. See
# docs/memory.md.
#
# Usage (from anywhere):
#   bash lab/memory.sh
#   ROUNDS=7 NP=2 MPIS=openmpi KEEP=/tmp/mem bash lab/memory.sh
#
# Environment:
#   ROUNDS   launches of each program per MPI (default 5, at least 1)
#   NP       processes (default 2; oversubscribed where the cores are fewer)
#   MPIS     openmpi and/or mpich (default both)
#   DEST     where ../shared/peers/build.sh put IMB-MPI1 (default ~/.cache/mpibench-peers)
#   MB_openmpi, MB_mpich  the mpibench binaries (default: built here from
#            the working tree, -tags mpich for MPICH)
#   KEEP     a directory to keep the ticks files and outputs in (default:
#            a temporary one, removed at the end)
#
# Like with like: both programs run their default lengths, 0 B to 4 MiB.
# IMB-MPI1 gets -time 1000000 (IMB 3.0's repetition counts, min(1000,
# 40 MB / length), as mpibench's; at np 2 here neither reaches its 10 s
# bound anyway), -root_shift on and -sync off (IMB 3.0's root cycling and
# back-to-back loop, as mpibench's), the flags of lab/side.sh.
set -euo pipefail

ROUNDS=${ROUNDS:-5}
NP=${NP:-2}
MPIS=${MPIS:-openmpi mpich}
DEST=${DEST:-$HOME/.cache/mpibench-peers}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

case $ROUNDS in '' | *[!0-9]* | 0) echo "memory.sh: ROUNDS must be a positive integer, got '$ROUNDS'" >&2; exit 2 ;; esac
case $NP in '' | *[!0-9]* | 0 | 1) echo "memory.sh: NP must be an integer of at least 2, got '$NP'" >&2; exit 2 ;; esac
for m in $MPIS; do
	case $m in openmpi | mpich) ;; *) echo "memory.sh: MPIS: unknown MPI '$m'" >&2; exit 2 ;; esac
	[ -x "$DEST/$m/bin/IMB-MPI1" ] || { echo "memory.sh: no $DEST/$m/bin/IMB-MPI1 (bash ../shared/peers/build.sh $DEST)" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpibench-memory.XXXXXX")
out=${KEEP:-$tmp}
mkdir -p "$out"
trap 'rm -rf "$tmp"' EXIT

declare -A mb=([openmpi]=${MB_openmpi:-} [mpich]=${MB_mpich:-})
for m in $MPIS; do
	[ -z "${mb[$m]}" ] || continue
	tags=
	[ "$m" = openmpi ] || tags=mpich
	mb[$m]=$tmp/mpibench-$m
	(cd "$here/.." && go build -tags "$tags" -o "${mb[$m]}" ./cmd/mpibench)
done

launcher() { # mpi: the launch command up to the program
	if [ "$1" = openmpi ]; then
		echo mpirun.openmpi --allow-run-as-root --oversubscribe -np "$NP"
	else
		echo mpirun.mpich -np "$NP"
	fi
}

one() { # mpi prog round: one launch under rss.py -watch
	local m=$1 p=$2 r=$3 exe args L f
	if [ "$p" = mb ]; then
		exe=${mb[$m]} args=(mpi1 PingPong Allreduce)
	else
		exe=$DEST/$m/bin/IMB-MPI1 args=(PingPong Allreduce -time 1000000 -root_shift on -sync off)
	fi
	read -ra L <<<"$(launcher "$m")"
	f=$out/$m.mem.$p.np$NP.$r
	echo "$m $p round $r: ${L[*]} $exe ${args[*]}"
	python3 "$here/rss.py" -watch "$exe" "$f.ticks" -- "${L[@]}" "$exe" "${args[@]}" >"$f.out" 2>&1 ||
		echo "  exit $? (see $f.out)"
}

for r in $(seq 1 "$ROUNDS"); do
	for m in $MPIS; do
		if ((r % 2)); then one "$m" mb "$r"; one "$m" imb "$r"; else one "$m" imb "$r"; one "$m" mb "$r"; fi
	done
done
echo
python3 "$here/memory.py" "$out"

#!/usr/bin/env bash
# The Go runtime's floor under a rank's memory: the same MPI body
# (floor.h: MPI_Init, one Allreduce, a second's sleep, MPI_Finalize) from
# a C main (c/floor.c) and from a Go main through cgo (main.go),
# interleaved launches, every rank's smaps_rollup sampled by lab/rss.py.
# A benchmark, not a test; docs/memory.md.
#
#   bash lab/floor/floor.sh
#   ROUNDS=5 NP=16 MPIS=openmpi bash lab/floor/floor.sh
#
# ROUNDS launches of each (default 3), NP processes (default 2), MPIS
# openmpi and/or mpich (default both). Prints, per MPI, the median over the
# launches of the largest rank's Private and Pss and of the node total
# (the sum of the ranks' Pss), in MiB, and Go's excess.
set -euo pipefail
ROUNDS=${ROUNDS:-3}
NP=${NP:-2}
MPIS=${MPIS:-openmpi mpich}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
case $ROUNDS in '' | *[!0-9]* | 0) echo "floor.sh: ROUNDS must be a positive integer, got '$ROUNDS'" >&2; exit 2 ;; esac
case $NP in '' | *[!0-9]* | 0 | 1) echo "floor.sh: NP must be an integer of at least 2, got '$NP'" >&2; exit 2 ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpibench-floor.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for m in $MPIS; do
	case $m in
	openmpi) tags= launch=(mpirun.openmpi --allow-run-as-root --oversubscribe -np "$NP") ;;
	mpich) tags=mpich launch=(mpirun.mpich -np "$NP") ;;
	*) echo "floor.sh: MPIS: unknown MPI '$m'" >&2; exit 2 ;;
	esac
	"mpicc.$m" -O2 -o "$tmp/c-$m" "$here/c/floor.c"
	(cd "$here/../.." && go build -tags "$tags" -o "$tmp/go-$m" ./lab/floor)
	for r in $(seq 1 "$ROUNDS"); do
		order="c go"
		((r % 2)) || order="go c"
		for p in $order; do
			python3 "$here/../rss.py" -watch "$tmp/$p-$m" "$tmp/$m.$p.$r.ticks" -- "${launch[@]}" "$tmp/$p-$m" >/dev/null
		done
	done
done
python3 "$here/floor.py" "$tmp" "$NP" $MPIS

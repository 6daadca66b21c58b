#!/usr/bin/env bash
# links.sh [BINARY [DIR]]: make DIR (default bin/peers) a folder of
# symbolic links to BINARY (default bin/mpibench), one per program of IMB
# 2021.11 and OSU 7.4 that mpibench runs: IMB-MPI1, IMB-EXT, IMB-IO,
# IMB-NBC, IMB-RMA, IMB-MPI4, IMB-P2P, IMB-MT and every osu_* test
# (`mpibench list`). Run under such a name the binary behaves as that program (README,
# "Coming from IMB 2021"/"Coming from OSU 7.4"), so DIR can stand in for the
# peers' bin folder on PATH. Existing links of those names are
# replaced; other files are left alone.
set -euo pipefail
bin=${1:-bin/mpibench}
dir=${2:-bin/peers}
if [ ! -x "$bin" ]; then
	echo "links.sh: $bin is not an executable; build it first (make build)" >&2
	exit 2
fi
mkdir -p "$dir"
# A relative target keeps the links working when the tree moves.
target=$(realpath --relative-to="$dir" "$bin" 2>/dev/null || realpath "$bin")
names="IMB-MPI1 IMB-EXT IMB-IO IMB-NBC IMB-RMA IMB-MPI4 IMB-P2P IMB-MT $("$bin" list | awk '$1 == "osu" { print $2 }')"
n=0
for name in $names; do
	if [ -e "$dir/$name" ] && [ ! -L "$dir/$name" ]; then
		echo "links.sh: $dir/$name exists and is no link; left alone" >&2
		continue
	fi
	ln -sfn "$target" "$dir/$name"
	n=$((n + 1))
done
echo "links.sh: $n links to $bin in $dir"

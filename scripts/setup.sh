#!/usr/bin/env bash
# Installs what mpibench needs on Debian (Open MPI and MPICH with their
# headers, pkg-config, a C compiler) when it is missing, and checks for Go.
# With --test it also installs Chromium, which the report tests open the
# generated HTML in, and builds the peers (Intel MPI Benchmarks 2021.11,
# OSU 7.4) from ../shared/peers when that is there: the side-by-side tests
# compare mpibench's rows with theirs, and skip loudly without them.
set -euo pipefail

pkgs=(openmpi-bin libopenmpi-dev mpich libmpich-dev pkg-config gcc)
if [ "${1:-}" = "--test" ]; then
	pkgs+=(chromium g++ make)
fi
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	echo "setup: installing ${missing[*]}" >&2
	$sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

export PATH="$PATH:/usr/local/go/bin"
if ! command -v go >/dev/null; then
	echo "setup: Go 1.22 or newer is needed (https://go.dev/dl or Debian's golang-go from backports)" >&2
	exit 1
fi

# The peers, built once into ~/.cache/mpibench-peers (about 2 minutes).
peers="$(cd "$(dirname "$0")/.." && pwd)/../shared/peers/build.sh"
dest="$HOME/.cache/mpibench-peers"
if [ "${1:-}" = "--test" ] && [ -f "$peers" ] && [ ! -x "$dest/mpich/bin/IMB-MPI1" ]; then
	echo "setup: building the peers into $dest (about 2 minutes)" >&2
	bash "$peers" "$dest" >"${TMPDIR:-/tmp}/mpibench-peers.log" 2>&1 ||
		echo "setup: the peers did not all build (${TMPDIR:-/tmp}/mpibench-peers.log); their side-by-side tests will skip" >&2
fi
# IMB-MT for MPICH, which build.sh does not link: with CXX=mpicxx.mpich
# IMB's Makefile leaves out -fopenmp, which IMB-MT's OpenMP threads need
# (undefined omp_get_num_threads); Open MPI's build has it.
imb="$dest/src-mpich/mpi-benchmarks/src_cpp"
if [ "${1:-}" = "--test" ] && [ -d "$imb" ] && [ ! -x "$dest/mpich/bin/IMB-MT" ]; then
	rm -f "$imb"/MT/*.o # compiled by build.sh without -fopenmp: its pragmas would be ignored
	make -s -j"$(nproc)" -C "$imb" -f Makefile TARGET=MT CC=mpicc.mpich CXX=mpicxx.mpich \
		CXXFLAGS="-O2 -fopenmp" LDFLAGS=-fopenmp >"${TMPDIR:-/tmp}/mpibench-peers-mt.log" 2>&1 &&
		cp "$imb/IMB-MT" "$dest/mpich/bin/" ||
		echo "setup: IMB-MT (MPICH) did not build (${TMPDIR:-/tmp}/mpibench-peers-mt.log); its side-by-side test will fail" >&2
fi
# IMB-MPI4, which build.sh leaves out, for MPICH (MPI 4.0's persistent
# collectives; Open MPI 4.1 has only MPIX_ ones, which IMB does not call).
imb="$dest/src-mpich/mpi-benchmarks/src_cpp"
if [ "${1:-}" = "--test" ] && [ -d "$imb" ] && [ ! -x "$dest/mpich/bin/IMB-MPI4" ]; then
	make -s -j"$(nproc)" -C "$imb" -f Makefile TARGET=MPI4 CC=mpicc.mpich CXX=mpicxx.mpich \
		>"${TMPDIR:-/tmp}/mpibench-peers-mpi4.log" 2>&1 && cp "$imb/IMB-MPI4" "$dest/mpich/bin/" ||
		echo "setup: IMB-MPI4 did not build (${TMPDIR:-/tmp}/mpibench-peers-mpi4.log); its side-by-side test will skip" >&2
fi

#!/usr/bin/env bash
# Builds .devbundle/: everything lab/device/run.sh needs on a machine with
# no MPI installed (see docs/lab.md, "On a borrowed machine without MPI"):
# mpibench built against each MPI, the peers (IMB-MPI1, OSU), and the two
# MPI runtimes of Debian 12 (Open MPI 4.1.4, MPICH 4.0.2) with their
# shared-library closure, glibc's own libraries left out.
#
# Usage (from anywhere): bash lab/device/bundle.sh
# Environment: DEST (peers, default ~/.cache/mpibench-peers), BUNDLE (default
# .devbundle in the repository root).
#
# Layout:
#   bin/mpibench-{openmpi,mpich}      stripped mpibench builds
#   bin/{gokernel,osudriver,imbdriver}-{openmpi,mpich}  the C and Go experiments
#   peers/{openmpi,mpich}/            IMB-MPI1 osu_latency osu_bw osu_bibw osu_mbw_mr
#   openmpi/                          an OPAL_PREFIX: bin/ (orterun, orted), lib/ (libmpi,
#                                     closure), lib/openmpi3/ (MCA components), share/openmpi/
#                                     (help files), etc/ (openmpi-mca-params.conf), pmix/
#   mpich/                            bin/ (mpiexec.hydra, hydra_pmi_proxy), lib/ (libmpich,
#                                     closure, ucx/ modules)
#   compat/libglibc236.so             arc4random* for a glibc older than 2.36 (glibc236.c)
#   GLIBC.txt                         the highest GLIBC_ symbol version each file needs
#   GLIBCXX.txt                       the highest GLIBCXX_ version the C++ peers need
# Files over 1 MiB are gzipped (run.sh unpacks a copy under /tmp).
#   MANIFEST.txt                      every file, its size and where it came from
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
DEST=${DEST:-$HOME/.cache/mpibench-peers}
B=${BUNDLE:-$root/.devbundle}
ML=/usr/lib/x86_64-linux-gnu

# glibc's own libraries: the device's are used (and must be >= the versions
# in GLIBC.txt).
glibc='^(linux-vdso|ld-linux|libc\.so|libm\.so|libmvec|libpthread|libdl\.so|librt\.so|libutil\.so|libresolv|libanl|libnsl|libnss_|libBrokenLocale|libcrypt\.so|libthread_db)'
# Never bundled: network fabrics and GPU stacks the device's single-node
# shared-memory runs do not use (and that Debian's own
# openmpi-mca-params.conf already excludes: ucx, ofi, openib, psm).
deny='(libcuda|libcudart|libnvidia|libibverbs|librdmacm|libfabric|libpsm|libucp|libuct|libucs|libucm|libmlx|libefa|libOpenCL|libGL|libX11|libxml2|libpciaccess|libnl-)'
deny_mpich='(libcuda|libcudart|libnvidia|libibverbs|librdmacm|libfabric|libpsm|libmlx|libefa|libOpenCL|libGL|libX11|libxml2|libpciaccess|libnl-)'

for m in openmpi mpich; do
	for p in IMB-MPI1 osu_latency osu_bw osu_bibw osu_mbw_mr; do
		[ -x "$DEST/$m/bin/$p" ] || {
			echo "bundle.sh: $DEST/$m/bin/$p missing: build the peers first (bash ../shared/peers/build.sh $DEST)" >&2
			exit 1
		}
	done
done

rm -rf "$B"
mkdir -p "$B"/{bin,peers/openmpi,peers/mpich} "$B"/openmpi/{bin,lib/openmpi3,share,etc,pmix/lib/pmix,pmix/share} "$B"/mpich/{bin,lib/ucx}
manifest=$B/MANIFEST.txt
: >"$manifest"

put() { # src dstdir: copy one file (following links), stripped where ELF
	local src=$1 dst=$2/$(basename "$1")
	cp -L "$src" "$dst"
	chmod u+w "$dst"
	if head -c 4 "$dst" | grep -q ELF; then
		strip --strip-unneeded "$dst" 2>/dev/null || true
	fi
	echo "${dst#"$B"/} <- $src" >>"$manifest"
}

closure() { # elf...: the resolved non-glibc libraries (fails on "not found")
	local f
	for f in "$@"; do
		if ldd "$f" | grep 'not found' >/dev/null; then
			echo "bundle.sh: $f: unresolved libraries:" >&2
			ldd "$f" | grep 'not found' >&2
			return 1
		fi
		ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }'
	done | grep -Ev "^$glibc" | awk '{ print $2 }' | sort -u
}

echo "building mpibench (Open MPI, MPICH)"
(cd "$root" && go build -trimpath -ldflags='-s -w' -o "$B/bin/mpibench-openmpi" ./cmd/mpibench)
(cd "$root" && go build -trimpath -ldflags='-s -w' -tags mpich -o "$B/bin/mpibench-mpich" ./cmd/mpibench)
echo "bin/mpibench-openmpi <- go build ./cmd/mpibench" >>"$manifest"
echo "bin/mpibench-mpich <- go build -tags mpich ./cmd/mpibench" >>"$manifest"
# The C and Go experiments of docs/lab.md's side-by-side section: mpibench's
# kernels from a C main (osudriver, imbdriver) and through package mpi from
# a bare Go main (gokernel).
(cd "$root" && go build -trimpath -ldflags='-s -w' -o "$B/bin/gokernel-openmpi" ./lab/gokernel)
(cd "$root" && go build -trimpath -ldflags='-s -w' -tags mpich -o "$B/bin/gokernel-mpich" ./lab/gokernel)
for m in openmpi mpich; do
	(cd "$root" && "mpicc.$m" -O2 -Impi -Isuites/osu/kernel -o "$B/bin/osudriver-$m" lab/osudriver.c suites/osu/kernel/osu.c \
		mpi/chk.c mpi/settle.c -lpthread)
	(cd "$root" && "mpicc.$m" -O2 -Impi -Isuites/imb/kernel -o "$B/bin/imbdriver-$m" lab/imbdriver.c suites/imb/kernel/kernels.c \
		suites/imb/kernel/slots.c suites/imb/kernel/imbbarrier.c mpi/check.c mpi/chk.c mpi/settle.c -lpthread)
	(cd "$root" && "mpicc.$m" -shared -fPIC -o "$B/bin/libprecoll-$m.so" lab/precoll.c)
	strip "$B/bin/osudriver-$m" "$B/bin/imbdriver-$m"
	echo "bin/gokernel-$m bin/osudriver-$m bin/imbdriver-$m bin/libprecoll-$m.so <- lab/gokernel, lab/osudriver.c, lab/imbdriver.c, lab/precoll.c" >>"$manifest"
done
for m in openmpi mpich; do
	for p in IMB-MPI1 osu_latency osu_bw osu_bibw osu_mbw_mr; do
		put "$DEST/$m/bin/$p" "$B/peers/$m"
	done
done

echo "Open MPI runtime"
O=$B/openmpi
put /usr/bin/orterun "$O/bin"
put /usr/bin/orted "$O/bin"
ln -s orterun "$O/bin/mpirun"
ln -s orterun "$O/bin/mpiexec"
put /usr/bin/ompi_info "$O/bin" 2>/dev/null || true
# MCA components: all but those needing a denied library.
comps=()
dropped=()
for c in "$ML"/openmpi/lib/openmpi3/*.so; do
	# (ldd's output first: grep -q closing the pipe early fails it under pipefail)
	d=$(ldd "$c" 2>&1 || true)
	if grep -Eq "$deny|not found" <<<"$d"; then
		dropped+=("$(basename "$c")")
	else
		comps+=("$c")
	fi
done
echo "  components: ${#comps[@]} kept, dropped: ${dropped[*]}"
for c in "${comps[@]}"; do put "$c" "$O/lib/openmpi3"; done
cp -r /usr/share/openmpi "$O/share/openmpi"
rm -f "$O"/share/openmpi/*wrapper-data.txt
cp /etc/openmpi/openmpi-mca-params.conf /etc/openmpi/openmpi-default-hostfile "$O/etc/"
# PMIx (Debian's Open MPI uses the external libpmix via mca_pmix_ext3x).
for c in "$ML"/pmix2/lib/pmix/*.so; do
	d=$(ldd "$c" 2>&1 || true)
	grep -Eq "$deny|not found" <<<"$d" || put "$c" "$O/pmix/lib/pmix"
done
cp -r "$ML"/pmix2/share/pmix "$O/pmix/share/pmix"
# No component path here: run.sh gives PMIX_MCA_mca_base_component_path.
grep -v '^mca_base_component_path' "$ML"/pmix2/share/pmix-mca-params.conf >"$O/pmix/share/pmix-mca-params.conf"
mapfile -t olibs < <(closure "$O"/bin/orterun "$O"/bin/orted "$B"/bin/mpibench-openmpi "$B"/peers/openmpi/* \
	"$O"/lib/openmpi3/*.so "$O"/pmix/lib/pmix/*.so "$ML"/libmpi.so.40)
for l in "${olibs[@]}"; do
	if [[ $l =~ $deny ]]; then echo "bundle.sh: Open MPI closure pulls denied $l" >&2; exit 1; fi
	put "$l" "$O/lib"
done

echo "MPICH runtime"
M=$B/mpich
put /usr/bin/mpiexec.hydra "$M/bin"
put /usr/bin/hydra_pmi_proxy "$M/bin"
ln -s mpiexec.hydra "$M/bin/mpiexec.mpich"
ln -s mpiexec.hydra "$M/bin/mpiexec"
ln -s mpiexec.hydra "$M/bin/mpirun"
# UCX transport modules: only cma (the ib/rdmacm ones need verbs).
put "$ML"/ucx/libuct_cma.so.0 "$M/lib/ucx"
mapfile -t mlibs < <(closure "$M"/bin/* "$B"/bin/mpibench-mpich "$B"/peers/mpich/* "$ML"/libmpich.so.12 "$ML"/ucx/libuct_cma.so.0)
for l in "${mlibs[@]}"; do
	if [[ $l =~ $deny_mpich ]]; then echo "bundle.sh: MPICH closure pulls denied $l" >&2; exit 1; fi
	put "$l" "$M/lib"
done

echo "glibc 2.36 compat"
# Debian 12's libevent_core (Open MPI) and libstdc++ need arc4random*@GLIBC_2.36;
# Ubuntu 22.04 has glibc 2.35. Their GLIBC_2.36 requirement is made weak, and
# run.sh preloads compat/libglibc236.so (the three functions, over getrandom)
# where the device's glibc is older.
mkdir -p "$B/compat"
gcc -O2 -shared -fPIC -Wl,--version-script="$here/glibc236.map" -o "$B/compat/libglibc236.so" "$here/glibc236.c"
echo "compat/libglibc236.so <- gcc lab/device/glibc236.c" >>"$manifest"
weak=()
while read -r f; do
	d=$(objdump -T "$f" 2>/dev/null || true)
	if grep -q 'GLIBC_2\.36' <<<"$d"; then
		python3 "$here/weakver.py" GLIBC_2.36 "$f" | sed 's/^/  /'
		weak+=("${f#"$B"/}")
	fi
done < <(find "$B" -type f ! -path '*/compat/*')

echo "GLIBC requirement"
{
	echo "# highest GLIBC_ symbol version each bundled ELF file needs (objdump -T);"
	echo "# built on $(. /etc/os-release && echo "$PRETTY_NAME"), $(ldd --version | head -n 1)"
	find "$B" -type f | sort | while read -r f; do
		head -c 4 "$f" | grep -q ELF || continue
		v=$(objdump -T "$f" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -Vu | tail -n 1 || true)
		echo "${v:-none} ${f#"$B"/}"
	done
} >"$B/GLIBC.txt"
max=$(grep -v '^#' "$B/GLIBC.txt" | awk '{ print $1 }' | grep GLIBC_ | sort -Vu | tail -n 1)
strict=$(grep -v '^#' "$B/GLIBC.txt" | grep -v GLIBC_2.36 | awk '{ print $1 }' | grep GLIBC_ | sort -Vu | tail -n 1)
echo "# GLIBC_2.36 weak (compat/libglibc236.so preloaded on older glibc): ${weak[*]:-none}" >>"$B/GLIBC.txt"
echo "# max: $max; without the weak GLIBC_2.36: $strict" >>"$B/GLIBC.txt"
echo "  needs $max ($strict with the compat shim)"
# The highest GLIBCXX_ version the C++ peers need: run.sh uses the device's
# own libstdc++ when it has it (the bundled one needs GLIBC_2.36).
find "$B/peers" "$B/bin" "$O/lib" "$M/lib" -type f -name '*' ! -name 'libstdc++*' -exec objdump -T {} + 2>/dev/null |
	{ grep -o 'GLIBCXX_[0-9.]*' || true; } | sort -Vu | tail -n 1 >"$B/GLIBCXX.txt"
echo "  C++ peers need $(cat "$B/GLIBCXX.txt")"
(cd "$root" && git rev-parse HEAD 2>/dev/null || echo unknown) >"$B/COMMIT"

# Files over 1 MiB travel gzipped (libmpich.so.12 alone is 41 MB of text);
# run.sh unpacks a copy of the bundle under /tmp.
find "$B" -type f -size +1M ! -name '*.gz' -exec gzip -9 {} +
echo "gzipped: $(cd "$B" && find . -name '*.gz' | sort | tr '\n' ' ')"
du -sh "$B"
echo "unpacked: $(find "$B" -name '*.gz' -exec gzip -l {} + | awk 'END { printf "%.1f MiB (gzipped files)", $2 / 1048576 }')"

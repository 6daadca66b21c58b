#!/usr/bin/env bash
# Local check (not for the device): runs lab/device/run.sh as on a machine
# without MPI, in a private mount namespace (unshare -m, as root):
# /usr/lib/x86_64-linux-gnu is replaced by a directory holding only glibc,
# libstdc++, libgcc_s and the libraries of the shell tools run.sh uses (so no
# MPI, hwloc, libevent, UCX, PMIx ...), and /dev/null or an empty directory
# is bound over the system's MPI launchers, help files, configuration and
# ssh. A run that passes used the bundle only. The environment is passed to
# run.sh through env -i (OUT, DEVICE_BUDGET, NP_SCALE, ROUNDS, MPIS,
# SCALE_RESERVE, GLIBC_COMPAT, FIRST_SET); NO_STDCXX=1 leaves libstdc++ out too.
#   OUT=/tmp/devout-hidden DEVICE_BUDGET=90 NP_SCALE=2 ROUNDS=1 bash lab/device/hidden.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ "${1:-}" = inside ] || exec unshare -m bash "${BASH_SOURCE[0]}" inside
L=/usr/lib/x86_64-linux-gnu
keep=$(mktemp -d)
empty=$(mktemp -d)
tools="bash env timeout date cat grep sed awk tee tar gzip cp find mktemp rm mkdir ls df nproc uname id lscpu dmesg du
	readlink kill sort head tail tr cut seq sh ldd mv chmod basename dirname"
for t in $tools; do
	p=$(command -v "$t") || continue
	ldd "$p" 2>/dev/null | awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' || true
done | sort -u >"$keep/.tools"
for f in $(cat "$keep/.tools") $L/libc.so.6 $L/libm.so.6 $L/libpthread.so.0 $L/libdl.so.2 $L/librt.so.1 \
	$L/libresolv.so.2 $L/libutil.so.1 $L/libmvec.so.1 $L/ld-linux-x86-64.so.2 $L/libstdc++.so.6 $L/libgcc_s.so.1 \
	$L/libnss_files.so.2 $L/libanl.so.1; do
	[ -e "$f" ] && cp -L "$f" "$keep/$(basename "$f")"
done
# NO_STDCXX=1: no libstdc++ either (run.sh then uses the bundled one)
[ "${NO_STDCXX:-0}" = 0 ] || rm -f "$keep/libstdc++.so.6"
n=0
for d in /usr/share/openmpi /etc/openmpi; do
	[ -d "$d" ] && mount --bind "$empty" "$d" && n=$((n + 1))
done
for f in /usr/bin/orterun /usr/bin/orted /usr/bin/mpiexec.hydra /usr/bin/hydra_pmi_proxy /usr/bin/ssh /usr/bin/rsh; do
	[ -e "$f" ] && mount --bind /dev/null "$(readlink -f "$f")" && n=$((n + 1))
done
mount --bind "$keep" $L
echo "hidden.sh: $L holds only $(ls "$keep" | tr '\n' ' '); $n more paths hidden"
echo "hidden.sh: mpirun.openmpi here now says: $(mpirun.openmpi --version 2>&1 | head -n 1)"
exec env -i PATH=/usr/bin:/bin OUT="${OUT:-/tmp/devout-hidden}" DEVICE_BUDGET="${DEVICE_BUDGET:-90}" \
	NP_SCALE="${NP_SCALE:-2}" ROUNDS="${ROUNDS:-1}" MPIS="${MPIS:-openmpi mpich}" SCALE_RESERVE="${SCALE_RESERVE:-20}" \
	GLIBC_COMPAT="${GLIBC_COMPAT:-auto}" FIRST_SET="${FIRST_SET:-1}" bash "$here/run.sh"

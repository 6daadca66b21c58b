#!/usr/bin/env bash
# Local check (not for the device): runs bench/device/run.sh with this
# machine's MPI hidden, in a private mount namespace (unshare -m, as root)
# where /dev/null is bound over every system MPI library and launcher and an
# empty directory over their component and help directories, so a run that
# passes used the bundle only. Arguments: none; the environment is passed to
# run.sh through env -i (OUT, DEVICE_BUDGET, NP_SCALE, ROUNDS, MPIS,
# SCALE_RESERVE, GLIBC_COMPAT).
#   OUT=/tmp/devout-hidden DEVICE_BUDGET=90 NP_SCALE=2 ROUNDS=1 bash bench/device/hidden.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ "${1:-}" = inside ] || exec unshare -m bash "${BASH_SOURCE[0]}" inside
L=/usr/lib/x86_64-linux-gnu
empty=$(mktemp -d)
n=0
for d in $L/openmpi $L/pmix2 $L/ucx /usr/share/openmpi /etc/openmpi; do
	[ -d "$d" ] && mount --bind "$empty" "$d" && n=$((n + 1))
done
for f in $L/libmpi.so.40 $L/libmpi_cxx.so.40 $L/libopen-rte.so.40 $L/libopen-pal.so.40 $L/libmpich.so.12 \
	$L/libucp.so.0 $L/libucs.so.0 $L/libuct.so.0 $L/libucm.so.0 $L/libpmix.so.2 $L/libevent_core-2.1.so.7 \
	$L/libevent_pthreads-2.1.so.7 $L/libhwloc.so.15 /usr/bin/orterun /usr/bin/orted /usr/bin/mpiexec.hydra \
	/usr/bin/hydra_pmi_proxy; do
	[ -e "$f" ] && mount --bind /dev/null "$(readlink -f "$f")" && n=$((n + 1))
done
echo "hidden.sh: $n system MPI paths hidden; mpirun.openmpi here now says: $(mpirun.openmpi --version 2>&1 | head -n 1)"
exec env -i PATH=/usr/bin:/bin OUT="${OUT:-/tmp/devout-hidden}" DEVICE_BUDGET="${DEVICE_BUDGET:-90}" \
	NP_SCALE="${NP_SCALE:-2}" ROUNDS="${ROUNDS:-1}" MPIS="${MPIS:-openmpi mpich}" SCALE_RESERVE="${SCALE_RESERVE:-20}" \
	GLIBC_COMPAT="${GLIBC_COMPAT:-auto}" FIRST_SET="${FIRST_SET:-1}" bash "$here/run.sh"

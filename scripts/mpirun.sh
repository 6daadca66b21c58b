#!/usr/bin/env bash
# Runs mpirun of the chosen MPI (MPI=openmpi, the default, or MPI=mpich)
# with the flags this machine needs: Open MPI may oversubscribe the cores
# and, as root, must be told that this is allowed.
set -euo pipefail
case "${MPI:-openmpi}" in
openmpi)
	flags=(--oversubscribe)
	[ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
	exec mpirun.openmpi "${flags[@]}" "$@" ;;
mpich)
	exec mpirun.mpich "$@" ;;
*)
	echo "MPI must be openmpi or mpich" >&2; exit 2 ;;
esac

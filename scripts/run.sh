#!/usr/bin/env bash
# The main job: set up, build mpibench, and run the whole IMB-MPI1 suite
# under mpirun on this machine (NP ranks, default 2), keeping the records.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PATH:/usr/local/go/bin"
tags=""
[ "${MPI:-openmpi}" = mpich ] && tags="-tags mpich"
# One executable does every command, report and guidelines check included.
go build $tags -o bin/mpibench ./cmd/mpibench
bash scripts/mpirun.sh -np "${NP:-2}" bin/mpibench mpi1 -json "${JSON:-results.jsonl}" "$@"

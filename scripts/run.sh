#!/usr/bin/env bash
# The main job: set up, build mpibench, and run the whole IMB-MPI1 suite
# under mpirun on this machine (NP ranks, default 2), keeping the records.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PATH:/usr/local/go/bin"
tags=""
imbtags="-tags imbonly"
[ "${MPI:-openmpi}" = mpich ] && tags="-tags mpich" && imbtags="-tags mpich,imbonly"
go build $tags -o bin/mpibench ./cmd/mpibench
# The IMB family's binary, beside it: mpibench runs it for the IMB commands
# (less memory per rank; README.md, "Memory").
go build $imbtags -o bin/mpibench-imb ./cmd/mpibench
# The analysis binary, beside it: mpibench report and guidelines check run it.
go build -tags nompi -o bin/mpibench-analyze ./cmd/mpibench
bash scripts/mpirun.sh -np "${NP:-2}" bin/mpibench mpi1 -json "${JSON:-results.jsonl}" "$@"

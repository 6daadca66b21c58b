#!/usr/bin/env bash
# Set up, then vet and test mpibench against Open MPI and against MPICH.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
export PATH="$PATH:/usr/local/go/bin"
go mod download
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "gofmt would change: $unformatted" >&2
	exit 1
fi
go vet ./...
go vet -tags mpich ./...
go vet -tags mutant ./...
go vet -tags mutant,mpich ./...
echo "== without MPI (analysis only) =="
# The binary of README.md's "Without MPI", built both ways, vetted, and the
# unit tests of every package but cmd/mpibench run against mpi's stub
# (cmd/mpibench's TestNoMPIBinary runs the binary itself). TestCallTable and
# TestIOReadDefects check the C layer, which this build has not.
go vet -tags nompi ./...
CGO_ENABLED=0 go vet ./...
go build -tags nompi -o /dev/null ./cmd/mpibench
CGO_ENABLED=0 go build -o /dev/null ./cmd/mpibench
CGO_ENABLED=0 go test -count=1 -tags nompi -skip '^(TestCallTable|TestIOReadDefects)$' \
	$(go list ./... | grep -v '/cmd/')
echo "== errcheck =="
bash scripts/errcheck.sh
echo "== unit tests with the race detector =="
# Every package but cmd/mpibench, whose tests launch mpirun for minutes
# (about a minute in all).
go test -race -count=1 $(go list ./... | grep -v /cmd/mpibench)
echo "== tests against Open MPI =="
# -timeout: cmd/mpibench launches mpirun some hundred times, about 7 minutes
# on a quiet 2-core machine; go test's default 10 minutes is too close.
go test -count=1 -timeout 40m ./...
echo "== tests against MPICH =="
go test -count=1 -timeout 40m -tags mpich ./...
echo "== fuzzing, briefly =="
# A count, not a duration: a duration that runs out while the fuzzer
# minimises a new input reports "context deadline exceeded" as a failure.
FUZZTIME=20000x bash scripts/fuzz.sh

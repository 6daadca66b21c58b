# Conveniences; the scripts are the source of truth.
# build: one binary per MPI library (Open MPI, MPICH), each running every
# command; nompi: the build without MPI, which reads and reports results.
.PHONY: build nompi run test bench side
build:
	go build -o bin/mpibench ./cmd/mpibench
	go build -tags mpich -o bin/mpibench-mpich ./cmd/mpibench
nompi:
	CGO_ENABLED=0 go build -o bin/mpibench-nompi ./cmd/mpibench
run:
	bash scripts/run.sh
test:
	bash scripts/test.sh
bench:
	bash lab/run.sh
side:
	bash lab/side.sh

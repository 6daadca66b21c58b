# Conveniences; the scripts are the source of truth.
# build: the MPI binaries (Open MPI, MPICH), the IMB family's binary of
# each, which they run for the IMB commands, and the analysis binary, which
# their report and guidelines check run (README.md, "Memory").
.PHONY: build nompi run test bench side
build:
	go build -o bin/mpibench ./cmd/mpibench
	go build -tags mpich -o bin/mpibench-mpich ./cmd/mpibench
	go build -tags imbonly -o bin/mpibench-imb ./cmd/mpibench
	go build -tags mpich,imbonly -o bin/mpibench-mpich-imb ./cmd/mpibench
	go build -tags nompi -o bin/mpibench-analyze ./cmd/mpibench
nompi:
	CGO_ENABLED=0 go build -o bin/mpibench-analyze ./cmd/mpibench
run:
	bash scripts/run.sh
test:
	bash scripts/test.sh
bench:
	bash lab/run.sh
side:
	bash lab/side.sh

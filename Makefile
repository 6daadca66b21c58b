# Conveniences; the scripts are the source of truth.
# build: one binary per MPI library (Open MPI, MPICH), each running every
# command; nompi: the build without MPI, which reads and reports results.
.PHONY: build nompi links run test bench side
build:
	go build -o bin/mpibench ./cmd/mpibench
	go build -tags mpich -o bin/mpibench-mpich ./cmd/mpibench
nompi:
	CGO_ENABLED=0 go build -o bin/mpibench-nompi ./cmd/mpibench
# links: bin/peers/IMB-MPI1 ... and bin/peers/osu_latency ..., links to
# bin/mpibench that run as Intel's and OSU's programs (scripts/links.sh).
links: build
	bash scripts/links.sh bin/mpibench bin/peers
run:
	bash scripts/run.sh
test:
	bash scripts/test.sh
bench:
	bash lab/run.sh
side:
	bash lab/side.sh

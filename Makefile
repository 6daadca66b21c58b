# Conveniences; the scripts are the source of truth.
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
	bash bench/run.sh
side:
	bash bench/side.sh

# Conveniences; the scripts are the source of truth.
.PHONY: build run test bench side
build:
	go build -o bin/mpibench ./cmd/mpibench
	go build -tags mpich -o bin/mpibench-mpich ./cmd/mpibench
run:
	bash scripts/run.sh
test:
	bash scripts/test.sh
bench:
	bash bench/run.sh
side:
	bash bench/side.sh

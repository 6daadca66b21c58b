#!/usr/bin/env bash
# Set up, then vet and test mpibench against Open MPI and against MPICH.
# Each part runs once and is timed (the times are printed at the end):
# vet and errcheck once per build (tag set), the unit tests of a package
# that does not link MPI once, with the race detector where the package
# runs goroutines or guards state with locks, those that link MPI against
# both MPIs and the stub, the end-to-end tests (e2e/) against both MPIs.
# The fuzz targets' seed corpora run with the unit tests; fuzzing itself
# (scripts/fuzz.sh) is not part of this run: each target rebuilds the
# module with coverage instrumentation, 18 targets cost 3.5 minutes of
# compiling for seconds of fuzzing (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

times=()
# part NAME COMMAND...: runs the command as one timed part, in a subshell
# that stops at its first failure; a failed part ends the run, with its
# time.
part() {
	local name=$1 start=$SECONDS status
	shift
	echo "== $name =="
	set +e
	(
		set -e
		"$@"
	)
	status=$?
	set -e
	times+=("$(printf '%5ds  %s' $((SECONDS - start)) "$name")")
	if [ "$status" -ne 0 ]; then
		times[-1]+=" (failed)"
		return "$status"
	fi
}
report() {
	echo "== times ==" >&2
	printf '%s\n' "${times[@]}" >&2
	printf '%5ds  total\n' "$SECONDS" >&2
}
trap report EXIT

part setup bash scripts/setup.sh --test
go mod download

gofmt_check() {
	local unformatted
	unformatted=$(gofmt -l .)
	if [ -n "$unformatted" ]; then
		echo "gofmt would change: $unformatted" >&2
		return 1
	fi
}

# vet once per set of files: the tests below run with -vet=off, which
# would otherwise vet each package again for every go test. The default
# build vets every package; the other builds vet only the packages whose
# files differ from it (a package of the same files is the same code:
# vetting it again re-checks nothing, it only recompiled everything above
# mpi, about 170 s per build cold). That they compile is checked where
# they are built: the unit tests of each build, the end-to-end tests'
# binaries. No file is built for mutant and mpich together only (the
# mutant build against MPICH is compiled by the end-to-end tests), and
# -tags nompi picks the files that CGO_ENABLED=0 does (docs/build.md,
# "Without MPI").
files() { go list -f '{{.ImportPath}} {{.GoFiles}} {{.CgoFiles}} {{.TestGoFiles}} {{.XTestGoFiles}}' "$@" ./...; }
vet_differing() {
	local pkgs
	mapfile -t pkgs < <(comm -13 <(sort <<<"$base") <(files "$@" | sort) | cut -d' ' -f1)
	echo "go vet ${CGO_ENABLED:+CGO_ENABLED=$CGO_ENABLED }$* (${#pkgs[@]} packages whose files differ): ${pkgs[*]}"
	if ((${#pkgs[@]})); then
		go vet "$@" "${pkgs[@]}"
	fi
}
vet_all() {
	local base
	base=$(files)
	go vet ./...
	vet_differing -tags mpich
	vet_differing -tags mutant
	(
		export CGO_ENABLED=0
		vet_differing
	)
}

# The packages by what their tests need: pure ones link no MPI (their
# tests give the same result under any build), mpi ones do (their test
# binary does), e2e runs the binary. race: the packages whose tests run
# their goroutines (readers, timers, the progress tick); a race build of
# the cgo packages costs minutes and their tests start none.
mapfile -t all < <(go list ./...)
# The end-to-end packages, the longest first: go test runs two test
# binaries at a time (-p, the cores), in the order given. In go list's
# order e2e/imb, a third of the whole, started fifth and ran alone for its
# last ten minutes (docs/log/2026-11-29-ci-time.md).
longest=(imb beff osu faults)
mapfile -t e2e < <(
	printf 'mpibench/e2e/%s\n' "${longest[@]}"
	printf '%s\n' "${all[@]}" | grep '^mpibench/e2e' | grep -vxF -f <(printf 'mpibench/e2e/%s\n' "${longest[@]}")
)
mapfile -t units < <(printf '%s\n' "${all[@]}" | grep -v '^mpibench/e2e')
mapfile -t mpipkgs < <(go list -test -f '{{.ImportPath}} {{join .Deps " "}}' "${units[@]}" |
	awk '$1 ~ /\.test$/ && / mpibench\/mpi( |$)/ {sub(/\.test$/, "", $1); print $1}')
mapfile -t pure < <(printf '%s\n' "${units[@]}" | grep -vxF -f <(printf '%s\n' "${mpipkgs[@]}"))
race='^mpibench/(analysis/result|run/(cases|journal|progress|watchdog))$'
mapfile -t pure_race < <(printf '%s\n' "${pure[@]}" | grep -E "$race")
mapfile -t pure_plain < <(printf '%s\n' "${pure[@]}" | grep -vE "$race")

unit_tests() {
	go test -count=1 -vet=off "${pure_plain[@]}"
	go test -count=1 -vet=off -race "${pure_race[@]}"
}

# Open MPI: the unit tests that link MPI.
mpi_units_openmpi() { go test -count=1 -vet=off "${mpipkgs[@]}"; }

# The same against MPICH, and against the stub of the build without MPI
# (docs/build.md, "Without MPI"), without cgo: TestCallTable and
# TestIOReadDefects check the C layer, which that build has not.
mpi_units_others() {
	go test -count=1 -vet=off -tags mpich "${mpipkgs[@]}"
	CGO_ENABLED=0 go test -count=1 -vet=off -tags nompi -skip '^(TestCallTable|TestIOReadDefects)$' "${mpipkgs[@]}"
}

# Open MPI's end-to-end tests run as three go test commands at once
# (together): e2e/imb, half the test time, in two shards (the tests of the
# files in imb_first, and the rest), beside the other packages two at a
# time. They mostly wait (mpirun's start, sleeps, watchdogs): one go test
# of all packages, two at a time, kept the two cores half idle (403 s of
# CPU in 409 s); the three commands took 310 s
# (docs/log/2026-11-29-e2e-shards.md). MPICH's ranks busy-poll and fill
# both cores: the same split took 241 s against about 230 s as one go
# test, and two e2e/imb shards at once (three commands, or two chains of
# one test binary each) starved healthy cases past a 2 s watchdog; so its
# run is one go test, two packages at a time, the longest first, and its
# jobs under mpirun.mpich take turns (e2e.ExecuteEnv's lock): two at once
# passed a 240 s timeout in CI (docs/log/2026-11-29-mpich-turns.md). The
# second MPI skips the e2e tests whose subject both builds share
# (e2e.FirstMPIOnly). Each command writes its own log, shown when all
# have ended; each test binary builds mpibench under a lock (e2e.build).
# -timeout: go test's default 10 minutes is too close on a loaded 2-core
# machine.
imb_first=(io imb_fault check_ext_io sync bigcount check_mpi1 mpi4 imb2021_types)
imb_first_tests=$(sed -n 's/^func \(Test[A-Za-z0-9_]*\)(.*/\1/p' $(printf 'e2e/imb/%s_test.go ' "${imb_first[@]}") | paste -sd'|')
mapfile -t rest < <(printf '%s\n' "${e2e[@]}" | grep -vx mpibench/e2e/imb)

# together FUNCTION...: runs the functions at once, each with its output
# in its own log; the logs are shown in order once all have ended, and it
# fails if any did.
together() {
	local logs pids=() status=0 i=0 f
	logs=$(mktemp -d)
	for f in "$@"; do
		"$f" >"$logs/$i" 2>&1 &
		pids+=($!)
		i=$((i + 1))
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || status=1
	done
	for i in "${!pids[@]}"; do
		cat "$logs/$i"
	done
	rm -r "$logs"
	return "$status"
}
gotest() { go test -count=1 -vet=off -timeout 40m "$@"; }
imb_a() { gotest -run "^($imb_first_tests)\$" mpibench/e2e/imb; }
imb_b() { gotest -skip "^($imb_first_tests)\$" mpibench/e2e/imb; }
e2e_rest() { gotest "${rest[@]}"; }
# MPICH's end-to-end binaries (mpich, mpich and mutant) compile beside
# Open MPI's end-to-end tests, whose ranks yield and leave the cores half
# idle, into the build cache: MPICH's run then starts testing at once
# instead of compiling every cgo package for mutant and mpich together
# first (e2e.build links from the cache).
prebuild_mpich() {
	go build -tags mpich -o /dev/null ./cmd/mpibench
	go build -tags mpich,mutant -o /dev/null ./cmd/mpibench
}
e2e_openmpi() { together imb_a imb_b e2e_rest prebuild_mpich; }
e2e_mpich() { MPIBENCH_E2E_SECOND_MPI=1 gotest -tags mpich "${e2e[@]}"; }

part gofmt gofmt_check
part vet vet_all
part errcheck bash scripts/errcheck.sh
part "unit tests (no MPI)" unit_tests
part "unit tests (Open MPI)" mpi_units_openmpi
part "unit tests (MPICH, without MPI)" mpi_units_others
part "end-to-end (Open MPI)" e2e_openmpi
part "end-to-end (MPICH)" e2e_mpich

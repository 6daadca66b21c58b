#!/usr/bin/env bash
# errcheck on every package, for both MPIs, the mutant and the nompi builds: no
# error of a call is dropped unless scripts/errcheck.exclude says why it
# may be. Test files are left out: a test that drops an error fails on
# what follows, or checks it.
set -euo pipefail
cd "$(dirname "$0")/.."
# The version is pinned in go.mod (internal/tools); "go mod download"
# fetches it with the other modules.
errcheck="go run github.com/kisielk/errcheck"
status=0
# nompi: the build without MPI, for machines that only read results. No
# file is built for mutant and mpich together only: those two cover it.
for tags in "" mpich mutant nompi; do
	out=$($errcheck -tags "$tags" -ignoretests -excludeonly -exclude scripts/errcheck.exclude ./... 2>&1 || true)
	out=$(grep -v '^exit status' <<<"$out" || true)
	if [ -n "$out" ]; then
		echo "errcheck (tags \"$tags\"): unchecked errors:" >&2
		echo "$out" >&2
		status=1
	fi
done
exit $status

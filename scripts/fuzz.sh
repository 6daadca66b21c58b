#!/usr/bin/env bash
# Run every fuzz target for FUZZTIME each (default 10s; a count such as
# 20000x also works). Crashers land in
# the package's testdata/fuzz/<target>/ and fail the run.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
fuzztime="${FUZZTIME:-10s}"
targets=(
	./imb:FuzzParseArgs
	./imb:FuzzParseLengths
	./imb:FuzzParseSelection
	./skampi:FuzzParseConfig
	./guideline:FuzzParse
	./result:FuzzRead
	./result:FuzzDecode
	./internal/cli:FuzzParse
	./beff:FuzzParseArgs
	./beffio:FuzzParseArgs
	./pgmpi:FuzzParseLists
	./pgmpi:FuzzReadNrep
	./cmd/mpibench:FuzzSkampiParse
	./cmd/mpibench:FuzzReportParse
	./cmd/mpibench:FuzzSetCriteria
	./mpijob:FuzzSplitCommon
	./journal:FuzzResume
)
for t in "${targets[@]}"; do
	pkg="${t%%:*}"
	name="${t##*:}"
	echo "== fuzz $pkg $name ($fuzztime)"
	go test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" "$pkg"
done

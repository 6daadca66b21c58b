#!/usr/bin/env bash
# Run every fuzz target for FUZZTIME each (default 10s; a count such as
# 20000x also works). Crashers land in
# the package's testdata/fuzz/<target>/ and fail the run.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
fuzztime="${FUZZTIME:-10s}"
# Every fuzz target of the tree, found rather than listed, so that a
# target that moves with its code is still run.
mapfile -t targets < <(grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r f; do
	grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed "s|^func |./$(dirname "${f#./}"):|"
done)
if [ "${#targets[@]}" -eq 0 ]; then
	echo "fuzz: no fuzz targets found" >&2
	exit 1
fi
for t in "${targets[@]}"; do
	pkg="${t%%:*}"
	name="${t##*:}"
	echo "== fuzz $pkg $name ($fuzztime)"
	go test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" "$pkg"
done

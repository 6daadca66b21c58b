#!/usr/bin/env bash
# The MPI calls of every C function in an mpibench binary, as the object
# code has them: one line per function, "function: call call ...", in the
# order of the call instructions, for every function that calls MPI (but
# cgo's generated wrappers, whose names change with the package). Two binaries built from two commits
# give the same lines when their timed loops make the same calls, whatever
# package or file the C lives in.
#
#   bash lab/kernelcalls.sh BINARY > calls.txt
#   bash lab/kernelcalls.sh -diff OLD_BINARY NEW_BINARY   # exit 1 on a difference
set -euo pipefail
calls() {
	objdump -d --no-show-raw-insn "$1" | awk '
		/^[0-9a-f]+ <[^>]+>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
		/\tcall / && match($0, /<[^>]+>/) {
			t = substr($0, RSTART + 1, RLENGTH - 2); sub(/@plt$/, "", t); sub(/\+0x[0-9a-f]+$/, "", t)
			line[fn] = line[fn] " " t
			if (t ~ /^P?MPIX?_/) mpi[fn] = 1
		}
		END { for (f in mpi) if (f !~ /^_cgo_/) print f ":" line[f] }' | sort
}
if [ "${1:-}" = "-diff" ]; then
	diff <(calls "$2") <(calls "$3") && echo "kernelcalls: the same MPI calls in every C function of both binaries"
else
	calls "$1"
fi

#!/usr/bin/env bash
# Side by side: mpibench against Intel MPI Benchmarks 2021.11 and OSU 7.4 on
# the same machine, same MPI, np 2. A benchmark, not a test (CI does not run
# it). See docs/lab.md, "Side by side with the peers".
#
# Usage (from anywhere):
#   bash lab/side.sh
#   ROUNDS=7 MPIS="openmpi mpich" DEST=~/.cache/mpibench-peers bash lab/side.sh
#   EXT_MSGLEN="0 1024 65536" bash lab/side.sh   # shorter ext rows
#
# Environment:
#   ROUNDS      launches of each program per row (default 7, at least 1)
#   MPIS        openmpi and/or mpich (default both)
#   DEST        where ../shared/peers/build.sh puts the peers; built once
#   PEERS       the build script (default ../shared/peers/build.sh)
#   MPI1_MSGLEN lengths of the mpi1 launches (default: IMB's 0,1,2,...,4 MiB)
#   EXT_MSGLEN  lengths of the ext launches (default: IMB's, the whole run)
#   PARTS       any of mpi1 mpi1w thread osu osup2p osupers osurma osuw mem ext (default all);
#               mpi1w is mpi1 like with like: mpibench mpi1 -imb 2021 (IMB
#               2021's definition: each collective call timed alone, the
#               per-length warm-up) with IMB-MPI1's flags
#
# Each round runs every pair (mpibench, peer) back to back, the one going
# first alternating from round to round, so that drift on the machine hits
# both alike. A row's ratio is mpibench / peer within a round; the table
# shows the median of those ROUNDS ratios and their min and max.
#
# Like with like: IMB 2021 lowers repetition counts by time (-time, default
# 10 s per length, with -iter_policy dynamic); it is given -time 1000000 so
# that it runs IMB 3.0's counts, min(1000, 40 MB / length). IMB 2021 keeps
# the root of Bcast and Reduce at 0 unless given -root_shift on; IMB 3.0
# cycles it every repetition, as mpibench does. IMB 2021 also puts an
# MPI_Barrier after every repetition of a collective, outside the timed
# call (-sync on, its default); IMB 3.0 times the n_sample calls back to
# back in one loop (IMB 3.0 guide 5.2.8.1), as mpibench does: -sync off.
# IMB 2021's
# IMB-EXT differs from IMB 3.0's by definition (target offsets, Window's
# repetitions: 100 at every length where IMB 3.0 has min(1000, 40 MB / X)),
# so the ext row compares wall times of runs of every ext benchmark but
# Window.
set -euo pipefail

ROUNDS=${ROUNDS:-7}
MPIS=${MPIS:-openmpi mpich}
DEST=${DEST:-$HOME/.cache/mpibench-peers}
PARTS=${PARTS:-mpi1 mpi1w thread osu osup2p osupers osurma osuw mem ext}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PEERS=${PEERS:-$here/../../shared/peers/build.sh}

case $ROUNDS in
'' | *[!0-9]* | 0) echo "side.sh: ROUNDS must be a positive integer, got '$ROUNDS'" >&2; exit 2 ;;
esac
for m in $MPIS; do
	case $m in openmpi | mpich) ;; *) echo "side.sh: MPIS: unknown MPI '$m'" >&2; exit 2 ;; esac
done
for p in $PARTS; do
	case $p in mpi1 | mpi1w | thread | osu | osup2p | osupers | osurma | osuw | mem | ext) ;; *) echo "side.sh: PARTS: unknown part '$p'" >&2; exit 2 ;; esac
done
has() { [[ " $PARTS " == *" $1 "* ]]; }

cd "$here/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpibench-side.XXXXXX")
# The raw outputs stay when anything fails: side.py can be rerun on them.
trap 'echo "side.sh: outputs kept in $tmp" >&2' EXIT

for m in $MPIS; do
	if [ ! -x "$DEST/$m/bin/IMB-MPI1" ]; then
		echo "building the peers into $DEST (about 2 minutes)"
		bash "$PEERS" "$DEST" >"$tmp/peers.log" 2>&1 || { cat "$tmp/peers.log" >&2; exit 1; }
		break
	fi
done

lens() { # name lengths...: a -msglen file for both tools, or nothing
	local f=$tmp/$1.msglen
	shift
	[ $# -gt 0 ] || return 0
	printf '%s\n' "$@" >"$f"
	echo "-msglen $f"
}
# shellcheck disable=SC2086
mpi1len=$(lens mpi1 ${MPI1_MSGLEN:-})
# Every IMB-EXT benchmark but Window (see above).
extbench="Unidir_Put Unidir_Get Bidir_Put Bidir_Get Accumulate"
# shellcheck disable=SC2086
extlen=$(lens ext ${EXT_MSGLEN:-})
ppfile=$(lens pp 0 8 1024 65536 4194304)
# Each rank's peak resident set (kB) into its own file PREFIX.PID.
# shellcheck disable=SC2016
rss='exec /usr/bin/time -f %M -o "$0.$$" "$@"'

run_logged() { # log cmd...: time cmd into log (first line: wall seconds), fail loudly
	local log=$1 t0 t1
	shift
	{ printf +; printf ' %q' "$@"; echo; } >>"$tmp/commands"
	t0=$(date +%s.%N)
	if ! "$@" >"$log" 2>&1; then
		echo "side.sh: failed: $*" >&2
		cat "$log" >&2
		exit 1
	fi
	t1=$(date +%s.%N)
	echo "WALL $(echo "$t1 - $t0" | bc)" >>"$log"
}

pair() { # round name cmdA -- cmdB: run both, alternating who goes first
	local r=$1 name=$2 a=() b=()
	shift 2
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	if ((r % 2)); then
		run_logged "$tmp/$name.A.$r" "${a[@]}"
		run_logged "$tmp/$name.B.$r" "${b[@]}"
	else
		run_logged "$tmp/$name.B.$r" "${b[@]}"
		run_logged "$tmp/$name.A.$r" "${a[@]}"
	fi
}

echo "machine: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "rounds: $ROUNDS; peers: $DEST; parts: $PARTS"
for m in $MPIS; do
	if [ "$m" = openmpi ]; then
		mpirun=(mpirun.openmpi -np 2 --oversubscribe)
		[ "$(id -u)" -ne 0 ] || mpirun+=(--allow-run-as-root)
		tags=()
		ver=$(mpirun.openmpi --version 2>&1 | head -n 1)
	else
		mpirun=(mpirun.mpich -np 2)
		tags=(-tags mpich)
		ver=$(mpirun.mpich --version 2>&1 | awk '/Version:/ { print "MPICH (HYDRA) " $2; exit }')
	fi
	echo "$m: $ver"
	mb=$tmp/mpibench-$m
	go build "${tags[@]}" -o "$mb" ./cmd/mpibench
	bin=$DEST/$m/bin
	imb=(-time 1000000) # IMB 3.0's repetition counts, see above
	imb1=(-root_shift on -sync off) # IMB 3.0's root cycling and loop, see above
	for r in $(seq 1 "$ROUNDS"); do
		echo "$m: round $r/$ROUNDS"
		# shellcheck disable=SC2086
		if has mpi1; then
			pair "$r" "$m.mpi1" "${mpirun[@]}" "$mb" mpi1 PingPong PingPing Bcast Reduce $mpi1len -json "$tmp/$m.mpi1.$r.jsonl" \
				-- "${mpirun[@]}" "$bin/IMB-MPI1" PingPong PingPing Bcast Reduce $mpi1len "${imb[@]}" "${imb1[@]}"
		fi
		if has mpi1w; then
			pair "$r" "$m.mpi1w" "${mpirun[@]}" "$mb" mpi1 -imb 2021 PingPong PingPing Bcast Reduce $mpi1len "${imb[@]}" "${imb1[@]}" \
				-json "$tmp/$m.mpi1w.$r.jsonl" \
				-- "${mpirun[@]}" "$bin/IMB-MPI1" PingPong PingPing Bcast Reduce $mpi1len "${imb[@]}" "${imb1[@]}"
		fi
		if has thread; then
			pair "$r" "$m.thread" "${mpirun[@]}" "$mb" mpi1 PingPong $ppfile -thread_level funneled -json "$tmp/$m.thread.A.$r.jsonl" \
				-- "${mpirun[@]}" "$mb" mpi1 PingPong $ppfile -thread_level single -json "$tmp/$m.thread.B.$r.jsonl"
		fi
		if has osu; then
			pair "$r" "$m.osu" "${mpirun[@]}" "$mb" mpi1 PingPong $ppfile -json "$tmp/$m.osu.$r.jsonl" \
				-- "${mpirun[@]}" "$bin/osu_latency" -m 0:4194304
		fi
		# mpibench osu against OSU's own binaries, same flags: the standard
		# point-to-point tests (osup2p), the persistent ones (osupers), the
		# one-sided ones at their default window and synchronisation
		# (osurma) and osu_alltoallw (osuw).
		for part in osup2p osupers osurma osuw; do
			has $part || continue
			tests=osu_latency\ osu_bw\ osu_bibw\ osu_mbw_mr
			[ $part = osupers ] && tests=osu_latency_persistent\ osu_bw_persistent\ osu_bibw_persistent
			[ $part = osurma ] && tests=osu_put_latency\ osu_get_latency\ osu_put_bw\ osu_get_bw\ osu_put_bibw\ osu_acc_latency
			[ $part = osuw ] && tests=osu_alltoallw
			for b in $tests; do
				pair "$r" "$m.$b" "${mpirun[@]}" "$mb" osu "$b" -m 8:4194304 -json "$tmp/$m.$b.$r.jsonl" \
					-- "${mpirun[@]}" "$bin/$b" -m 8:4194304
			done
		done
		if has mem; then
			pair "$r" "$m.mem" "${mpirun[@]}" sh -c "$rss" "$tmp/$m.mem.A.$r.rss" "$mb" mpi1 PingPong Allreduce \
				-- "${mpirun[@]}" sh -c "$rss" "$tmp/$m.mem.B.$r.rss" "$bin/IMB-MPI1" PingPong Allreduce "${imb[@]}" "${imb1[@]}"
		fi
		if has ext; then
			pair "$r" "$m.ext" "${mpirun[@]}" "$mb" ext $extbench $extlen \
				-- "${mpirun[@]}" "$bin/IMB-EXT" $extbench $extlen "${imb[@]}"
		fi
	done
done

echo
echo "commands (first round of each MPI; files under a temporary directory):"
sed -E "s/\.[0-9]+\.(jsonl|rss)/.R.\1/; s|$tmp|TMP|g" "$tmp/commands" | awk '!seen[$0]++'
python3 "$here/side.py" "$tmp" "$ROUNDS" "$MPIS" "$PARTS"
trap - EXIT
rm -rf "$tmp"

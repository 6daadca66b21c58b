#!/usr/bin/env bash
# Runs ON the borrowed device (no MPI installed) from the bundle that
# lab/device/bundle.sh made: mpibench against IMB-MPI1 and OSU, both MPIs,
# np 2 side by side (interleaved rounds) and one np-16 scaling launch each.
# See docs/lab.md, "On a borrowed machine without MPI".
#
#   bash lab/device/run.sh          (the device command; carry .devbundle)
#   env -i PATH=/usr/bin:/bin OUT=/tmp/devout DEVICE_BUDGET=120 NP_SCALE=4 bash lab/device/run.sh
#
# Environment:
#   OUT            where everything goes (default /tmp/devout); at most 6 files:
#                  run.log (probe, settings, commands, timings), openmpi.log and
#                  mpich.log (every step's output between ### BEGIN/END markers),
#                  openmpi.jsonl and mpich.jsonl (mpibench's records, each tagged
#                  with _mpi, _step, _side, _round), raw.tar.gz (every raw file)
#   DEVICE_BUDGET  seconds for the whole script (default 420); every step runs
#                  under timeout, capped by what is left
#   ROUNDS         rounds of the np 2 pairs (default 5)
#   NP_SCALE       processes of the scaling launch (default 16)
#   MPIS           openmpi and/or mpich (default both)
#   BUNDLE         the bundle (default .devbundle in the repository root)
#   PARTS          any of pairs drivers coll full fullw scale mem (default: pairs drivers scale);
#                  coll adds to drivers the set-up collectives of mpibench before
#                  OSU's, osudriver's and gokernel's loop (lab/precoll.c,
#                  GOKERNEL_PRE=coll); full is mpi1's default run of PingPong
#                  PingPing Bcast Reduce against IMB-MPI1's, fullw the same with
#                  mpibench's -imb 2021 (IMB 2021's definition, like with like)
#                  mem is the memory comparison of docs/memory.md: per round, mpibench
#                  mpi1 PingPong Allreduce and IMB-MPI1's at each of MEM_NP's process
#                  counts, every rank's smaps_rollup sampled by lab/rss.py -watch
#                  (needs python3) into raw/MPI.mem.PROG.npN.ROUND.ticks;
#                  python3 lab/memory.py OUT prints the table
#   MEM_NP         process counts of the mem part (default NP_SCALE; e.g. "2 16")
#   SCALE_AFTER    the scaling launches run after this many rounds (default 2), so
#                  that a short budget still gets them
#   SCALE_RESERVE  seconds per working MPI kept for them until then (default 60; a
#                  third of the budget at most)
#   FIRST_SET      the hello probe starts at this setting (default 1; tests of the fallbacks)
#   GLIBC_COMPAT   auto (default): preload compat/libglibc236.so where glibc < 2.36; 1 always, 0 never
# lab/device/summary.py OUT prints the tables (run it where python3 is).
set -u

t_start=$(date +%s)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
BUNDLE=${BUNDLE:-$root/.devbundle}
OUT=${OUT:-/tmp/devout}
BUDGET=${DEVICE_BUDGET:-420}
ROUNDS=${ROUNDS:-5}
NP_SCALE=${NP_SCALE:-16}
MPIS=${MPIS:-openmpi mpich}
SCALE_AFTER=${SCALE_AFTER:-2}
PARTS=${PARTS:-pairs drivers scale}
SCALE_RESERVE=${SCALE_RESERVE:-60}
MEM_NP=${MEM_NP:-$NP_SCALE}
deadline=$((t_start + BUDGET))
mkdir -p "$OUT"
exec > >(tee -a "$OUT/run.log") 2>&1
teepid=$!

left() { echo $((deadline - $(date +%s))); }
say() { echo "[$(date -u +%H:%M:%S) +$(($(date +%s) - t_start))s] $*"; }

say "run.sh: budget ${BUDGET}s, rounds $ROUNDS, np scale $NP_SCALE, MPIs $MPIS, out $OUT"
echo "== probe"
echo "nproc: $(nproc 2>&1)"
echo "uname: $(uname -a 2>&1)"
echo "id: $(id 2>&1)"
grep -E '^(PRETTY_NAME|VERSION_ID)=' /etc/os-release 2>&1
echo "ldd: $(ldd --version 2>&1 | head -n 1)"
if command -v lscpu >/dev/null; then lscpu 2>&1 | grep -E '^(Model name|Socket|Core|Thread|CPU\(s\)|NUMA node\(s\)|L3)'; else
	grep -m1 'model name' /proc/cpuinfo; fi
echo "memory: $(grep -E '^MemTotal' /proc/meminfo)"
echo "/dev/shm:"; ls -la /dev/shm 2>&1 | head -n 5; df -h /dev/shm /tmp 2>&1
echo "ptrace_scope: $(cat /proc/sys/kernel/yama/ptrace_scope 2>&1)"
echo "cpu affinity: $(grep Cpus_allowed_list /proc/self/status 2>&1)"
echo "dmesg: $(dmesg 2>/dev/null | head -n 2 | tr '\n' ' ')"
echo "interfaces: $(ls /sys/class/net 2>&1 | tr '\n' ' ')"
echo "tools: $(for t in timeout tar gzip python3 ldconfig setsid; do command -v $t >/dev/null && printf '%s ' $t || printf '%s(MISSING) ' $t; done)"
# The mem part's sampler (lab/rss.py) by the interpreter's real path: steps run under env -i.
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || PY=
echo "python3 for the mem part: ${PY:-none}"
echo "system MPI (should be none): $(command -v mpirun mpiexec 2>/dev/null | tr '\n' ' ')"

# The bundle, unpacked (its big files are gzipped) into a writable copy.
if [ ! -d "$BUNDLE/openmpi" ] && [ ! -d "$BUNDLE/mpich" ]; then
	say "run.sh: no bundle at $BUNDLE (carry .devbundle; make it with lab/device/bundle.sh)"
	exit 1
fi
W=
for d in "${TMPDIR:-/tmp}" /dev/shm "$root"; do # the first place where the copy unpacks and runs
	W=$(mktemp -d "$d/mpibench-dev.XXXXXX" 2>/dev/null) || continue
	if cp -a "$BUNDLE" "$W/b" && find "$W/b" -name '*.gz' -exec gunzip {} + &&
		LD_LIBRARY_PATH="$W/b/mpich/lib" "$W/b/mpich/bin/mpiexec.hydra" --version >/dev/null 2>&1; then
		break
	fi
	echo "unpacking into $d failed"
	rm -rf "$W"
	W=
done
[ -n "$W" ] || { say "run.sh: unpacking the bundle failed everywhere"; exit 1; }
B=$W/b
RAW=$W/raw
mkdir -p "$RAW"
echo "bundle: $BUNDLE (commit $(cat "$B/COMMIT" 2>/dev/null)), unpacked into $B: $(du -sh "$B" | cut -f1)"
echo "bundle needs: $(tail -n 1 "$B/GLIBC.txt"), $(cat "$B/GLIBCXX.txt")"

# glibc older than 2.36: the compat shim gives arc4random@GLIBC_2.36 (bundled
# libevent and libstdc++ ask for it, weakly: see bundle.sh).
gv=$(ldd --version 2>&1 | head -n 1 | grep -o '[0-9]\+\.[0-9]\+$')
preload=
if [ "${GLIBC_COMPAT:-auto}" = 1 ] || { [ "${GLIBC_COMPAT:-auto}" = auto ] && [ -n "$gv" ] &&
	[ "$(printf '%s\n2.36\n' "$gv" | sort -V | head -n 1)" != 2.36 ]; }; then
	if [ -f "$B/compat/libglibc236.so" ]; then
		preload=$B/compat/libglibc236.so
		echo "glibc $gv (< 2.36, or GLIBC_COMPAT=1): LD_PRELOAD=$preload"
	else
		echo "glibc $gv < 2.36 and no compat shim: Open MPI (libevent) may fail to load"
	fi
fi
# libstdc++: the device's own when it has the GLIBCXX version the peers need.
need=$(cat "$B/GLIBCXX.txt" 2>/dev/null)
for f in /usr/lib/x86_64-linux-gnu/libstdc++.so.6 /lib/x86_64-linux-gnu/libstdc++.so.6 /usr/lib64/libstdc++.so.6; do
	if [ -n "$need" ] && [ -e "$f" ] && grep -qa "$need" "$f"; then
		echo "libstdc++: the device's $f (has $need); bundled copies removed"
		rm -f "$B"/openmpi/lib/libstdc++.so.6 "$B"/mpich/lib/libstdc++.so.6 "$B"/openmpi/lib/libgcc_s.so.1 "$B"/mpich/lib/libgcc_s.so.1
		break
	fi
done

ncpu=$(nproc)
over=0
[ "$ncpu" -ge "$NP_SCALE" ] || over=1
lens() { # file lengths...
	printf '%s\n' "${@:2}" >"$1"
}
lens "$W/pp.msglen" 0 8 1024 65536
lens "$W/scale.msglen" 0 8 1024 65536 1048576
lens "$W/hello.msglen" 0 65536 1048576
imb=(-time 1000000)                 # as lab/side.sh: IMB 3.0's repetition counts
imb1=(-root_shift on -sync off)     # as lab/side.sh: IMB 3.0's root cycling and loop

# Per MPI: the environment (ENV_m), the launcher (RUN_m, up to -np) and the
# settings chosen by the hello probe (SET_m).
O=$B/openmpi
M=$B/mpich
ENV_openmpi=(PATH="$O/bin:$B/bin:/usr/bin:/bin" LD_LIBRARY_PATH="$O/lib"
	OPAL_PREFIX="$O" OPAL_EXEC_PREFIX="$O" OPAL_BINDIR="$O/bin" OPAL_LIBDIR="$O/lib" OPAL_LIBEXECDIR="$O/bin"
	OPAL_PKGLIBDIR="$O/lib/openmpi3" OPAL_DATAROOTDIR="$O/share" OPAL_DATADIR="$O/share"
	OPAL_PKGDATADIR="$O/share/openmpi" OPAL_SYSCONFDIR="$O/etc"
	PMIX_INSTALL_PREFIX="$O/pmix" PMIX_PKGLIBDIR="$O/pmix/lib/pmix" PMIX_PKGDATADIR="$O/pmix/share/pmix"
	PMIX_SYSCONFDIR="$O/pmix/share" PMIX_MCA_mca_base_component_path="$O/pmix/lib/pmix"
	OMPI_MCA_plm_rsh_agent= OMPI_MCA_btl_base_warn_component_unused=0
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	HOME="${HOME:-/root}" TMPDIR="${TMPDIR:-/tmp}")
ENV_mpich=(PATH="$M/bin:$B/bin:/usr/bin:/bin" LD_LIBRARY_PATH="$M/lib"
	HYDRA_LAUNCHER=fork HOME="${HOME:-/root}" TMPDIR="${TMPDIR:-/tmp}")
if [ -n "$preload" ]; then
	ENV_openmpi+=(LD_PRELOAD="$preload")
	ENV_mpich+=(LD_PRELOAD="$preload")
fi
# A setting is "BIND;FLAGS;ENV": the binding (core or none; none anyway when
# np > cores, or after a failed bound scaling launch), launcher flags, and
# environment variables for the launch. The hello probe tries them in order
# and keeps the first that passes: BIND_m, FLAGS_m (array), XENV_m (array).
OMPI_SETS=("core;--mca btl self,vader;"
	"core;--mca btl self,vader --mca btl_vader_single_copy_mechanism none;"
	"none;--mca btl self,vader --mca btl_vader_single_copy_mechanism none;"
	"none;--mca btl self,tcp --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo;")
# MPICH: UCX without cma (process_vm_readv) keeps to shared memory; not ^cma,
# which lets in tcp: 10 times slower at 64 KiB here and osu_bibw hung once in 5.
MPICH_SETS=("core;;"
	"core;;UCX_TLS=self,posix,sysv UCX_POSIX_USE_PROC_LINK=n"
	"none;-localhost 127.0.0.1;UCX_TLS=self,posix,sysv UCX_POSIX_USE_PROC_LINK=n UCX_MEM_EVENTS=no"
	"none;-localhost 127.0.0.1 -iface lo;UCX_TLS=self,sysv UCX_MEM_EVENTS=no")
use_set() { # mpi setting
	local bind flags xenv
	IFS=';' read -r bind flags xenv <<<"$2"
	# shellcheck disable=SC2206
	if [ "$1" = openmpi ]; then
		BIND_openmpi=$bind FLAGS_openmpi=($flags) XENV_openmpi=($xenv)
	else
		BIND_mpich=$bind FLAGS_mpich=($flags) XENV_mpich=($xenv)
	fi
}
launcher() { # mpi np: the launch command up to the program, one word a line
	local m=$1 np=$2 bind
	if [ "$m" = openmpi ]; then
		bind=$BIND_openmpi
		[ "$np" -le "$ncpu" ] && [ "${UNBOUND_openmpi:-0}" = 0 ] || bind=none
		printf '%s\n' "$O/bin/mpirun" -np "$np"
		[ "$(id -u)" -ne 0 ] || echo --allow-run-as-root
		[ "$np" -le "$ncpu" ] && [ "${UNBOUND_openmpi:-0}" = 0 ] || echo --oversubscribe
		printf '%s\n' --bind-to "$bind" "${FLAGS_openmpi[@]}"
	else
		bind=$BIND_mpich
		[ "$np" -le "$ncpu" ] && [ "${UNBOUND_mpich:-0}" = 0 ] || bind=none
		printf '%s\n' "$M/bin/mpiexec.hydra" -launcher fork -np "$np" -bind-to "$bind" "${FLAGS_mpich[@]}"
	fi
}

cleanup_strays() { # kill processes still running a bundled binary (after a timeout)
	local p exe
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		case $exe in "$B"/*) kill -9 "${p#/proc/}" 2>/dev/null && echo "killed stray ${p#/proc/} $exe" ;; esac
	done
}

# step mpi name side round cap cmd...: one launch under timeout into the MPI's
# log; mpibench's -json file (if any, $J) is tagged into OUT/mpi.jsonl.
step() {
	local m=$1 name=$2 side=$3 r=$4 cap=$5 t rc t0 t1 extra=()
	shift 5
	t=$(left)
	[ "$t" -lt "$cap" ] || t=$cap
	if [ "$t" -lt 5 ]; then
		echo "### SKIP $m $name $side $r (budget)" >>"$OUT/$m.log"
		say "$m $name $side round $r: skipped, budget spent"
		return 99
	fi
	if [ "$m" = openmpi ]; then extra=("${XENV_openmpi[@]}"); else extra=("${XENV_mpich[@]}"); fi
	{
		echo "### BEGIN $m $name $side $r"
		printf '+'; printf ' %q' "${extra[@]}" "$@"; echo
	} >>"$OUT/$m.log"
	printf '%s %s %s %s:' "$m" "$name" "$side" "$r" >>"$RAW/commands"
	printf ' %q' "${extra[@]}" "$@" >>"$RAW/commands"
	echo >>"$RAW/commands"
	t0=$(date +%s.%N)
	env -i "${ENV[@]}" "${extra[@]}" timeout -k 5 "$t" "$@" >"$RAW/$m.$name.$side.$r" 2>&1 </dev/null
	rc=$?
	t1=$(date +%s.%N)
	cat "$RAW/$m.$name.$side.$r" >>"$OUT/$m.log"
	local w
	w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	echo "### END $m $name $side $r rc=$rc wall=$w" >>"$OUT/$m.log"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "### TIMEOUT after ${t}s" >>"$OUT/$m.log"
		cleanup_strays >>"$OUT/$m.log" 2>&1
	fi
	if [ -n "${J:-}" ] && [ -s "$J" ]; then
		sed "s/^{/{\"_mpi\":\"$m\",\"_step\":\"$name\",\"_side\":\"$side\",\"_round\":$r,/" "$J" >>"$OUT/$m.jsonl"
	fi
	say "$m $name $side round $r: rc=$rc wall=${w}s"
	return "$rc"
}

setenv() { # mpi: ENV for that MPI
	if [ "$1" = openmpi ]; then ENV=("${ENV_openmpi[@]}"); else ENV=("${ENV_mpich[@]}"); fi
}

# Hello probe: a 2-rank mpibench PingPong to 1 MiB (eager, rendezvous, single
# copy) under each setting in turn; the first that passes is kept.
ok=()
for m in $MPIS; do
	setenv "$m"
	: >"$OUT/$m.log"
	: >"$OUT/$m.jsonl"
	echo "== $m"
	echo "which mpirun: $(env -i "${ENV[@]}" sh -c 'command -v mpirun mpiexec.hydra' | tr '\n' ' ')"
	echo "ldd mpibench-$m:"
	env -i "${ENV[@]}" ldd "$B/bin/mpibench-$m" | grep -E 'mpi|pal|rte|ucp|ucs|hwloc|stdc|not found' | sed 's/^/  /'
	for p in IMB-MPI1 osu_latency; do
		env -i "${ENV[@]}" ldd "$B/peers/$m/$p" | grep -E 'not found|stdc' | sed "s/^/  $p: /"
	done
	if [ "$m" = openmpi ]; then
		env -i "${ENV[@]}" "$O/bin/mpirun" --version 2>&1 | head -n 1
		sets=("${OMPI_SETS[@]}")
	else
		env -i "${ENV[@]}" "$M/bin/mpiexec.hydra" --version 2>&1 | grep -E 'Version|Release Date' | head -n 2
		sets=("${MPICH_SETS[@]}")
	fi
	good=
	i=0
	for s in "${sets[@]}"; do
		i=$((i + 1))
		[ "$i" -ge "${FIRST_SET:-1}" ] || continue
		use_set "$m" "$s"
		mapfile -t L < <(launcher "$m" 2)
		J=$RAW/$m.hello.$i.jsonl
		if step "$m" hello A "$i" 45 "${L[@]}" "$B/bin/mpibench-$m" mpi1 PingPong -msglen "$W/hello.msglen" -json "$J"; then
			good=$s
			break
		fi
		echo "$m: setting '$s' failed (see $m.log), trying the next"
	done
	J=
	if [ -z "$good" ]; then
		say "$m: SKIPPED: no setting passed the 2-rank hello (see $OUT/$m.log)"
		tail -n 30 "$OUT/$m.log"
		continue
	fi
	say "$m: using setting '$good'"
	if [ "$m" = openmpi ]; then SET_openmpi=$good; else SET_mpich=$good; fi
	ok+=("$m")
done
echo "working MPIs: ${ok[*]:-none}"
echo "settings (bind;flags;env): openmpi '${SET_openmpi:-}' mpich '${SET_mpich:-}'; cores $ncpu, np 2 and $NP_SCALE$([ $over = 1 ] && echo ", np $NP_SCALE oversubscribed, unbound")"

pair() { # mpi name round cap [A cmd] -- [B cmd]; A mpibench, B the peer; A first in odd rounds
	local m=$1 name=$2 r=$3 cap=$4 a=() b=()
	shift 4
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	if ((r % 2)); then
		J=$RAW/$m.$name.$r.jsonl step "$m" "$name" A "$r" "$cap" "${a[@]}"
		J= step "$m" "$name" B "$r" "$cap" "${b[@]}"
	else
		J= step "$m" "$name" B "$r" "$cap" "${b[@]}"
		J=$RAW/$m.$name.$r.jsonl step "$m" "$name" A "$r" "$cap" "${a[@]}"
	fi
}

# drivers mpi round launcher...: osu_bibw at 8 B by mpibench, OSU, mpibench's
# kernel from a C main (osudriver) and from a bare Go main (gokernel), the
# order rotating with the round; in round 1 also imbdriver's PingPing and
# Bcast samples in one process (lab/modes.sh's part 1).
drivers() {
	local m=$1 r=$2 i k
	shift 2
	local progs=(mb osu cdrv godrv) pre gpre
	! has coll || progs+=(osu+ cdrv+ godrv+)
	if [ "$m" = openmpi ]; then
		pre=(-x "LD_PRELOAD=$B/bin/libprecoll-$m.so") gpre=(-x GOKERNEL_PRE=coll)
	else
		pre=(-genv LD_PRELOAD "$B/bin/libprecoll-$m.so") gpre=(-genv GOKERNEL_PRE coll)
	fi
	for i in "${!progs[@]}"; do
		k=${progs[$(((i + r) % ${#progs[@]}))]}
		case $k in
		osu+) J= step "$m" bibw8 osu+coll "$r" 30 "$@" "${pre[@]}" "$B/peers/$m/osu_bibw" -m 8:8 ;;
		cdrv+) J= step "$m" bibw8 cdrv+coll "$r" 30 "$@" "${pre[@]}" "$B/bin/osudriver-$m" bibw 8 ;;
		godrv+) J= step "$m" bibw8 godrv+coll "$r" 30 "$@" "${gpre[@]}" "$B/bin/gokernel-$m" bibw 8 ;;
		mb) J= step "$m" bibw8 mb "$r" 30 "$@" "$B/bin/mpibench-$m" osu osu_bibw -m 8:8 ;;
		osu) J= step "$m" bibw8 osu "$r" 30 "$@" "$B/peers/$m/osu_bibw" -m 8:8 ;;
		cdrv) J= step "$m" bibw8 cdrv "$r" 30 "$@" "$B/bin/osudriver-$m" bibw 8 ;;
		godrv) J= step "$m" bibw8 godrv "$r" 30 "$@" "$B/bin/gokernel-$m" bibw 8 ;;
		esac
	done
	if [ "$r" = 1 ]; then
		# shellcheck disable=SC2046
		J= step "$m" modes pingping "$r" 30 "$@" "$B/bin/imbdriver-$m" PingPing $(printf '8 %.0s' $(seq 40))
		# shellcheck disable=SC2046
		J= step "$m" modes bcast "$r" 30 "$@" "$B/bin/imbdriver-$m" Bcast $(printf '4194304 %.0s' $(seq 16))
	fi
}

# full mpi round launcher...: mpi1's default run of PingPong PingPing Bcast
# Reduce (IMB 3.0's lengths, 0 B to 4 MiB) against IMB-MPI1's, interleaved.
full() {
	local m=$1 r=$2
	shift 2
	pair "$m" full "$r" 90 "$@" "$B/bin/mpibench-$m" mpi1 PingPong PingPing Bcast Reduce -json "$RAW/$m.full.$r.jsonl" \
		-- "$@" "$B/peers/$m/IMB-MPI1" PingPong PingPing Bcast Reduce "${imb[@]}" "${imb1[@]}"
}

# fullw is full like with like: mpibench mpi1 -imb 2021 (each collective
# call timed alone, IMB 2021's per-length warm-up) with IMB-MPI1's flags.
fullw() {
	local m=$1 r=$2
	shift 2
	pair "$m" fullw "$r" 90 "$@" "$B/bin/mpibench-$m" mpi1 -imb 2021 PingPong PingPing Bcast Reduce "${imb[@]}" "${imb1[@]}" \
		-json "$RAW/$m.fullw.$r.jsonl" -- "$@" "$B/peers/$m/IMB-MPI1" PingPong PingPing Bcast Reduce "${imb[@]}" "${imb1[@]}"
}

has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

# pairs mpi round launcher...: mpibench osu osu_bibw and osu_latency against
# OSU's binaries, mpi1 PingPong PingPing against IMB-MPI1's, interleaved.
pairs() {
	local m=$1 r=$2 mb=$B/bin/mpibench-$1 peer=$B/peers/$1
	shift 2
	pair "$m" osu_bibw "$r" 60 "$@" "$mb" osu osu_bibw -m 8:65536 -json "$RAW/$m.osu_bibw.$r.jsonl" \
		-- "$@" "$peer/osu_bibw" -m 8:65536
	pair "$m" osu_latency "$r" 60 "$@" "$mb" osu osu_latency -m 8:65536 -json "$RAW/$m.osu_latency.$r.jsonl" \
		-- "$@" "$peer/osu_latency" -m 8:65536
	pair "$m" mpi1 "$r" 60 "$@" "$mb" mpi1 PingPong PingPing -msglen "$W/pp.msglen" -json "$RAW/$m.mpi1.$r.jsonl" \
		-- "$@" "$peer/IMB-MPI1" PingPong PingPing -msglen "$W/pp.msglen" "${imb[@]}" "${imb1[@]}"
}

# mem mpi round: the memory comparison at each of MEM_NP's process counts,
# mpibench first in odd rounds. The sampler runs under env -i as the
# launches do: its interpreter by absolute path (PY, found before).
mem() {
	local m=$1 r=$2 np L p
	if [ -z "$PY" ]; then
		say "$m mem round $r: skipped, no python3 for lab/rss.py"
		return
	fi
	for np in $MEM_NP; do
		mapfile -t L < <(launcher "$m" "$np")
		for p in $( ((r % 2)) && echo mb imb || echo imb mb); do
			if [ "$p" = mb ]; then
				J= step "$m" "mem$np" A "$r" 120 "$PY" "$root/lab/rss.py" -watch "$B/bin/mpibench-$m" \
					"$RAW/$m.mem.mb.np$np.$r.ticks" "${L[@]}" "$B/bin/mpibench-$m" mpi1 PingPong Allreduce
			else
				J= step "$m" "mem$np" B "$r" 120 "$PY" "$root/lab/rss.py" -watch "$B/peers/$m/IMB-MPI1" \
					"$RAW/$m.mem.imb.np$np.$r.ticks" "${L[@]}" "$B/peers/$m/IMB-MPI1" PingPong Allreduce "${imb[@]}" "${imb1[@]}"
			fi
		done
	done
}

round() { # r
	local r=$1 m L
	for m in "${ok[@]}"; do
		setenv "$m"
		mapfile -t L < <(launcher "$m" 2)
		! has pairs || pairs "$m" "$r" "${L[@]}"
		! has drivers || drivers "$m" "$r" "${L[@]}"
		! has full || full "$m" "$r" "${L[@]}"
		! has fullw || fullw "$m" "$r" "${L[@]}"
		! has mem || mem "$m" "$r"
	done
}

scale() {
	local m L rc
	for m in "${ok[@]}"; do
		setenv "$m"
		mapfile -t L < <(launcher "$m" "$NP_SCALE")
		J=$RAW/$m.scale.1.jsonl step "$m" scale A 1 120 "${L[@]}" "$B/bin/mpibench-$m" mpi1 Allreduce Bcast Alltoall \
			-npmin 2 -msglen "$W/scale.msglen" -json "$RAW/$m.scale.1.jsonl"
		rc=$?
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] && [ "$rc" -ne 99 ]; then
			# bound np NP_SCALE failed (fewer cores than hwloc can bind?): once more, oversubscribed and unbound
			eval "UNBOUND_$m=1"
			say "$m: scaling launch failed (rc=$rc): again unbound (and oversubscribed for Open MPI)"
			mapfile -t L < <(launcher "$m" "$NP_SCALE")
			J=$RAW/$m.scale.2.jsonl step "$m" scale A 2 120 "${L[@]}" "$B/bin/mpibench-$m" mpi1 Allreduce Bcast Alltoall \
				-npmin 2 -msglen "$W/scale.msglen" -json "$RAW/$m.scale.2.jsonl"
			rc=$?
			J= step "$m" scale B 2 120 "${L[@]}" "$B/peers/$m/IMB-MPI1" Allreduce Bcast Alltoall \
				-npmin 2 -msglen "$W/scale.msglen" "${imb[@]}" "${imb1[@]}"
			eval "UNBOUND_$m=0"
			continue
		fi
		J= step "$m" scale B 1 120 "${L[@]}" "$B/peers/$m/IMB-MPI1" Allreduce Bcast Alltoall \
			-npmin 2 -msglen "$W/scale.msglen" "${imb[@]}" "${imb1[@]}"
	done
}

finish() {
	say "done: $(($(date +%s) - t_start))s of ${BUDGET}s"
	echo "$ROUNDS $NP_SCALE ${ok[*]:-}" >"$RAW/meta"
	cp "$W/pp.msglen" "$W/scale.msglen" "$RAW/" 2>/dev/null
	tar czf "$OUT/raw.tar.gz" -C "$W" raw 2>/dev/null || echo "tar failed"
	ls -la "$OUT"
	rm -rf "$W"
	exec >&- 2>&-
	wait "$teepid" 2>/dev/null
}
trap finish EXIT

scaled=0
if [ ${#ok[@]} -gt 0 ]; then
	for r in $(seq 1 "$ROUNDS"); do
		# keep SCALE_RESERVE seconds a working MPI for the scaling launches while they are to come
		reserve=0
		[ "$r" -gt "$SCALE_AFTER" ] || reserve=$((${#ok[@]} * SCALE_RESERVE))
		[ "$reserve" -le $((BUDGET / 3)) ] || reserve=$((BUDGET / 3))
		if [ "$(left)" -lt $((reserve + 20)) ]; then
			say "round $r: not started, budget (left $(left)s, reserved ${reserve}s)"
			break
		fi
		say "round $r/$ROUNDS"
		round "$r"
		[ "$r" -ne "$SCALE_AFTER" ] || ! has scale || { say "scaling, np $NP_SCALE"; scale; scaled=1; }
	done
	[ "$scaled" = 1 ] || ! has scale || { say "scaling, np $NP_SCALE"; scale; }
fi
exit 0

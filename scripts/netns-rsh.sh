#!/bin/sh
# An ssh stand-in for the hosts of scripts/netns-hosts.sh: given
# "[options] HOST COMMAND...", it runs COMMAND with sh on HOST, that is in
# the network namespace HOST (or the one whose address is HOST) under a
# UTS namespace of its own with the hostname HOST. Options (ssh's -x, -q,
# -o X) are ignored. Open MPI uses it as --mca plm_rsh_agent, MPICH's
# hydra as -launcher ssh -launcher-exec.
while [ $# -gt 0 ]; do
	case "$1" in
	-o | -p | -l | -i) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "usage: netns-rsh.sh [options] HOST COMMAND..." >&2; exit 2; }
host=$1
shift
case "$host" in
10.77.0.[1-3]) host=mbh${host#10.77.0.} ;;
esac
case "$host" in
mbh[1-3]) ;;
*) echo "netns-rsh: unknown host $host" >&2; exit 255 ;;
esac
# like ssh: the words form one command line for the remote shell
exec ip netns exec "$host" unshare --uts sh -c 'hostname "$0" && eval "$1"' "$host" "$*"

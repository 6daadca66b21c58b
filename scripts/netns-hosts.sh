#!/usr/bin/env bash
# Builds a small "cluster" of hosts on this machine for testing mpibench
# across nodes: network namespaces mbh1..mbhN (N = MBH_HOSTS, 2 or 3,
# default 3), each with an interface mb0 (10.77.0.K/24) on a veth pair to a
# bridge that lives in a namespace of its own (mbhnet), so the root
# namespace's network is left alone. Every namespace gets its own
# /etc/netns/<ns>/hosts, which `ip netns exec` mounts over /etc/hosts, so
# the host names resolve there without touching the real /etc/hosts.
#
# A host is a network namespace plus a UTS namespace: `exec` and the rsh
# agent (scripts/netns-rsh.sh) run a command under `ip netns exec <ns>
# unshare --uts`, with the hostname set to the namespace's name, so that
# MPI_Get_processor_name differs from host to host.
#
#   netns-hosts.sh up            create the hosts (first tears down leftovers)
#   netns-hosts.sh down          remove them; idempotent
#   netns-hosts.sh exec H CMD..  run CMD on host H (e.g. mpirun on mbh1)
#   netns-hosts.sh hostfile      print an mpirun hostfile (one slot each)
#   netns-hosts.sh hosts         print the host names
#
# Needs root, iproute2 with veth and bridge support, and util-linux unshare.
set -euo pipefail

n=${MBH_HOSTS:-3}
case "$n" in 2 | 3) ;; *) echo "netns-hosts: MBH_HOSTS must be 2 or 3" >&2; exit 2 ;; esac
net=mbhnet
hosts=()
for ((i = 1; i <= n; i++)); do hosts+=("mbh$i"); done
all_hosts=(mbh1 mbh2 mbh3) # down removes every one, whatever MBH_HOSTS says

have() { ip netns list | awk '{print $1}' | grep -qx "$1"; }

# stop ends the processes still running in a namespace (orted, hydra
# proxies, ranks left over by a failed run), by pid.
stop() {
	local pids
	pids=$(ip netns pids "$1" 2>/dev/null || true)
	[ -n "$pids" ] || return 0
	kill $pids 2>/dev/null || true
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		pids=$(ip netns pids "$1" 2>/dev/null || true)
		[ -n "$pids" ] || return 0
		sleep 0.2
	done
	kill -9 $pids 2>/dev/null || true
}

down() {
	local h
	for h in "${all_hosts[@]}" "$net"; do
		if have "$h"; then
			stop "$h"
			ip netns del "$h"
		fi
		rm -rf "/etc/netns/$h"
	done
	# veth ends left in the root namespace by an interrupted `up`
	for h in "${all_hosts[@]}"; do
		ip link del "$h-br" 2>/dev/null || true
	done
	rmdir /etc/netns 2>/dev/null || true
}

up() {
	down
	ip netns add "$net"
	ip -n "$net" link set lo up
	ip -n "$net" link add mbbr type bridge
	ip -n "$net" link set mbbr up
	local i h hostsfile
	hostsfile=$(printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n'
		for ((i = 1; i <= n; i++)); do printf '10.77.0.%d\tmbh%d\n' "$i" "$i"; done)
	for ((i = 1; i <= n; i++)); do
		h=mbh$i
		ip netns add "$h"
		ip -n "$h" link set lo up
		ip link add "$h-br" type veth peer name mb0 netns "$h"
		ip link set "$h-br" netns "$net"
		ip -n "$net" link set "$h-br" master mbbr up
		ip -n "$h" addr add "10.77.0.$i/24" dev mb0
		ip -n "$h" link set mb0 up
		mkdir -p "/etc/netns/$h"
		printf '%s\n' "$hostsfile" >"/etc/netns/$h/hosts"
		echo "$h" >"/etc/netns/$h/hostname"
	done
	# wait until the bridge forwards on every port and every mb0 is up
	local st
	for _ in $(seq 50); do
		st=$(bridge -n "$net" link show 2>/dev/null | grep -c 'state forwarding' || true)
		if [ "$st" -eq "$n" ] && ! for ((i = 1; i <= n; i++)); do ip -n "mbh$i" -br link show mb0; done | grep -vq ' UP '; then
			return 0
		fi
		sleep 0.1
	done
	echo "netns-hosts: the bridge does not forward" >&2
	bridge -n "$net" link show >&2
	exit 1
}

case "${1:-}" in
up) up ;;
down) down ;;
exec)
	[ $# -ge 3 ] || { echo "usage: netns-hosts.sh exec HOST CMD [ARGS...]" >&2; exit 2; }
	h=$2
	shift 2
	have "$h" || { echo "netns-hosts: no host $h (run: netns-hosts.sh up)" >&2; exit 1; }
	exec ip netns exec "$h" unshare --uts sh -c 'hostname "$0" && exec "$@"' "$h" "$@"
	;;
hostfile) for h in "${hosts[@]}"; do echo "$h slots=1"; done ;;
hosts) echo "${hosts[@]}" ;;
*)
	echo "usage: netns-hosts.sh up|down|exec HOST CMD...|hostfile|hosts" >&2
	exit 2
	;;
esac

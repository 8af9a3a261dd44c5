#!/usr/bin/env bash
# LAN integration test: four network namespaces on one bridge (the bridge
# in a namespace of its own), private test addresses inside those
# namespaces only, no default route, nothing in the root namespace's
# network touched. One njet peer per namespace: the three joiners find the
# host's table by mDNS alone and the four play with bots to the end; all
# four logs must be identical and pass `njet verify`. Then the same with a
# joiner killed mid-round and restarted from its store, and with a
# joiner's link down for ten seconds.
#
# Run as root from the repository root: bash p2p/testdata/netns.sh
# Every wait is bounded; namespaces and processes are removed on every exit.
#
# NJET_BIN=path uses that binary instead of building one (to compare two
# builds); NETNS_SCENARIOS="game" runs only the named parts (listing, game,
# crash, link). After each game, the host's output gives the time of every
# whole round (from one deal's shuffle to the next, the last to the end).
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=p2p/testdata/netns-lib.sh
. p2p/testdata/netns-lib.sh
netns_need_root

P="njt$$"                      # prefix of every namespace
NET=10.213.77                  # private test range, inside the namespaces only
WORK=$(mktemp -d /tmp/njet-netns.XXXXXX)

cleanup() {
	local code=$?
	netns_cleanup
	if [ $code -ne 0 ]; then
		echo "netns.sh: FAILED (exit $code); logs:"
		for f in "$WORK"/*/out.txt; do
			[ -f "$f" ] && { echo "--- $f"; tail -n 25 "$f"; }
		done
	fi
	rm -rf "$WORK"
	exit $code
}
trap cleanup EXIT INT TERM

netns_build
netns_setup 4
echo "== namespaces $P-br ${NS[*]}"

# round_times SCENARIO: the host's whole rounds, from a deal's shuffle to
# the round's audited result, and all of them.
round_times() {
	awk '/ shuffling/ { t = $1; if (!first) first = $1 }
		/ round [0-9]+: points/ && t { sub(":", "", $3); printf "round %s: %.2f s\n", $3, $1 - t; last = $1 }
		END { if (first && last) printf "first shuffle to last result: %.2f s\n", last - first }' \
		"$WORK/$1-0/out.txt"
}

# check_scenario SCENARIO: all four exports identical and verified.
check_scenario() {
	local first
	first=$(sha256sum <"$WORK/$1-0/log.njetlog")
	for i in 0 1 2 3; do
		[ "$(sha256sum <"$WORK/$1-$i/log.njetlog")" = "$first" ] || { echo "$1: log $i differs from log 0"; return 1; }
		"$NJET" verify "$WORK/$1-$i/log.njetlog" | tail -n 1
	done
	echo "$1: four identical logs, each verified"
}

# scenario NAME ROUNDS DISTURB: host in ns 0, joiners by mDNS in 1-3; DISTURB
# runs while they play.
scenario() {
	local name=$1 rounds=$2 disturb=$3
	echo "== $name"
	start 0 "$WORK/$name-0" host --name "$name" --players 4 --bot random --rounds "$rounds" --linger 60s
	wait_for "$WORK/$name-0/out.txt" "waiting for players 1/4" 20
	if [ "$name" = game ]; then
		mkdir -p "$WORK/tables"
		ip netns exec "${NS[1]}" "$NJET" tables --wait 4s >"$WORK/tables/out.txt" 2>&1
		grep -- "+ table" "$WORK/tables/out.txt" || { echo "tables: nothing listed"; return 1; }
		echo "mDNS listing of a running table: $(grep -o 'after [0-9.]*s' "$WORK/tables/out.txt" | head -n 1) from the browse's start"
	fi
	for i in 1 2 3; do
		start "$i" "$WORK/$name-$i" join --bot random --wait 60s --linger 60s
	done
	$disturb "$name"
	for i in 0 1 2 3; do
		wait_pid "${PIDS[$i]}" 600 || { echo "$name: peer $i failed"; return 1; }
		PIDS[$i]=""
	done
	check_scenario "$name"
	round_times "$name"
}

none() { :; }

kill_joiner() {
	local dir="$WORK/$1-2"
	wait_for "$dir/out.txt" "shuffling" 60
	sleep 0.5
	echo "killing peer 2 (pid ${PIDS[2]})"
	kill -9 "${PIDS[2]}"
	wait "${PIDS[2]}" 2>/dev/null || true
	echo "restarting peer 2 from its store"
	start 2 "$dir" join --bot random --wait 60s --linger 60s
	wait_for "$dir/out.txt" "resuming table" 20
}

link_down() {
	local dir="$WORK/$1-3"
	wait_for "$dir/out.txt" "shuffling" 60
	echo "link of peer 3 down for 10s"
	ip -n "${NS[3]}" link set eth0 down
	sleep 10
	ip -n "${NS[3]}" link set eth0 up
	echo "link of peer 3 up"
}

# listing: the time from a host's start to its table being listed by a
# browser that was already looking (polled every 0.1 s).
listing() {
	echo "== listing"
	mkdir -p "$WORK/listing"
	ip netns exec "${NS[1]}" "$NJET" tables --wait 10s >"$WORK/listing/out.txt" 2>&1 &
	PIDS[1]=$!
	wait_for "$WORK/listing/out.txt" "looking for tables" 10
	local t0 t1
	t0=$(date +%s%N)
	start 0 "$WORK/listing-0" host --name listing --players 4 --bot random
	wait_for "$WORK/listing/out.txt" "+ table" 10
	t1=$(date +%s%N)
	echo "mDNS listing from the host's start: $(((t1 - t0) / 1000000)) ms"
	for i in 0 1; do
		kill -9 "${PIDS[$i]}" 2>/dev/null || true
		wait "${PIDS[$i]}" 2>/dev/null || true
		PIDS[$i]=""
	done
}

want() { [ -z "${NETNS_SCENARIOS:-}" ] || [[ " $NETNS_SCENARIOS " == *" $1 "* ]]; }
if want listing; then listing; fi
if want game; then scenario game 0 none; fi
if want crash; then scenario crash 3 kill_joiner; fi
if want link; then scenario link 3 link_down; fi
echo "netns.sh: PASS"

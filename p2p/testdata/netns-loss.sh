#!/usr/bin/env bash
# LAN test of devices that vanish for good, in network namespaces (see
# netns-lib.sh): every seat is played by a bot, each device is SIGKILLed at
# a chosen step and never restarted, and the remaining devices must finish
# the game with identical logs that `njet verify` accepts.
#
#   host    the host (seat 0, which also hosts no bot here) mid-round
#   shuffle a joiner during the shuffle; then a watcher joins (njet join
#           --watch) and must end with the players' log
#   lobby   a joiner whose claim is dropped in the lobby (its seat goes to
#           another device), then that device as soon as the table starts
#   two     two devices of five (Modern edition) at once, mid-round
#   partition the link of one device of four is down for 45 s from the
#           tricks on (longer than the patience: the table keeps the round
#           with the device's escrow, and alone the device takes the other
#           seats over); back, it follows the table, and all four finish
#           alike.
#           The others linger 60 s after the end: a device that comes back
#           after everyone else has left has nobody to follow
#   watcher_seat a joiner of three (Modern, 8 rounds) during the first shuffle; once the
#           table has played a round with a bot in its seat, a watcher
#           asks for that seat (njet join --watch --take SEAT --bot
#           random), plays it from a later round to the end and ends with
#           the players' log
#   lobby_seat two devices of three (Modern, 8 rounds), the third seat a
#           bot the host seated in the lobby (--bots 1); after a round a
#           watcher takes that seat (--take 2), plays it from a later
#           round to the end and ends with the players' log
#   tricks  a joiner of four (Classic; two of the others play with the
#           search bot) killed during the tricks of the first round: the
#           others take its seat over and the round goes on with its
#           cards, recovered from its escrow by the bot's host (no trick
#           lost, no redeal); prints what each remaining device
#           said of it, word for word, and what `njet verify` says
#   thegame three devices at a table of The Game Extreme with bots
#           (njet host --game thegame --extreme); device 2 is killed
#           mid-game: the other two take its seat over, deal the cards
#           not yet played again and finish
#
# For each, it prints how long the table stood still: the longest time a
# remaining device's store did not grow, from its last envelope before the
# loss to the game's last result (small metadata records such as a
# standing vote do not count as the table going on).
#
# Run as root from the repository root: bash p2p/testdata/netns-loss.sh
# NJET_BIN=path uses that binary; LOSS_SCENARIOS="host two" runs only the
# named ones; LOSS_ROUNDS (default 3) is the length of each game and
# LOSS_WAIT (default 300) bounds, in seconds, the wait for a remaining
# device to finish; LOSS_KEEP=dir keeps every device's files there.
# Exits non-zero if any scenario failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
. p2p/testdata/netns-lib.sh
netns_need_root

P="nl$$"
WORK=$(mktemp -d /tmp/njet-loss.XXXXXX)
ROUNDS=${LOSS_ROUNDS:-3}
WAIT=${LOSS_WAIT:-300}
FAILED=()

finish() {
	local code=$?
	netns_cleanup
	if [ $code -ne 0 ] || [ ${#FAILED[@]} -gt 0 ]; then
		for f in "$WORK"/*/out.txt; do
			[ -f "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
		done
	fi
	if [ -n "${LOSS_KEEP:-}" ]; then
		mkdir -p "$LOSS_KEEP" && cp -a "$WORK"/. "$LOSS_KEEP"/
	fi
	rm -rf "$WORK"
	exit $code
}
trap finish EXIT INT TERM

netns_build
netns_setup 5
echo "== namespaces $P-br ${NS[*]}"

JOIN=(join --bot random --wait 90s --linger 10s)

# host_table NAME PLAYERS EDITION: the host in namespace 0; sets CODE to
# its join code.
host_table() {
	start 0 "$WORK/$1-0" host --name "$1" --players "$2" --edition "$3" --bot random \
		--rounds "$ROUNDS" --linger 10s --wait 90s
	wait_for "$WORK/$1-0/out.txt" "join code" 20 || return 1
	CODE=$(grep -o 'join code [A-Z0-9-]*' "$WORK/$1-0/out.txt" | head -n 1 | awk '{print $3}')
}

# finish_table NAME T0 I...: the devices I finish and agree; prints the
# stillness seen by the first of them since T0, the time of the loss.
finish_table() {
	local name=$1 t0=$2 i dirs=()
	shift 2
	for i in "$@"; do
		if ! wait_pid "${PIDS[$i]}" "$WAIT"; then
			echo "$name: device $i did not finish (stuck or failed)"
			return 1
		fi
		PIDS[i]=""
		dirs+=("$WORK/$name-$i")
	done
	check_logs "${dirs[@]}" || return 1
	echo "$name: the table stood still $(standstill "$WORK/$name-$1/growth.txt" "$t0" "$WORK/$name-$1/out.txt")"
}

# lost: the time of the loss, now.
lost() { printf '%s' "$EPOCHREALTIME"; }

scen_host() {
	local t0
	host_table host 4 classic || return 1
	for i in 1 2 3; do start "$i" "$WORK/host-$i" "${JOIN[@]}" --code "$CODE"; done
	watch_growth "$WORK/host-1/njet.db" "$WORK/host-1/growth.txt"
	wait_for "$WORK/host-1/out.txt" "shuffling" 90 || return 1
	sleep 0.5
	echo "host: killing the host (device 0) mid-round"
	t0=$(lost)
	kill_peer 0
	finish_table host "$t0" 1 2 3
}

scen_shuffle() {
	local t0
	host_table shuffle 4 classic || return 1
	for i in 1 2 3; do start "$i" "$WORK/shuffle-$i" "${JOIN[@]}" --code "$CODE"; done
	watch_growth "$WORK/shuffle-0/njet.db" "$WORK/shuffle-0/growth.txt"
	wait_for "$WORK/shuffle-2/out.txt" "shuffling" 90 || return 1
	echo "shuffle: killing device 2 during the shuffle"
	t0=$(lost)
	kill_peer 2
	echo "shuffle: a watcher joins by the join code (device 4)"
	start 4 "$WORK/shuffle-4" join --watch --code "$CODE" --wait 30s
	finish_table shuffle "$t0" 0 1 3 4
}

scen_lobby() {
	local t0
	host_table lobby 4 classic || return 1
	start 1 "$WORK/lobby-1" "${JOIN[@]}" --code "$CODE"
	start 3 "$WORK/lobby-3a" "${JOIN[@]}" --code "$CODE"
	wait_for "$WORK/lobby-0/out.txt" "waiting for players 3/4" 60 || return 1
	echo "lobby: killing device 3 in the lobby, after its claim"
	kill_peer 3
	wait_for "$WORK/lobby-0/out.txt" "waiting for players 2/4" 30 || return 1
	start 2 "$WORK/lobby-2" "${JOIN[@]}" --code "$CODE"
	start 3 "$WORK/lobby-3" "${JOIN[@]}" --code "$CODE"
	watch_growth "$WORK/lobby-0/njet.db" "$WORK/lobby-0/growth.txt"
	wait_for "$WORK/lobby-3/out.txt" "plays seat" 60 || return 1
	echo "lobby: killing device 3 again as the table starts"
	t0=$(lost)
	kill_peer 3
	finish_table lobby "$t0" 0 1 2
}

scen_two() {
	local t0
	host_table two 5 modern || return 1
	for i in 1 2 3 4; do start "$i" "$WORK/two-$i" "${JOIN[@]}" --code "$CODE"; done
	watch_growth "$WORK/two-0/njet.db" "$WORK/two-0/growth.txt"
	wait_for "$WORK/two-1/out.txt" "shuffling" 90 || return 1
	sleep 0.5
	echo "two: killing devices 3 and 4 at once mid-round"
	t0=$(lost)
	kill -9 "${PIDS[3]}" "${PIDS[4]}" 2>/dev/null || true
	kill_peer 3
	kill_peer 4
	finish_table two "$t0" 0 1 2
}

scen_partition() {
	local t0
	start 0 "$WORK/partition-0" host --name partition --players 4 --edition classic --bot random \
		--rounds "$ROUNDS" --linger 60s --wait 90s
	wait_for "$WORK/partition-0/out.txt" "join code" 20 || return 1
	CODE=$(grep -o 'join code [A-Z0-9-]*' "$WORK/partition-0/out.txt" | head -n 1 | awk '{print $3}')
	# Devices 1 and 3 play with the search bot, so that the tricks last
	# seconds and the link goes down during them (then the table keeps
	# the round, recovering device 2's cards from its escrow, while
	# device 2 alone takes the other seats over in its own log).
	start 1 "$WORK/partition-1" join --bot search --wait 90s --linger 60s --code "$CODE"
	start 2 "$WORK/partition-2" join --bot random --wait 90s --linger 60s --code "$CODE"
	start 3 "$WORK/partition-3" join --bot search --wait 90s --linger 60s --code "$CODE"
	watch_growth "$WORK/partition-0/njet.db" "$WORK/partition-0/growth.txt"
	wait_for "$WORK/partition-1/out.txt" "tricks…" 90 || return 1
	echo "partition: the link of device 2 is down for 45 s"
	t0=$(lost)
	ip -n "${NS[2]}" link set eth0 down
	sleep 45
	ip -n "${NS[2]}" link set eth0 up
	finish_table partition "$t0" 0 1 2 3 || return 1
	echo "partition: device 2 said, once back:"
	grep -h -A1 'back with the table' "$WORK/partition-2/out.txt" | cut -d' ' -f2- | sed 's/^/  /' || true
}

scen_watcher_seat() {
	local t0 seat
	# Bots play a round in a second or so: eight rounds leave the claim
	# the time a table of people would give it.
	ROUNDS=8 host_table watcher_seat 3 modern || return 1
	for i in 1 2; do start "$i" "$WORK/watcher_seat-$i" "${JOIN[@]}" --code "$CODE"; done
	watch_growth "$WORK/watcher_seat-0/njet.db" "$WORK/watcher_seat-0/growth.txt"
	wait_for "$WORK/watcher_seat-2/out.txt" "shuffling" 90 || return 1
	seat=$(grep -o 'plays seat [0-9]*' "$WORK/watcher_seat-2/out.txt" | head -n 1 | awk '{print $3}')
	echo "watcher_seat: killing device 2 (seat $seat) during the shuffle"
	t0=$(lost)
	kill_peer 2
	wait_for "$WORK/watcher_seat-0/out.txt" "round 1: points" 150 || return 1
	echo "watcher_seat: a watcher (device 4) asks for seat $seat by the join code"
	start 4 "$WORK/watcher_seat-4" join --watch --code "$CODE" --take "$seat" --bot random --wait 30s --linger 10s
	finish_table watcher_seat "$t0" 0 1 4 || return 1
	grep -q "the table gave you seat $seat" "$WORK/watcher_seat-4/out.txt" &&
		grep -q "seat $seat was handed from its bot" "$WORK/watcher_seat-0/verify.txt" || {
		echo "watcher_seat: the watcher was not given seat $seat"
		return 1
	}
	echo "watcher_seat: the watcher took seat $seat and finished with the players' log"
}

scen_lobby_seat() {
	local t0
	# Three friends, two devices and a bot the host seats in the lobby
	# (seat 2, after the joiner's): nobody is lost, a fourth device comes.
	start 0 "$WORK/lobby_seat-0" host --name lobby_seat --players 3 --bots 1 --edition modern --bot random \
		--rounds 8 --linger 10s --wait 90s
	wait_for "$WORK/lobby_seat-0/out.txt" "join code" 20 || return 1
	CODE=$(grep -o 'join code [A-Z0-9-]*' "$WORK/lobby_seat-0/out.txt" | head -n 1 | awk '{print $3}')
	start 1 "$WORK/lobby_seat-1" "${JOIN[@]}" --code "$CODE"
	watch_growth "$WORK/lobby_seat-0/njet.db" "$WORK/lobby_seat-0/growth.txt"
	wait_for "$WORK/lobby_seat-0/out.txt" "round 1: points" 150 || return 1
	echo "lobby_seat: a watcher (device 4) asks for seat 2, the host's lobby bot, by the join code"
	t0=$(lost)
	start 4 "$WORK/lobby_seat-4" join --watch --code "$CODE" --take 2 --bot random --wait 30s --linger 10s
	finish_table lobby_seat "$t0" 0 1 4 || return 1
	grep -q "the table gave you seat 2" "$WORK/lobby_seat-4/out.txt" &&
		grep -q "seat 2 was handed from its bot" "$WORK/lobby_seat-0/verify.txt" || {
		echo "lobby_seat: the watcher was not given seat 2"
		return 1
	}
	echo "lobby_seat: the watcher took the lobby bot's seat and finished with the players' log"
}

scen_thegame() {
	local t0
	start 0 "$WORK/thegame-0" host --game thegame --extreme --name thegame --players 3 --bot coop \
		--linger 10s --wait 90s
	wait_for "$WORK/thegame-0/out.txt" "join code" 20 || return 1
	CODE=$(grep -o 'join code [A-Z0-9-]*' "$WORK/thegame-0/out.txt" | head -n 1 | awk '{print $3}')
	for i in 1 2; do start "$i" "$WORK/thegame-$i" join --bot coop --wait 90s --linger 10s --code "$CODE"; done
	watch_growth "$WORK/thegame-0/njet.db" "$WORK/thegame-0/growth.txt"
	wait_for "$WORK/thegame-2/out.txt" "plays seat" 90 || return 1
	# The keys, the three shuffles (44 kB each) and the deal come first,
	# about 145 kB of log: mid-game is some twenty plays and draws later.
	wait_size "$WORK/thegame-0/njet.db" 160000 60 || return 1
	echo "thegame: killing device 2 mid-game"
	t0=$(lost)
	kill_peer 2
	finish_table thegame "$t0" 0 1 || return 1
	local seq
	seq=$(grep -o 'voided: table: seat [0-9]* failed the silent check at seq [0-9]*' "$WORK/thegame-0/verify.txt" |
		head -n 1 | awk '{print $NF}')
	[ -n "$seq" ] || { echo "thegame: no takeover in the log"; return 1; }
	[ "$seq" -ge 12 ] || { echo "thegame: the takeover at seq $seq came before the play"; return 1; }
	echo "thegame: device 2's seat taken over at seq $seq, mid-game"
}

scen_tricks() {
	local t0 i
	host_table tricks 4 classic || return 1
	# Devices 1 and 3 play with the search bot, a fifth of a second a
	# card: random bots alone play a round's tricks, reveals and audit in
	# a quarter of a second, less than a kill takes to follow a printed
	# line on a busy machine.
	start 1 "$WORK/tricks-1" "${JOIN[@]}" --bot search --code "$CODE"
	start 2 "$WORK/tricks-2" "${JOIN[@]}" --code "$CODE"
	start 3 "$WORK/tricks-3" "${JOIN[@]}" --bot search --code "$CODE"
	watch_growth "$WORK/tricks-0/njet.db" "$WORK/tricks-0/growth.txt"
	# Each device prints "tricks…" when the first card of a deal is due
	# in its log. Device 2 is killed the moment another device says so:
	# that device then holds every envelope device 2 posted before the
	# first card, so the table has them all and the round can go on.
	# (Device 2's own "tricks…" may come before its last envelope before
	# the first card has left it.) The kill follows the line, not the
	# next poll.
	local victim=${PIDS[2]}
	(
		grep -m 1 -q "tricks…" < <(tail --pid="$victim" -q -n +1 -f \
			"$WORK/tricks-0/out.txt" "$WORK/tricks-1/out.txt" "$WORK/tricks-3/out.txt" 2>/dev/null)
		kill -9 "$victim" 2>/dev/null
	) &
	local killer=$!
	wait_pid "$killer" 120 || { echo "tricks: device 2 was not killed at the tricks"; kill "$killer" 2>/dev/null; return 1; }
	echo "tricks: killed device 2 during the tricks"
	t0=$(lost)
	kill_peer 2
	finish_table tricks "$t0" 0 1 3 || return 1
	echo "tricks: what the other devices said, word for word:"
	for i in 0 1 3; do
		grep -E "left the table" "$WORK/tricks-$i/out.txt" | cut -d' ' -f2- | sed "s/^/  device $i: /"
	done
	echo "tricks: what njet verify says:"
	grep -E "a round was (kept|voided)" "$WORK/tricks-0/verify.txt" | sed "s/^/  /"
	grep -q "a round was kept" "$WORK/tricks-0/verify.txt" || {
		echo "tricks: the round was not kept"
		return 1
	}
	! grep -q "a round was voided" "$WORK/tricks-0/verify.txt" || {
		echo "tricks: a round was voided"
		return 1
	}
}

# wait_size FILE BYTES SECONDS: until FILE holds at least BYTES, or fail.
wait_size() {
	local n=$(($3 * 10))
	while [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -lt "$2" ]; do
		n=$((n - 1))
		[ $n -gt 0 ] || { echo "timed out after $3s waiting for $1 to reach $2 bytes"; return 1; }
		sleep 0.05
	done
}

want() { [ -z "${LOSS_SCENARIOS:-}" ] || [[ " $LOSS_SCENARIOS " == *" $1 "* ]]; }
for s in host shuffle lobby two partition watcher_seat lobby_seat tricks thegame; do
	want "$s" || continue
	echo "== $s"
	t=$SECONDS
	if ! "scen_$s"; then
		FAILED+=("$s")
	fi
	echo "$s: $((SECONDS - t)) s in all"
	netns_kill_all
done
if [ ${#FAILED[@]} -gt 0 ]; then
	echo "netns-loss.sh: FAILED: ${FAILED[*]}"
	exit 1
fi
echo "netns-loss.sh: PASS"

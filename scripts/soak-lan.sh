#!/usr/bin/env bash
# Soak test of LAN tables in network namespaces (p2p/testdata/netns-lib.sh):
# whole games in a row, every seat played by a bot, each game disturbed as
# a seeded random draw says — a device killed for good (the host too), a
# device killed and restarted from its store, a device's link dropped for
# a while, two devices killed at once. The devices that are not killed for
# good must finish every game with identical logs that `njet verify`
# accepts. At the end it prints the figures: games, stuck tables (a
# device that did not finish within the bounded wait), games in which a
# device failed (it stopped with an error, e.g. a halted round), forks
# (logs that differ), verify failures, and the longest standstill.
#
# Run as root from the repository root: bash scripts/soak-lan.sh
#   SOAK_GAMES   number of games (default 30)
#   SOAK_SEED    seed of the draws (default 1); the same seed draws the
#                same disturbances (timings on the network still vary)
#   SOAK_ROUNDS  rounds per game (default 5; 0: the edition's whole game)
#   SOAK_WAIT    bound, in seconds, on each device's game (default 240)
#   SOAK_LINGER  how long a finished device serves the log (default 30s)
#   SOAK_DIR     keep each game's outputs and logs there (default: removed)
#   NJET_BIN     use that binary instead of building one
# Exits non-zero if any game was stuck, failed, forked or failed to verify.
set -euo pipefail
cd "$(dirname "$0")/.."
. p2p/testdata/netns-lib.sh
netns_need_root

P="sk$$"
WORK=$(mktemp -d /tmp/njet-soak.XXXXXX)
GAMES=${SOAK_GAMES:-30}
SEED=${SOAK_SEED:-1}
ROUNDS=${SOAK_ROUNDS:-5}
WAIT=${SOAK_WAIT:-240}
# A finished device serves the log this long to members still catching up:
# a device whose link comes back after the others finished needs it.
LINGER=${SOAK_LINGER:-30s}

finish() {
	local code=$?
	netns_cleanup
	if [ -n "${SOAK_DIR:-}" ]; then
		mkdir -p "$SOAK_DIR" && cp -r "$WORK"/g* "$SOAK_DIR"/ 2>/dev/null || true
	fi
	rm -rf "$WORK"
	exit $code
}
trap finish EXIT INT TERM

netns_build
netns_setup 5
echo "== namespaces $P-br ${NS[*]}; $GAMES games, seed $SEED, $ROUNDS rounds each"

stuck=0 failed=0 forks=0 unverified=0 played=0
stills=()
RANDOM=$SEED

# draw N: sets D to a number in [0, N) from the seeded draws (in this
# shell: a subshell would not advance them).
draw() { D=$((RANDOM % $1)); }

# game G: one game, disturbed as drawn; sets RESULT.
game() {
	local g=$1 dir="$WORK/g$g" players edition i t0="" events="" code
	local gone=() touched=() survivors=() dirs=()
	draw 3
	players=$((3 + D))
	edition=classic
	draw 2
	if [ "$players" = 5 ] || [ "$D" = 1 ]; then edition=modern; fi
	mkdir -p "$dir"
	start 0 "$dir/d0" host --name "g$g" --players "$players" --edition "$edition" --bot random \
		--rounds "$ROUNDS" --linger "$LINGER" --wait 60s
	if ! wait_for "$dir/d0/out.txt" "join code" 20; then RESULT="host did not start"; return 1; fi
	CODE=$(grep -o 'join code [A-Z0-9-]*' "$dir/d0/out.txt" | head -n 1 | awk '{print $3}')
	for ((i = 1; i < players; i++)); do
		start "$i" "$dir/d$i" join --bot random --code "$CODE" --wait 60s --linger "$LINGER"
	done
	for ((i = 0; i < players; i++)); do
		watch_growth "$dir/d$i/njet.db" "$dir/d$i/growth.txt"
	done
	if ! wait_for "$dir/d0/out.txt" "shuffling" 60; then RESULT="the table did not start"; return 1; fi

	# The disturbance: one of none, kill, restart, link, two.
	local kind victim other pause
	draw 5
	kind=$D
	draw "$players"
	victim=$D
	draw 40
	pause=$((D / 10)).$((D % 10))
	sleep "$pause"
	case $kind in
	0) events="undisturbed" ;;
	1)
		events="device $victim killed for good at +${pause}s"
		t0=$(printf '%s' "$EPOCHREALTIME")
		kill_peer "$victim"
		gone+=("$victim")
		;;
	2)
		draw 10
		local down=$((1 + D))
		events="device $victim killed at +${pause}s, restarted ${down}s later"
		t0=$(printf '%s' "$EPOCHREALTIME")
		kill_peer "$victim"
		sleep "$down"
		if grep -q "the game is over" "$dir/d$victim/out.txt"; then
			events="device $victim killed at +${pause}s after its game was over"
			# Not restarted: nothing of it is waited for.
			gone+=("$victim")
		elif [ "$victim" = 0 ]; then
			start 0 "$dir/d0" host --name "g$g" --players "$players" --edition "$edition" --bot random \
				--rounds "$ROUNDS" --linger "$LINGER" --wait 60s
		else
			start "$victim" "$dir/d$victim" join --bot random --code "$CODE" --wait 60s --linger "$LINGER"
		fi
		touched+=("$victim")
		;;
	3)
		draw 49
		local down=$((2 + D))
		events="link of device $victim down for ${down}s at +${pause}s"
		t0=$(printf '%s' "$EPOCHREALTIME")
		ip -n "${NS[$victim]}" link set eth0 down
		sleep "$down"
		ip -n "${NS[$victim]}" link set eth0 up
		touched+=("$victim")
		;;
	4)
		if [ "$players" -lt 4 ]; then
			events="undisturbed (two kills need 4 players)"
		else
			draw $((players - 1))
			other=$(((victim + 1 + D) % players))
			events="devices $victim and $other killed for good at once at +${pause}s"
			t0=$(printf '%s' "$EPOCHREALTIME")
			kill -9 "${PIDS[$victim]}" "${PIDS[$other]}" 2>/dev/null || true
			kill_peer "$victim"
			kill_peer "$other"
			gone+=("$victim" "$other")
		fi
		;;
	esac
	for ((i = 0; i < players; i++)); do
		[[ " ${gone[*]:-} " == *" $i "* ]] || survivors+=("$i")
	done
	RESULT="$players players ($edition), $events"
	code=0
	local deadline=$((SECONDS + WAIT)) stuckon=() failedon=()
	for i in "${survivors[@]}"; do
		local status=0
		wait_pid "${PIDS[$i]}" "$((deadline > SECONDS ? deadline - SECONDS : 1))" >/dev/null || status=$?
		case $status in
		0) ;;
		124) stuckon+=("$i"); kill_peer "$i"; code=1 ;;
		*) failedon+=("$i (exit $status: $(tail -n 1 "$dir/d$i/out.txt" | cut -d' ' -f2- | cut -c1-160))"); code=1 ;;
		esac
		PIDS[i]=""
		dirs+=("$dir/d$i")
	done
	if [ ${#stuckon[@]} -gt 0 ]; then
		stuck=$((stuck + 1))
		RESULT="$RESULT: STUCK (devices ${stuckon[*]} did not finish within ${WAIT}s)"
	fi
	if [ ${#failedon[@]} -gt 0 ]; then
		failed=$((failed + 1))
		RESULT="$RESULT: FAILED (device ${failedon[*]})"
	fi
	[ $code = 0 ] || return 1
	local verdict
	verdict=$(check_logs "${dirs[@]}") || code=$?
	case $code in
	0) ;;
	2) forks=$((forks + 1)); RESULT="$RESULT: FORK ($verdict)"; return 1 ;;
	*) unverified=$((unverified + 1)); RESULT="$RESULT: NOT VERIFIED ($verdict)"; return 1 ;;
	esac
	RESULT="$RESULT: ${#dirs[@]} identical verified logs"
	if [ -n "$t0" ]; then
		# The standstill as an undisturbed survivor saw it.
		for i in "${survivors[@]}"; do
			[[ " ${touched[*]:-} " == *" $i "* ]] && continue
			local still
			still=$(standstill "$dir/d$i/growth.txt" "$t0" "$dir/d$i/out.txt")
			RESULT="$RESULT, stood still $still"
			if [[ $still == [0-9]* ]]; then stills+=("${still%% *}"); fi
			break
		done
	fi
}

for ((g = 1; g <= GAMES; g++)); do
	t=$SECONDS
	RESULT=""
	game "$g" || true
	played=$((played + 1))
	echo "game $g: $RESULT ($((SECONDS - t)) s)"
	netns_kill_all
	for i in 0 1 2 3 4; do ip -n "${NS[$i]}" link set eth0 up 2>/dev/null || true; done
done

max=0
for s in "${stills[@]:-}"; do
	[ -n "$s" ] && max=$(awk -v a="$max" -v b="$s" 'BEGIN { print (b > a) ? b : a }')
done
echo "soak: $played games, $stuck stuck, $failed with a device that failed, $forks forks, $unverified verify failures;" \
	"${#stills[@]} losses timed, longest standstill $max s"
[ $((stuck + failed + forks + unverified)) = 0 ]

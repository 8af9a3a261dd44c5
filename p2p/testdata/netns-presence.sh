#!/usr/bin/env bash
# LAN test of patience for people, not for devices, in network namespaces
# (see netns-lib.sh). Three devices at a Classic table of one round: the
# host and one joiner with bots, and Ada, a person at the terminal (njet
# join --player Ada, her typing fed through a pipe).
#
#   think  Ada types nothing for THINK seconds (default 300) at her first
#          question. Her device is there all along and announces itself:
#          the table waits, nobody votes, no bot takes her seat. Then she
#          answers, the game goes on and ends; the logs agree, `njet
#          verify` accepts them and names no voided round.
#   kill   Ada's device (a bot plays her seat there) is SIGKILLed during
#          the first shuffle (bots are quick: the tricks may have begun).
#          Once the patience is over the others take her seat over; what
#          each of them printed from the kill on is shown word for word,
#          and must say in plain words that her device left the table
#          ("Ada's device has left the table; a bot plays that seat now."
#          when the round is dealt again), never a check or a seq.
#
# Run as root from the repository root: bash p2p/testdata/netns-presence.sh
# NJET_BIN=path uses that binary; PRESENCE_SCENARIOS="kill" runs only the
# named ones; PRESENCE_THINK (default 300) is the think in seconds. Every
# wait is bounded; exits non-zero if any scenario failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
. p2p/testdata/netns-lib.sh
netns_need_root

P="np$$"
WORK=$(mktemp -d /tmp/njet-presence.XXXXXX)
THINK=${PRESENCE_THINK:-300}
FAILED=()

finish() {
	local code=$?
	exec 7>&- 2>/dev/null || true
	netns_cleanup
	if [ $code -ne 0 ] || [ ${#FAILED[@]} -gt 0 ]; then
		for f in "$WORK"/*/out.txt; do
			[ -f "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
		done
	fi
	rm -rf "$WORK"
	exit $code
}
trap finish EXIT INT TERM

netns_build
netns_setup 3
echo "== namespaces $P-br ${NS[*]}"

# host_table NAME: the host in namespace 0, a bot in its seat; sets CODE.
host_table() {
	start 0 "$WORK/$1-0" host --name "$1" --players 3 --edition classic --bot random \
		--rounds 1 --linger 10s --wait 90s
	wait_for "$WORK/$1-0/out.txt" "join code" 20 || return 1
	CODE=$(grep -o 'join code [A-Z0-9-]*' "$WORK/$1-0/out.txt" | head -n 1 | awk '{print $3}')
}

# start_person I DIR FIFO ARGS...: as start, with the device's input read
# from FIFO (held open by this script on descriptor 7).
start_person() {
	local i=$1 dir=$2 fifo=$3
	shift 3
	mkdir -p "$dir"
	ip netns exec "${NS[$i]}" "$NJET" "$@" --data "$dir" --export "$dir/log.njetlog" <"$fifo" \
		> >(stamp >>"$dir/out.txt") 2>&1 &
	PIDS[i]=$!
}

# finish_all NAME I...: the devices I finish, their logs agree and verify.
finish_all() {
	local name=$1 i dirs=()
	shift
	for i in "$@"; do
		if ! wait_pid "${PIDS[$i]}" 300; then
			echo "$name: device $i did not finish (stuck or failed)"
			return 1
		fi
		PIDS[i]=""
		dirs+=("$WORK/$name-$i")
	done
	check_logs "${dirs[@]}"
}

# answer FILE: in the background, answer every question in FILE (a
# person's stamped screen) with a choice it shows (the first, or the next
# one after a refusal), through descriptor 7, until netns_kill_all.
answer() {
	local file=$1
	(
		seen=0 tries=0 size=0
		while :; do
			sleep 0.3
			now=$(stat -c %s "$file" 2>/dev/null || echo 0)
			[ "$now" != "$size" ] || continue
			size=$now
			n=$(grep -c "Your turn" "$file" 2>/dev/null || true)
			if [ "$n" -gt "$seen" ]; then
				seen=$n tries=0
			elif ! tail -n 3 "$file" | grep -Eq "not a choice|choose again" || [ "$tries" -ge 30 ]; then
				continue
			fi
			# The choices after the question (cards, teams), else the
			# fields of the board above it.
			pick=$(awk -v k="$tries" '
				function collect(s, v) {
					while (match(s, /(^|[ \t])[0-9]+\)/)) {
						v = substr(s, RSTART, RLENGTH); gsub(/[^0-9]/, "", v)
						c[++n] = v; s = substr(s, RSTART + RLENGTH)
					}
				}
				{ l[NR] = $0 }
				/Your turn/ { t = NR }
				END {
					for (i = t; i <= NR; i++) collect(l[i])
					for (i = (t > 10 ? t - 10 : 1); i < t; i++) collect(l[i])
					if (n > 0) print c[k % n + 1]
				}' "$file")
			tries=$((tries + 1))
			[ -z "$pick" ] || echo "$pick" >&7 || exit 0
		done
	) &
	WATCHERS+=($!)
}

# since FILE T: the lines of a stamped FILE from time T on, unstamped.
since() { awk -v t="$2" '$1 >= t { sub(/^[^ ]+ /, ""); print }' "$1"; }

scen_think() {
	local fifo="$WORK/ada.in" t0 t1
	mkfifo "$fifo"
	exec 7<>"$fifo"
	host_table think || return 1
	start 1 "$WORK/think-1" join --bot random --wait 90s --linger 10s --code "$CODE"
	start_person 2 "$WORK/think-2" "$fifo" join --player Ada --wait 90s --linger 10s --code "$CODE"
	# Her first question: the Njet phase asks her to block a field.
	wait_for "$WORK/think-2/out.txt" "> |[Cc]hoose|[Bb]lock" 120 || return 1
	t0=$EPOCHREALTIME
	echo "think: Ada is asked; she types nothing for ${THINK}s"
	sleep "$THINK"
	t1=$EPOCHREALTIME
	if since "$WORK/think-0/out.txt" "$t0" | grep -Eiq "left the table|voided|violation"; then
		echo "think: the host gave up on Ada while she thought:"
		since "$WORK/think-0/out.txt" "$t0"
		return 1
	fi
	if since "$WORK/think-2/out.txt" "$t0" | grep -Eiq "let a bot play|a bot hosted by|away too long"; then
		echo "think: Ada's device was asked about or lost her seat while she thought:"
		since "$WORK/think-2/out.txt" "$t0"
		return 1
	fi
	echo "think: after $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }') s the table still waits for her: no device voted, asked about her or seated a bot"
	echo "think: Ada answers now, and then every question with a choice shown"
	answer "$WORK/think-2/out.txt"
	finish_all think 0 1 2 || return 1
	if grep -q "voided" "$WORK/think-0/verify.txt"; then
		echo "think: a round was voided:"
		cat "$WORK/think-0/verify.txt"
		return 1
	fi
	grep -q "round 1" "$WORK/think-0/verify.txt" || { echo "think: no round verified"; return 1; }
	echo "think: the game ended after the think, no round voided"
}

scen_kill() {
	local t0 i
	host_table kill || return 1
	start 1 "$WORK/kill-1" join --bot random --wait 90s --linger 10s --code "$CODE"
	start 2 "$WORK/kill-2" join --bot random --player Ada --wait 90s --linger 10s --code "$CODE"
	wait_for "$WORK/kill-2/out.txt" "shuffling" 90 || return 1
	echo "kill: killing Ada's device (device 2) during the shuffle"
	t0=$EPOCHREALTIME
	kill_peer 2
	finish_all kill 0 1 || return 1
	for i in 0 1; do
		echo "kill: device $i printed from the kill on:"
		since "$WORK/kill-$i/out.txt" "$t0" | sed 's/^/    /'
		# The round is dealt again ("Ada's device has left the table; a
		# bot plays that seat now.") or, once the tricks have begun, goes
		# on from the escrow: either way it says the device left.
		if ! since "$WORK/kill-$i/out.txt" "$t0" | grep -Eq "left the table"; then
			echo "kill: device $i did not say that Ada's device left"
			return 1
		fi
		if since "$WORK/kill-$i/out.txt" "$t0" | grep -Eq "check at seq|silent check"; then
			echo "kill: device $i spoke of checks and seqs"
			return 1
		fi
		awk -v t="$t0" -v i="$i" '$1 >= t && /left the table/ { printf "kill: device %s said so %.1f s after the kill\n", i, $1 - t; exit }' \
			"$WORK/kill-$i/out.txt"
	done
}

for s in ${PRESENCE_SCENARIOS:-think kill}; do
	echo "== scenario $s"
	if ! "scen_$s"; then
		FAILED+=("$s")
		echo "== scenario $s FAILED"
	fi
	netns_kill_all
done
if [ ${#FAILED[@]} -gt 0 ]; then
	echo "failed: ${FAILED[*]}"
	exit 1
fi
echo "all scenarios passed"

# Helpers for the LAN tests in network namespaces, sourced by netns.sh,
# netns-loss.sh, scripts/soak-lan.sh and scripts/e2e-lan.sh (bash, run as
# root from the repository root). netns_setup N builds N namespaces on one bridge (the
# bridge in a namespace of its own), private test addresses inside them
# only, no default route, nothing in the root namespace's network touched.
# Every wait is bounded; netns_cleanup (trapped on exit) kills what it
# started and removes the namespaces.
#
# The caller sets P (a prefix unique to the run, at most 11 characters)
# and WORK (a scratch directory) before netns_setup.

NET=10.213.78 # private test range, inside the namespaces only
NS=()
PIDS=()
WATCHERS=() # background monitors (store growth)

netns_need_root() {
	[ "$(id -u)" = 0 ] || { echo "$0: needs root"; exit 1; }
	command -v ip >/dev/null || { echo "$0: needs ip (iproute2)"; exit 1; }
}

# netns_setup N: namespaces $P-0 .. $P-(N-1), each with eth0 on the bridge
# in $P-br at $NET.(i+1)/24.
netns_setup() {
	local n=$1 i
	ip netns add "$P-br"
	ip -n "$P-br" link add br0 type bridge mcast_snooping 0
	ip -n "$P-br" link set br0 up
	for ((i = 0; i < n; i++)); do
		NS[i]="$P-$i"
		ip netns add "${NS[$i]}"
		ip -n "$P-br" link add "h$i" type veth peer name eth0 netns "${NS[$i]}"
		ip -n "$P-br" link set "h$i" master br0 up
		ip -n "${NS[$i]}" link set lo up
		ip -n "${NS[$i]}" addr add "$NET.$((i + 1))/24" dev eth0
		ip -n "${NS[$i]}" link set eth0 up
	done
}

# netns_kill_all: SIGKILL every process started here, and wait for them.
netns_kill_all() {
	local pid
	for pid in "${PIDS[@]:-}" "${WATCHERS[@]:-}"; do
		[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]:-}" "${WATCHERS[@]:-}"; do
		[ -n "$pid" ] && wait "$pid" 2>/dev/null || true
	done
	PIDS=()
	WATCHERS=()
}

netns_cleanup() {
	local ns
	netns_kill_all
	for ns in "${NS[@]:-}" "$P-br"; do
		[ -n "$ns" ] && ip netns del "$ns" 2>/dev/null || true
	done
}

# netns_build: NJET is $NJET_BIN, or a binary built into $WORK.
netns_build() {
	if [ -n "${NJET_BIN:-}" ]; then
		NJET=$(realpath "$NJET_BIN")
		echo "== using $NJET"
	else
		echo "== building njet"
		go build -o "$WORK/njet" .
		NJET="$WORK/njet"
	fi
}

# wait_for FILE PATTERN SECONDS: until FILE holds PATTERN (an extended
# regular expression), or fail.
wait_for() {
	local n=$(($3 * 10))
	while ! grep -Eq -- "$2" "$1" 2>/dev/null; do
		n=$((n - 1))
		[ $n -gt 0 ] || { echo "timed out after $3s waiting for \"$2\" in $1"; return 1; }
		sleep 0.1
	done
}

# wait_pid PID SECONDS: until PID exits (returning its status), or fail
# with 124.
wait_pid() {
	local n=$(($2 * 10))
	while kill -0 "$1" 2>/dev/null; do
		n=$((n - 1))
		[ $n -gt 0 ] || { echo "timed out after $2s waiting for process $1"; return 124; }
		sleep 0.1
	done
	wait "$1"
}

# stamp: each line of its input after the time it was read (seconds).
stamp() {
	local line
	while IFS= read -r line; do
		printf '%s %s\n' "$EPOCHREALTIME" "$line"
	done
}

# start I DIR ARGS...: run njet in namespace I in the background, its
# output stamped into DIR/out.txt, its store in DIR.
start() {
	local i=$1 dir=$2
	shift 2
	mkdir -p "$dir"
	ip netns exec "${NS[$i]}" "$NJET" "$@" --data "$dir" --export "$dir/log.njetlog" \
		> >(stamp >>"$dir/out.txt") 2>&1 &
	PIDS[i]=$!
}

# kill_peer I: SIGKILL the peer in namespace I, for good, and reap it.
kill_peer() {
	local pid=${PIDS[$1]:-}
	[ -n "$pid" ] || return 0
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	PIDS[$1]=""
}

# watch_growth FILE OUT: in the background, append "time size" to OUT
# whenever FILE (a device's append-only store) grows; polled every 0.1 s
# until netns_kill_all.
watch_growth() {
	local file=$1 out=$2
	(
		last=-1
		while :; do
			size=$(stat -c %s "$file" 2>/dev/null || echo -1)
			if [ "$size" != "$last" ]; then
				printf '%s %s\n' "$EPOCHREALTIME" "$size" >>"$out"
				last=$size
			fi
			sleep 0.1
		done
	) &
	WATCHERS+=($!)
}

# standstill GROWTH T OUT: the longest time the store in GROWTH
# (watch_growth's output) did not take an envelope, from its last one at
# or before T (the loss) to the game's last round result in OUT (the
# device's stamped output, or the end of a game of The Game: after it the
# device only lingers), in seconds,
# and when that stillness began relative to T. A growth of less than 100
# bytes is a small metadata record (a standing vote, a fence), not an
# envelope: every envelope record is larger.
standstill() {
	local end
	end=$(awk '/ round [0-9]+: points| players?, [0-9]+ turns?: [0-9]+ cards? left/ { t = $1 } END { printf "%.3f", t + 0.5 }' "$3")
	awk -v t="$2" -v end="$end" '
		{ grew = $2 - size; size = $2 }
		grew < 100 { next }
		$1 <= t { prev = $1; next }
		$1 > end { next }
		{ if (prev && $1 - prev > gap) { gap = $1 - prev; from = prev }
		  prev = $1; after = 1 }
		END {
			if (!after) { print "none: the game was over before the loss"; exit }
			printf "%.1f s (from %+.1f s of the loss)\n", gap, from - t
		}' "$1"
}

# check_logs DIR...: the exports in each DIR identical, each verified by
# njet verify; prints the verdict.
check_logs() {
	local first="" d sum
	for d in "$@"; do
		[ -f "$d/log.njetlog" ] || { echo "no log in $d"; return 1; }
		sum=$(sha256sum <"$d/log.njetlog")
		[ -n "$first" ] || first=$sum
		[ "$sum" = "$first" ] || { echo "log of $d differs from log of $1"; return 2; }
		"$NJET" verify "$d/log.njetlog" >"$d/verify.txt" 2>&1 || { tail -n 3 "$d/verify.txt"; return 3; }
	done
	echo "$# identical logs, each verified: $(tail -n 1 "$1/verify.txt" | sed 's/^[^:]*: //')"
}

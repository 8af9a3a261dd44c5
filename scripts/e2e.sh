#!/usr/bin/env bash
# End-to-end test of the real binary under Xvfb: build njet, start it in its
# smoke mode (a new local game whose table screen taps its own controls until
# game over) at desktop and phone size, take a screenshot of each run, and
# check the totals it printed against the engine's replay of the same seed,
# bots and choices. Then the same for The Game: a whole game of The Game
# Extreme with 3 players (--smoke-thegame), the person's seat played by the
# table's own taps, at both sizes, on a phone on its side (740x360) and in
# a small window (300x400), where the table scrolls and its buttons stay in
# the window, and in the mobile simulation, with screenshots of the game
# under way and of the game-over view. Needs scripts/deps.sh --e2e.
#
# Output (binary, logs, saves, screenshots) goes to $E2E_OUT (default: a
# temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."

# English unless the caller chose (the C locale names no language).
export LANGUAGE=${LANGUAGE:-en}
out=${E2E_OUT:-$(mktemp -d)}
mkdir -p "$out"
seed=${SEED:-7}
echo "e2e: building the app into $out"
go build -o "$out/njet" .

# run NAME SIZE runs one smoke game in a window of SIZE (WxH).
run() {
	local name=$1 size=$2
	local w=${size%x*} h=${size#*x}
	echo "e2e: $name ($size), seed $seed"
	timeout 600 xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
		"$1" --smoke --first-frame --seed "$2" --size "$3" --smoke-save "$4.save" >"$4.log" 2>"$4.err" &
		pid=$!
		# A screenshot of the game under way; the window sits at the
		# top left of the screen (no window manager).
		for _ in $(seq 1 100); do
			grep -q "first frame" "$4.log" 2>/dev/null && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.1
		done
		sleep 3
		import -window root -crop "$5x$6+0+0" +repage "$4.png" || true
		wait $pid
	' _ "$out/njet" "$seed" "$size" "$out/$name" "$w" "$h" || {
		echo "e2e: $name failed"; cat "$out/$name.err" "$out/$name.log"; return 1
	}
	local totals
	totals=$(grep '^totals ' "$out/$name.log") || { echo "e2e: $name printed no totals"; cat "$out/$name.log"; return 1; }
	echo "e2e: $name: $totals"
	"$out/njet" --smoke-check "$out/$name.save" --totals "$totals"
}

# mobile opens Fyne's mobile simulation and checks that it paints: its
# window waits for a window manager, so nudge it with xdotool.
mobile() {
	echo "e2e: the mobile simulation (-tags mobile)"
	go build -tags mobile -o "$out/njet-mobile" .
	timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
		"$1" >"$2.log" 2>&1 &
		pid=$!
		for _ in $(seq 1 100); do
			w=$(xdotool search --name "^App$" 2>/dev/null | head -1) && [ -n "$w" ] && break
			sleep 0.1
		done
		sleep 1
		xdotool windowmove "$w" 10 0
		sleep 3
		import -window root -crop 620x800+0+0 +repage "$2.png"
		kill $pid
	' _ "$out/njet-mobile" "$out/mobile"
	# A black window would have painted nothing.
	local mean
	mean=$(convert "$out/mobile.png" -colorspace Gray -format "%[fx:mean]" info:)
	echo "e2e: mobile simulation's mean brightness $mean"
	awk -v m="$mean" 'BEGIN { exit !(m > 0.2) }' || { echo "e2e: the mobile simulation painted nothing"; return 1; }
}

# lastframe NAME keeps as NAME-over.png the newer of the two frames
# NAME-over-0.png and NAME-over-1.png that shows something: the last one
# taken may show the window already closed.
lastframe() {
	local f mean
	for f in $(ls -t "$1"-over-[01].png 2>/dev/null); do
		mean=$(convert "$f" -colorspace Gray -format "%[fx:mean]" info:)
		if awk -v m="$mean" 'BEGIN { exit !(m > 0.05) }'; then
			cp "$f" "$1-over.png"
			break
		fi
	done
	rm -f "$1"-over-[01].png
}

# thegame NAME SIZE [mobile] plays a whole game of The Game Extreme with 3
# players in the smoke mode at SIZE (WxH), or in the mobile simulation; the
# game-over view stays up a moment before the exit (and for good in the
# mobile simulation, which is ended), so the last frames taken show it.
thegame() {
	local name=$1 size=$2 bin=$out/njet
	local w=${size%x*} h=${size#*x}
	[ "${3:-}" = mobile ] && bin=$out/njet-mobile
	echo "e2e: The Game, $name ($size), seed $seed"
	timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
		args=(--smoke-thegame --extreme --players 3 --seed "$2")
		[ "$7" = mobile ] || args+=(--size "$3")
		"$1" "${args[@]}" >"$4.log" 2>"$4.err" &
		pid=$!
		if [ "$7" = mobile ]; then
			for _ in $(seq 1 100); do
				win=$(xdotool search --name "^App$" 2>/dev/null | head -1) && [ -n "$win" ] && break
				sleep 0.1
			done
			sleep 0.5
			xdotool windowmove "$win" 10 0 || true
		fi
		sleep 2.5
		import -window root -crop "$5x$6+0+0" +repage "$4.png" || true
		for i in $(seq 1 600); do
			kill -0 $pid 2>/dev/null || break
			import -window root -crop "$5x$6+0+0" +repage "$4-over-$((i % 2)).png" 2>/dev/null || true
			# A mobile app does not quit: end it once the result is out.
			if [ "$7" = mobile ] && grep -q "^thegame over: " "$4.log"; then
				kill $pid
				wait $pid
				exit 0
			fi
		done
		wait $pid
	' _ "$bin" "$seed" "$size" "$out/$name" "$w" "$h" "${3:-}" || {
		echo "e2e: $name failed"; cat "$out/$name.err" "$out/$name.log"; return 1
	}
	lastframe "$out/$name"
	local result
	result=$(grep '^thegame over: ' "$out/$name.log") || { echo "e2e: $name printed no result"; cat "$out/$name.log" "$out/$name.err"; return 1; }
	echo "e2e: $name: $result"
}

run desktop 1280x800
run phone 360x740
mobile
thegame thegame-desktop 1280x800
thegame thegame-phone 360x740
thegame thegame-landscape-short 740x360
thegame thegame-short 300x400
thegame thegame-mobile 620x800 mobile
echo "e2e: screenshots in $out (desktop.png, phone.png, mobile.png, thegame-*.png)"

#!/usr/bin/env bash
# End-to-end test of the real binary under Xvfb: build njet, start it in its
# smoke mode (a new local game whose table screen taps its own controls until
# game over) at desktop and phone size, take a screenshot of each run, and
# check the totals it printed against the engine's replay of the same seed,
# bots and choices. Needs scripts/deps.sh --e2e.
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

run desktop 1280x800
run phone 360x740
mobile
echo "e2e: screenshots in $out (desktop.png, phone.png, mobile.png)"

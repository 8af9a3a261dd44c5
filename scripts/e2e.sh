#!/usr/bin/env bash
# End-to-end test of the real binary under Xvfb. Njet!: the app runs in its
# probe mode (njet --probe FILE: it writes what its window draws, each time
# it changes, as lines of JSON), and a person at the real pointer
# (internal/xperson, xdotool) sets a game up on the new-game screen and plays
# it to its end, choosing among the controls the probe says are drawn and
# reachable and clicking their places; it reads the totals off the game-over
# view, which the engine's replay of the game's save must match (njet
# --smoke-check). Whole games at desktop size, on a phone upright and on its
# side, and in a small window, with screenshots of the game under way.
# Then The Game the same way: the person sets a game up from home (the
# players, Extreme or not), plays it to its end with the widget tests'
# policy and reads the cards left off the game-over view, at the app's
# desktop size (1024x720), on a phone upright and on its side and in a
# small window (300x400), where the table scrolls and its buttons stay in
# the window; and a smoke game of The Game Extreme (--smoke-thegame, the
# person's seat played by the table's own taps) in the mobile simulation.
# Needs scripts/deps.sh --e2e.
#
# Output (binaries, logs, saves, probes, screenshots) goes to $E2E_OUT
# (default: a temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."

# English unless the caller chose (the C locale names no language).
export LANGUAGE=${LANGUAGE:-en}
out=${E2E_OUT:-$(mktemp -d)}
mkdir -p "$out"
seed=${SEED:-7}
echo "e2e: building the app and the person at its window into $out"
go build -o "$out/njet" .
go build -o "$out/xperson" ./internal/xperson

# person NAME SIZE ARGS... runs the app in its probe mode in a window of
# SIZE (WxH) under Xvfb and xperson with ARGS beside it, which plays
# through the real pointer; xperson's output goes to NAME.person.
person() {
	local name=$1 size=$2
	shift 2
	rm -f "$out/$name.probe" "$out/$name.save"
	timeout 900 xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
		bin=$1 person=$2 base=$3 size=$4 dir=$5
		shift 5
		# A home of its own: no settings or saved game of an earlier run.
		rm -rf "$base.home"
		mkdir -p "$base.home"
		HOME="$base.home" XDG_CONFIG_HOME="$base.home/.config" \
			"$bin" --probe "$base.probe" --probe-save "$base.save" --size "$size" >"$base.log" 2>"$base.err" &
		pid=$!
		code=0
		"$person" --probe "$base.probe" --save "$base.save" --lang "$LANGUAGE" \
			--shots "$dir" --name "$(basename "$base")" "$@" >"$base.person" 2>"$base.person.err" || code=$?
		kill $pid 2>/dev/null || true
		wait $pid 2>/dev/null || true
		exit $code
	' _ "$out/njet" "$out/xperson" "$out/$name" "$size" "$out" "$@" || {
		echo "e2e: $name failed"; cat "$out/$name.person.err" "$out/$name.err"; return 1
	}
}

# njet NAME SIZE GAME... plays a whole game of Njet! (xperson's flags:
# --edition, --players, --short, --target) in a window of SIZE (WxH)
# through the real pointer, and checks the totals shown against the
# engine's replay.
njet() {
	local name=$1 size=$2
	shift 2
	echo "e2e: Njet! $name ($size): $*, seed $seed"
	local start=$SECONDS
	person "$name" "$size" --seed "$seed" "$@" || return 1
	local totals rounds
	totals=$(grep '^totals ' "$out/$name.person") || { echo "e2e: $name read no totals"; cat "$out/$name.person.err"; return 1; }
	rounds=$(grep '^rounds ' "$out/$name.person" | cut -d' ' -f2)
	echo "e2e: $name: $rounds rounds played by clicks, $totals as shown, in $((SECONDS - start)) s"
	"$out/njet" --smoke-check "$out/$name.save" --totals "$totals"
}

# thegame_person NAME SIZE ARGS... plays a whole game of The Game
# (xperson's --players, --extreme) in a window of SIZE through the real
# pointer: from home by the setup's choices to the game-over view, whose
# cards left it reads, and home again.
thegame_person() {
	local name=$1 size=$2
	shift 2
	echo "e2e: The Game $name ($size): $*"
	local start=$SECONDS
	person "$name" "$size" --game thegame "$@" || return 1
	local left laid
	left=$(grep '^left ' "$out/$name.person" | cut -d' ' -f2) || true
	laid=$(grep '^laid ' "$out/$name.person" | cut -d' ' -f2) || true
	[ -n "$left" ] && [ -n "$laid" ] || { echo "e2e: $name read no result"; cat "$out/$name.person" "$out/$name.person.err"; return 1; }
	echo "e2e: $name: $laid cards laid by clicks, $left cards left as shown, in $((SECONDS - start)) s"
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

njet desktop 1280x800 --edition classic --players 4 --short
njet phone 360x740 --edition modern --players 3 --target 60
njet landscape-short 740x360 --edition modern --players 5 --target 60
njet short 300x400 --edition classic --players 3 --short
LANGUAGE=de njet phone-de 360x740 --edition modern --players 4 --target 40
mobile
thegame_person thegame-desktop 1024x720 --players 3 --extreme
thegame_person thegame-phone 360x740 --players 2
thegame_person thegame-landscape-short 740x360 --players 4 --extreme
thegame_person thegame-short 300x400 --players 1
thegame thegame-mobile 620x800 mobile
echo "e2e: screenshots in $out (desktop-*.png, phone-*.png, landscape-short-*.png, short-*.png, mobile.png, thegame-*.png)"

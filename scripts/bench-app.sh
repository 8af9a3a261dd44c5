#!/usr/bin/env bash
# The app's figures under Xvfb, from one build in one run: the binary's
# size; the time from process start to the first painted frame (several
# runs); and the resident memory (peak RSS, /usr/bin/time -v) of a whole
# game played through the window by the person at the real pointer
# (internal/xperson, as scripts/e2e.sh plays), against that of a blank
# window of the same build holding one label (njet --blank) at the same
# size. Needs scripts/deps.sh --e2e and GNU time.
#
# GAME sets the game's flags for xperson (default: a whole Classic game
# of 4 players); SIZE the window (default 1280x800); PACE the bots' pace
# (default: the probe mode's fast one).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${BENCH_OUT:-$(mktemp -d)}
runs=${RUNS:-5}
size=${SIZE:-1280x800}
game=${GAME:---edition classic --players 4}
export LANGUAGE=${LANGUAGE:-en}
go build -o "$out/njet" .
go build -o "$out/xperson" ./internal/xperson
echo "binary: $(stat -c %s "$out/njet") bytes ($(du -h "$out/njet" | cut -f1))"
go build -ldflags="-s -w" -o "$out/njet-stripped" .
echo "binary, stripped (-ldflags=\"-s -w\"): $(stat -c %s "$out/njet-stripped") bytes"

# Each run gets its own X server, so nothing is warm but the page cache.
for i in $(seq 1 "$runs"); do
	timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
		start=$(date +%s%N)
		"$1" --first-frame >"$2" 2>/dev/null
		end=$(grep -o "unix ns [0-9]*" "$2" | grep -o "[0-9]*$")
		echo "run '"$i"': $(grep -o "first frame [0-9.]* ms" "$2") after Go started; $(( (end - start) / 1000000 )) ms after exec"
	' _ "$out/njet" "$out/first-$i.log"
done

# rss FILE: the peak resident set size /usr/bin/time wrote, in KB.
rss() { grep 'Maximum resident' "$1" | grep -o '[0-9]*$'; }

# The blank window: the same build, the same size, one label, 20 s.
timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" \
	/usr/bin/time -v -o "$out/blank.time" "$out/njet" --blank 20s --size "$size" >/dev/null 2>&1
blank=$(rss "$out/blank.time")

# A whole game through the window: a fresh home for the app's storage.
home="$out/home"
rm -rf "$home" "$out/game.probe" "$out/game.save"
mkdir -p "$home"
start=$SECONDS
# shellcheck disable=SC2086 # the game's flags are words
HOME="$home" XDG_CONFIG_HOME="$home/.config" timeout 1800 xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
	out=$1 size=$2 pace=$3
	shift 3
	args=(--probe "$out/game.probe" --probe-save "$out/game.save" --size "$size")
	[ -n "$pace" ] && args+=(--pace "$pace")
	/usr/bin/time -v -o "$out/game.time" "$out/njet" "${args[@]}" >"$out/game.log" 2>"$out/game.err" &
	pid=$!
	code=0
	"$out/xperson" --probe "$out/game.probe" --save "$out/game.save" --lang "$LANGUAGE" "$@" >"$out/game.person" 2>"$out/game.person.err" || code=$?
	kill "$(pgrep -P "$pid")" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	exit $code
' _ "$out" "$size" "${PACE:-}" $game || { echo "bench: the game failed"; cat "$out/game.person.err"; exit 1; }
game_kb=$(rss "$out/game.time")
"$out/njet" --smoke-check "$out/game.save" --totals "$(grep '^totals ' "$out/game.person")" >/dev/null
echo "window $size, one build:"
echo "  blank window with one label (njet --blank): $blank KB peak RSS"
echo "  whole game ($game; $(grep '^rounds ' "$out/game.person" | cut -d' ' -f2) rounds, $(grep '^totals ' "$out/game.person"), checked against the engine), played by clicks in $((SECONDS - start)) s: $game_kb KB peak RSS"
echo "  the game over the blank window: $(( (game_kb - blank) / 1024 )) MB"

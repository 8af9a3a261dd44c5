#!/usr/bin/env bash
# The app's figures under Xvfb: the time from process start to the first
# painted frame (several runs), the resident memory after a whole smoke game
# (/usr/bin/time -v) and the binary's size. Needs scripts/deps.sh --e2e and
# GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${BENCH_OUT:-$(mktemp -d)}
runs=${RUNS:-5}
go build -o "$out/njet" .
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

# A whole game at the smoke mode's fast pace, and with PACE set (e.g. 600ms,
# the settings' default) at a person's pace: the fast one makes and drops
# far more widgets a minute than a person ever sees.
for pace in 0s ${PACE:-}; do
	timeout 1800 xvfb-run -a -s "-screen 0 1280x800x24" \
		/usr/bin/time -v "$out/njet" --smoke --seed 7 --pace "$pace" >"$out/smoke.log" 2>"$out/smoke.time"
	[ "$pace" = 0s ] && pace=fast
	echo "smoke game (Classic, 4 players, seed 7, pace $pace): $(grep '^totals' "$out/smoke.log")"
	echo "  resident memory after the whole game: $(grep 'Maximum resident' "$out/smoke.time" | grep -o '[0-9]*$') KB (max RSS)"
	echo "  wall time of the game: $(grep 'Elapsed (wall' "$out/smoke.time" | awk '{print $NF}')"
done

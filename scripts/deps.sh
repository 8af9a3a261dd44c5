#!/usr/bin/env bash
# Installs what building the app needs on Debian or Ubuntu and is missing:
# a C compiler and the GL/X11 headers for Fyne (cgo). With "--e2e" also
# Xvfb, xdotool and ImageMagick for the end-to-end test of the window.
# Packages already installed are left alone; nothing runs when none is
# missing. Uses sudo when not root. Then it fetches the Go modules and
# compiles the app once, with progress, so that the first `go run .` or
# `go test` does not sit silent for minutes.
set -euo pipefail

pkgs=(gcc pkg-config libgl1-mesa-dev libegl-dev libgles-dev libx11-dev libxcursor-dev
	libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev)
if [ "${1:-}" = "--e2e" ]; then
	pkgs+=(xvfb xauth xdotool imagemagick time)
fi

# warm fetches the Go modules and compiles the app once, saying what it
# does: the first build downloads about 100 MB of modules and compiles
# Fyne's C code (GLFW), several minutes in which go itself prints nothing
# but "downloading" lines. Later runs find everything cached and pass at
# once.
warm() {
	command -v go >/dev/null || return 0
	[ -f go.mod ] || return 0
	local cache
	cache=$(go env GOMODCACHE)
	if [ ! -d "$cache/fyne.io/fyne/v2@$(awk '$1 == "fyne.io/fyne/v2" { print $2 }' go.mod)" ]; then
		echo "deps: fetching the Go modules (about 100 MB, the first time only)..."
		go mod download
	fi
	local total n=0 line
	total=$(go list -deps . 2>/dev/null | wc -l)
	go build -v -o /dev/null . 2>&1 | while IFS= read -r line; do
		case $line in
		*" "* | "#"*) echo "$line" ;; # an error or a cgo warning: show it
		*)
			n=$((n + 1))
			if [ "$n" = 5 ]; then
				echo "deps: compiling the app the first time (a few minutes; Fyne's C code takes longest)..."
			fi
			if [ -t 1 ]; then
				printf '\r  %d of about %d packages: %-60.60s' "$n" "$total" "$line"
			elif [ $((n % 50)) = 0 ]; then
				echo "  $n of about $total packages"
			fi
			;;
		esac
	done
	[ -t 1 ] && printf '\r%-90s\r' ""
	return 0
}
missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	warm
	exit 0
fi

if ! command -v apt-get >/dev/null; then
	echo "deps: missing ${missing[*]}; install them with your system's package manager" >&2
	exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo="sudo"
fi
echo "deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
warm

#!/usr/bin/env bash
# Installs what building the app needs on Debian or Ubuntu and is missing:
# a C compiler and the GL/X11 headers for Fyne (cgo). With "--e2e" also
# Xvfb, xdotool and ImageMagick for the end-to-end test of the window.
# Packages already installed are left alone; nothing runs when none is
# missing. Uses sudo when not root.
set -euo pipefail

pkgs=(gcc pkg-config libgl1-mesa-dev libegl-dev libgles-dev libx11-dev libxcursor-dev
	libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev)
if [ "${1:-}" = "--e2e" ]; then
	pkgs+=(xvfb xauth xdotool imagemagick time)
fi

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

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

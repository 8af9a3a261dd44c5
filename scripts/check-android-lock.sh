#!/usr/bin/env bash
# Checks the Android multicast lock (multicast_android.{go,c,h}) as far as a
# machine without the Android NDK can: the C part compiles with the host's
# C compiler against a JDK's jni.h (openjdk-17-jdk-headless), and the Go
# part, with the bindings `go tool cgo` generates for GOOS=android, passes
# go vet for android/arm64 against a stand-in for Fyne's driver package
# with the same two declarations (Fyne's own Android driver needs cgo).
# It builds no APK and runs nothing on a phone.
set -euo pipefail
cd "$(dirname "$0")/.."

jni=$(find /usr/lib/jvm -name jni.h -path '*/include/jni.h' 2>/dev/null | head -n 1)
[ -n "$jni" ] || { echo "check-android-lock: no jni.h (apt-get install openjdk-17-jdk-headless)"; exit 1; }
inc=$(dirname "$jni")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== the C part against $jni"
${CC:-cc} -fsyntax-only -Wall -Wextra -Werror -std=c11 -I"$inc" -I"$inc/linux" multicast_android.c

echo "== the Go part for android/arm64"
GOOS=android GOARCH=arm64 go tool cgo -objdir "$work/cgo" -- -I"$inc" -I"$inc/linux" multicast_android.go
mkdir -p "$work/pkg/fyne/driver"
cp "$work/cgo/multicast_android.cgo1.go" "$work/pkg/"
# Files whose names start with _ are ignored by go: rename, and drop what
# only the real cgo runtime provides.
sed -e '/_cgopackage "runtime\/cgo"/d' -e 's/_cgopackage\.Incomplete/struct{}/' \
	"$work/cgo/_cgo_gotypes.go" >"$work/pkg/cgo_gotypes.go"
printf 'package main\n\nfunc main() { release, _ := multicastLock(); release() }\n' >"$work/pkg/main.go"
printf 'module check\n\ngo 1.26\n\nrequire fyne.io/fyne/v2 v2.7.3\n\nreplace fyne.io/fyne/v2 => ./fyne\n' >"$work/pkg/go.mod"
printf 'module fyne.io/fyne/v2\n\ngo 1.26\n' >"$work/pkg/fyne/go.mod"
cat >"$work/pkg/fyne/driver/driver.go" <<'GO'
// Package driver stands in for fyne.io/fyne/v2/driver v2.7.3 on Android:
// the same declarations, no JVM.
package driver

// AndroidContext is what RunNative passes on Android.
type AndroidContext struct{ VM, Env, Ctx uintptr }

// RunNative runs fn with the JVM's context.
func RunNative(fn func(any) error) error { return fn(&AndroidContext{}) }
GO
(cd "$work/pkg" && GOFLAGS=-mod=mod GOOS=android GOARCH=arm64 CGO_ENABLED=0 go vet .)
echo "check-android-lock: the C part compiles and the Go part vets; not built: the APK (needs the NDK)"

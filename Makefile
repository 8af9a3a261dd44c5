# Shortcuts behind the README's commands. Plain `go` works just as well.
GO ?= go

.PHONY: app play test check bench fuzz android netns nogui e2e e2e-lan bench-app mobile

# The app: a window to play against bots. scripts/deps.sh first installs the
# C compiler and the GL/X11 headers Fyne needs, when missing.
app:
	bash scripts/deps.sh
	$(GO) run .

play:
	$(GO) run . play

test:
	bash scripts/deps.sh
	$(GO) test -timeout 30m ./...

# njet without the window: no cgo, no GL (bot hosts, CI jobs).
nogui:
	CGO_ENABLED=0 $(GO) build -tags nogui -o njet .

# The real binary under Xvfb: whole games played by clicks at every size.
e2e:
	bash scripts/deps.sh --e2e
	bash scripts/e2e.sh

# The app on a LAN of network namespaces against terminal devices (root).
e2e-lan:
	bash scripts/deps.sh --e2e
	bash scripts/e2e-lan.sh

# Start to first frame, a game's resident memory against a blank window, binary size.
bench-app:
	bash scripts/deps.sh --e2e
	bash scripts/bench-app.sh

# Fyne's mobile simulation on the desktop.
mobile:
	bash scripts/deps.sh
	$(GO) run -tags mobile .

# What CI runs: formatting, vet, the android cross-build, the tests and,
# as root, the LAN test across network namespaces.
check:
	bash .ci/run

bench:
	$(GO) test -run=NONE -bench=. -benchmem ./engine/ ./crypto/
	$(GO) test -run=NONE -bench=Round -benchtime=3x ./table/
	$(GO) test -run=NONE -bench=EnvelopeLatency -benchtime=2000x ./p2p/

# A short fuzzing pass over every fuzz target (FUZZTIME=1m for longer).
FUZZTIME ?= 20s
fuzz:
	for pkg in ./engine/ ./crypto/ ./tablelog/ ./table/; do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			$(GO) test -run=NONE -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

android:
	GOOS=android GOARCH=arm64 CGO_ENABLED=0 $(GO) build -ldflags=-checklinkname=0 ./engine/... ./bot/... ./crypto/... ./p2p/... ./tablelog/... ./table/... ./lan/...

# The LAN test across network namespaces (root).
netns:
	bash p2p/testdata/netns.sh

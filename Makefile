# Shortcuts behind the README's commands. Plain `go` works just as well.
GO ?= go

.PHONY: play test check bench fuzz android netns

play:
	$(GO) run . play

test:
	$(GO) test ./...

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
	for pkg in ./engine/ ./crypto/ ./table/; do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			$(GO) test -run=NONE -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

android:
	GOOS=android GOARCH=arm64 CGO_ENABLED=0 $(GO) build -ldflags=-checklinkname=0 ./engine/... ./bot/... ./crypto/... ./p2p/... ./table/... ./lan/...

# The LAN test across network namespaces (root).
netns:
	bash p2p/testdata/netns.sh

# Anamnesis: a cross-machine, file-first memory for Claude Code.
GO      ?= go
PREFIX  ?= $(HOME)/.local
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X github.com/anamnesis-dev/anamnesis/pkg/cli.Version=$(VERSION)
BINS    := anamnesis anamnesis-inject anamnesis-recall anamnesis-capture anamnesis-sync anamnesis-dashboard anamnesis-mcp
LIGHT   := anamnesis anamnesis-inject anamnesis-recall anamnesis-capture anamnesis-sync anamnesis-dashboard
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

# `make build` and install.sh build without -trimpath, so that the tests reuse
# what they compiled (the release archives of `make dist` are trimmed).
# Static binaries everywhere (as install.sh builds them): a cgo binary links
# the C library dynamically and pays for it at every hook's start-up. Only
# `make race` turns cgo on, for the race detector.
export CGO_ENABLED := 0

.PHONY: all build install test race lint check-deps notices check-notices cross dist bench pgo e2e clean

all: build

build:
	@mkdir -p bin
	@for b in $(BINS); do \
		$(GO) build -ldflags "$(LDFLAGS)" -o bin/$$b ./cmd/$$b || exit 1; \
	done
	@echo "built $(BINS) into bin/"

install: build
	@mkdir -p $(PREFIX)/bin
	@for b in $(BINS); do install -m 0755 bin/$$b $(PREFIX)/bin/$$b || exit 1; done
	@echo "installed into $(PREFIX)/bin"

# Both modules, pure Go (no C compiler needed), plus lint and the dependency
# rules (pkg/deps). `make race` is the same suite under the race detector (needs cgo and a
# C compiler); CI runs both.
# Tests and the cross-compile check build without the PGO profile
# (default.pgo): with it, the go command compiles a second copy of every
# dependency of the two binaries that carry one, minutes of CI for nothing.
test: lint
	$(GO) test -pgo=off -count=1 ./...
	cd cmd/anamnesis-mcp && $(GO) test -count=1 ./...

# The race detector checks what runs concurrently; -short leaves out the
# corpus and scale tests of single-threaded code (`make test` runs them) and
# samples the secret corpus on each write path (redacttest).
race:
	CGO_ENABLED=1 $(GO) test -pgo=off -race -short -count=1 ./...
	cd cmd/anamnesis-mcp && CGO_ENABLED=1 $(GO) test -race -short -count=1 ./...

# staticcheck, pinned and run through the Go module proxy (both modules).
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
		if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	cd cmd/anamnesis-mcp && $(GO) vet ./...
	$(STATICCHECK) ./...
	cd cmd/anamnesis-mcp && $(STATICCHECK) ./...

# The dependency rules (only anamnesis-mcp links mcp-go, the hooks carry no
# HTTP stack, only pkg/store imports SQLite, pkg never imports cmd) are a Go
# test, so `go test ./...` enforces them too; this runs just that test.
check-deps:
	$(GO) test -count=1 ./pkg/deps

# THIRD_PARTY_NOTICES (shipped in every release archive) is generated from the
# module graph by go-licenses, pinned in scripts/notices/go.mod; `make
# check-notices` (run by .ci/run and before `make dist`) fails when it is stale.
notices:
	sh scripts/notices/notices.sh

check-notices:
	sh scripts/notices/notices.sh --check

cross:
	@for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		for b in $(BINS); do \
			GOOS=$$os GOARCH=$$arch $(GO) build -pgo=off -trimpath -ldflags "$(LDFLAGS)" -o dist/$$os-$$arch/$$b$$ext ./cmd/$$b || exit 1; \
		done; \
		echo "built dist/$$os-$$arch"; \
	done

# Release archives (tar.gz; zip on Windows) of every binary for the six
# platforms, plus checksums.txt, in dist/release: GoReleaser in snapshot mode
# (no tag, no publishing), pinned and run through the Go module proxy. Each
# archive also holds INSTALL.md, LICENSE, THIRD_PARTY_NOTICES and the plugin.
GORELEASER ?= $(GO) run github.com/goreleaser/goreleaser/v2@v2.15.1
dist:
	GOFLAGS= $(GORELEASER) release --snapshot --clean --skip=publish
	@ls dist/release

# SPEC 9: medians, each hook and command also as a ratio to a hello-world
# `floor` process timed alternately with it (scripts/bench/floor). The
# generated stores (scripts/bench/floor.Generate, the Go port of
# ../shared/bench/gen_store.py) live in $(BENCH_DIR)/store-N, shared by every
# driver and kept between runs (the 1M one takes about ten minutes to make
# and its first index much longer); a store that exists but is incomplete
# stops the bench. BENCH_SIZES picks the sizes (e.g. BENCH_SIZES=10000 for a
# quick run); `make bench` is the full SPEC 9 run, never part of CI.
BENCH_DIR ?= $(or $(TMPDIR),/tmp)/anamnesis-bench
BENCH_SIZES ?= 10000,100000,1000000
# Every driver runs even when an earlier one finds a budget over; the target
# fails at the end if any did.
# The profile-guided optimisation profile of the search path (default.pgo in
# cmd/anamnesis and cmd/anamnesis-recall; scripts/bench/pgo says why).
pgo:
	$(GO) run ./scripts/bench/pgo -work $(BENCH_DIR)

bench: build
	@status=0; \
	$(GO) run ./scripts/bench/corebench -bin bin -work $(BENCH_DIR) -sizes $(BENCH_SIZES) || status=1; \
	$(GO) run ./scripts/bench/hookbench -bin bin -work $(BENCH_DIR) -sizes $(BENCH_SIZES) || status=1; \
	$(GO) run ./scripts/bench/mcpbench -bin bin/anamnesis-mcp -work $(BENCH_DIR) || status=1; \
	$(GO) run ./scripts/bench/syncbench -bin bin -work $(BENCH_DIR)/sync || status=1; \
	$(GO) run ./scripts/bench/dashbench -work $(BENCH_DIR) -n 100000 || status=1; \
	exit $$status

# Needs npm (the pinned Claude Code CLI and MCP SDK go into ~/.cache) and
# Chromium; without Chromium it offers to apt-get install it (as root),
# asking first on a terminal (ANAMNESIS_E2E_INSTALL=1 says yes).
e2e: build
	@echo "make e2e: needs npm (installs the pinned Claude Code CLI and MCP SDK into ~/.cache/anamnesis-e2e) and chromium (offers to apt-get install it if missing)"
	sh scripts/e2e/run.sh

clean:
	rm -rf bin dist

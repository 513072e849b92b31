# idemlint: the two commands a newcomer runs are `make demo` and `make test`.
SHELL := /bin/bash
GO    ?= go
BIN   := $(CURDIR)/bin

.PHONY: all build demo test test-short lint bench soak golangci sarif-multitool clean

all: build

## build: the idemlint command, to bin/idemlint
build:
	$(GO) build -o $(BIN)/idemlint ./cmd/idemlint

## demo: idemlint over testdata/demo, a small module that shows every check's findings
demo: build
	@echo "== idemlint ./... in testdata/demo"
	@cd testdata/demo && $(BIN)/idemlint ./... ; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 3 ] || exit $$rc
	@echo "== go vet -vettool=bin/idemlint ./... in testdata/demo"
	@cd testdata/demo && $(GO) vet -vettool=$(BIN)/idemlint ./... ; true

# The modules of this repository: the linter (the root), the runtime library and the demo service
# (cmd/idemdemo, built against the runtime next to it). The runtime is a core module with no third-party
# dependency (runtime: retry, idempotency) and one module per store or adapter that links a client, plus
# test-only helper modules under runtime/internal (docs/runtime-modules.md); each is built and tested from
# its own directory. cmd/custom-gcl and runtime/retry/internal/benchcmp are separate modules too, built from
# their directories.
RUNTIME_MODULES := runtime runtime/pgstore runtime/redisstore runtime/grpcretry runtime/grpcidem \
	runtime/inboxnats runtime/inboxamqp runtime/idemotel \
	runtime/internal/pgtest runtime/internal/brokertest runtime/internal/testpb runtime/internal/grpcmethod \
	runtime/internal/storebench
MODULES := . $(RUNTIME_MODULES) cmd/idemdemo

## test: every test of every module, with the race detector, including the end-to-end tests of the CLI and the vet tool,
## and the validation of the SARIF output by Microsoft's SARIF multitool (the tests fail without it)
test: build golangci sarif-multitool
	IDEMLINT_BIN=$(BIN)/idemlint IDEMLINT_E2E_GOLANGCI=1 IDEMLINT_E2E_SARIF=1 IDEMLINT_SARIF_MULTITOOL=$(SARIF_MULTITOOL) \
		$(GO) test -race -count=1 -timeout 30m ./...
	@set -e; for m in $(RUNTIME_MODULES); do echo "== go test in $$m"; (cd $$m && $(GO) test -race -count=1 -timeout 10m ./...); done
	cd cmd/idemdemo && $(GO) test -race -count=1 -timeout 10m ./...
	cd runtime/retry/internal/benchcmp && $(GO) vet ./...

test-short:
	@set -e; for m in $(MODULES); do (cd $$m && $(GO) test -short ./...); done

## lint: gofmt, go vet, and idemlint over this repository itself (each module)
lint: build
	@bad=$$(gofmt -l $$(git ls-files '*.go' | grep -v '/testdata/')); if [ -n "$$bad" ]; then echo "not gofmt-formatted:"; echo "$$bad"; exit 1; fi
	@set -e; for m in $(MODULES); do echo "== go vet, idemlint in $$m"; (cd $$m && $(GO) vet ./... && $(BIN)/idemlint ./...); done

## bench: the suite, the no-op floor and staticcheck -checks all (cold cache) over std and the corpus; runtime benchmarks
STATICCHECK_VERSION := v0.8.2
bench: build
	$(GO) build -o $(BIN)/benchfloor ./internal/benchfloor
	GOBIN=$(BIN) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	@bash internal/benchfloor/bench.sh $(BIN)/idemlint $(BIN)/benchfloor $(BIN)/staticcheck
	@set -e; for m in $(RUNTIME_MODULES); do (cd $$m && $(GO) test -run '^$$' -bench . -benchmem ./...); done
	cd runtime/retry/internal/benchcmp && $(GO) test -run '^$$' -bench . -benchmem

## soak: each driver (idemlint, go vet -vettool, bin/custom-gcl) twice over std and the corpus, tests included;
## fails on a panic, an analyzer or driver error, two runs that differ, or drivers that disagree; then a short fuzzing run
soak: build golangci
	@bash internal/benchfloor/soak.sh $(BIN)/idemlint $(BIN)/custom-gcl
	$(GO) test -run '^$$' -fuzz FuzzSuite -fuzztime $(FUZZTIME) ./internal/modelfuzz

## fuzz: the model and every check over generated retry shapes (seeds and testdata/fuzz also run in make test)
FUZZTIME ?= 60s
.PHONY: fuzz
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzSuite -fuzztime $(FUZZTIME) ./internal/modelfuzz

## corpus: fetch the real-code corpus (testdata/corpus/modules.txt), run idemlint over it, write raw.txt, list unreviewed findings
.PHONY: corpus
corpus: build
	$(GO) run ./internal/corpus/corpusrun -idemlint $(BIN)/idemlint -dir testdata/corpus

## recall: fetch the recall corpus (testdata/recall), run bin/idemlint over it, print recall per check and the
## missed bugs; fails when a bug of found.txt is lost or a look-alike gets a finding (RECALL_ARGS=-update rewrites found.txt)
.PHONY: recall
recall: build
	IDEMLINT_BIN=$(BIN)/idemlint $(GO) test -count=1 -timeout 30m -run 'TestRecall$$' -v ./internal/recall $(RECALL_ARGS)

## blind: the blind sample (testdata/blind/bugs-*.txt, repositories at commits, read from the fetch tool's mirrors
## under /work/.mirror): run bin/idemlint once, print recall per check, missed bugs and false findings, write found.txt.
## Not part of make test: it needs the mirrors (testdata/blind/README.md lists the repositories to fetch)
.PHONY: blind
blind: build
	$(GO) run ./internal/blind/blindrun -idemlint $(BIN)/idemlint -dir testdata/blind

## golangci: bin/custom-gcl, golangci-lint v2.15.0 with the idemlint plugin, built offline from the module proxy
golangci:
	cd cmd/custom-gcl && $(GO) build -o $(BIN)/custom-gcl .

## sarif-multitool: Microsoft's SARIF validator (npm @microsoft/sarif-multitool), into bin/sarif; needs node and npm
SARIF_MULTITOOL_VERSION := 5.7.0
SARIF_MULTITOOL := $(BIN)/sarif/node_modules/.bin/sarif-multitool
sarif-multitool: $(SARIF_MULTITOOL)
$(SARIF_MULTITOOL):
	npm install --no-audit --no-fund --prefix $(BIN)/sarif @microsoft/sarif-multitool@$(SARIF_MULTITOOL_VERSION)
	@# the package's postinstall makes the native binary executable; npm may not run it
	chmod u+x $(BIN)/sarif/node_modules/@microsoft/sarif-multitool-*/Sarif.Multitool
	$(SARIF_MULTITOOL) --version >/dev/null

clean:
	rm -rf $(BIN)

## proto: regenerate the committed gRPC code (the runtime's test service, the demo's payments service) with
## protoc (Debian package protobuf-compiler) and the plugins below, installed into bin/ from the module proxy
PROTOC_GEN_GO_VERSION      := v1.36.12
PROTOC_GEN_GO_GRPC_VERSION := v1.6.2
.PHONY: proto
proto:
	@command -v protoc >/dev/null || { echo "protoc missing: apt-get install protobuf-compiler"; exit 1; }
	GOBIN=$(BIN) $(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
	GOBIN=$(BIN) $(GO) install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VERSION)
	cd runtime/internal/testpb && PATH=$(BIN):$$PATH protoc -I. --go_out=. --go_opt=paths=source_relative \
		--go-grpc_out=. --go-grpc_opt=paths=source_relative test.proto
	cd cmd/idemdemo/paymentspb && PATH=$(BIN):$$PATH protoc -I. --go_out=. --go_opt=paths=source_relative \
		--go-grpc_out=. --go-grpc_opt=paths=source_relative payments.proto

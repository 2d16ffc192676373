# ColdTap — the two commands a new user needs are `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
# SwiftPM leaves TemporaryDirectory.* folders and lock files in TMPDIR on every run;
# its builds keep them in .build instead of the machine's temporary folder.
SWIFTPM = mkdir -p .build/swiftpm-tmp && TMPDIR=$(CURDIR)/.build/swiftpm-tmp $(SWIFT)
# Debian packages to build and run (system libraries, pcscd + virtual reader for the demo, report fonts).
APT_PACKAGES := pkg-config libcairo2-dev zlib1g-dev fonts-dejavu-core fonts-noto-cjk pcscd libpcsclite-dev vsmartcard-vpcd iproute2 util-linux \
  libsqlite3-dev libpq-dev libssl-dev libmicrohttpd-dev libgnutls28-dev libcurl4-openssl-dev libsodium-dev
# ... and in addition to run every test (headless Chromium opens the HTML report and the
# station's pages, and chromedriver drives it through sign-in and signing; poppler-utils reads the PDF back; the archive and station tests start a
# private PostgreSQL cluster of their own; the station tests check the systemd unit with
# systemd-analyze and speak TLS with curl).
APT_TEST_PACKAGES := $(APT_PACKAGES) pcsc-tools chromium chromium-driver poppler-utils postgresql systemd openssl curl
VENV := .venv
# Test tools in $(VENV), pinned: the station's contract and fuzz run (scripts/test-openapi.sh);
# pyHanko checks the signed report PDFs independently of our libcrypto code (PDFSigningTests).
# The EPCIS exports are checked against GS1's schema with format checking (jsonschema with
# rfc3987 and rfc3339-validator) and their event IDs against the reference event hash generator.
TEST_PYTHON_PACKAGES := schemathesis==4.32.5 openapi-spec-validator==0.9.0 pyhanko==0.38.0 pyhanko-certvalidator==0.33.0 \
  jsonschema==4.26.0 rfc3987==1.3.8 rfc3339-validator==0.1.4 epcis-event-hash-generator==1.9.3
FUZZ_SECONDS ?= 60

.PHONY: all deps test-deps build release test check demo fuzz bench venv test-venv clean lint

all: build

# Installs only what is missing; quiet when everything is there.
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

deps:
	$(call install_missing,$(APT_PACKAGES))

test-deps:
	$(call install_missing,$(APT_TEST_PACKAGES))

build: deps
	$(SWIFTPM) build

release: deps
	$(SWIFTPM) build -c release

# Every test: lint, both archive engines, the browser, the end-to-end and contract scripts;
# each phase's time is printed at the end (scripts/lib/run-tests.sh).
test: test-deps test-venv venv
	SWIFT=$(SWIFT) bash scripts/lib/run-tests.sh full

# The fast tier while working: lint, unit tests, the archive on SQLite only, the station's
# routes without sockets (no PostgreSQL, browser or end-to-end scripts).
check: test-deps test-venv
	SWIFT=$(SWIFT) bash scripts/lib/run-tests.sh check

# The formatting of every Swift file, as `swift format` (in the toolchain) with .swift-format
# makes it; `swift format format -i -r Sources Tests Apps Package.swift` fixes what this finds.
lint:
	$(SWIFT) format lint --strict --recursive --configuration .swift-format Sources Tests Apps Package.swift

demo: build
	$(SWIFTPM) run --skip-build coldtap demo

# The one Python virtual environment of the project's tools (never a run-time dependency).
define make_venv
	@[ -x $(VENV)/bin/python ] || python3 -m venv $(VENV) 2>/dev/null || \
	  { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null && python3 -m venv $(VENV); }
endef

# Python tools for benchmarks against reference implementations.
venv: deps
	$(call make_venv)
	@$(VENV)/bin/python -c "import ndef, numpy, matplotlib" 2>/dev/null || \
	  $(VENV)/bin/pip install -q ndeflib numpy matplotlib

# Python tools for the tests, installed only when a pinned version is missing.
test-venv: test-deps
	$(call make_venv)
	@$(VENV)/bin/python -c "import sys, importlib.metadata as m; sys.exit(any(m.version(n) != v for n, v in (a.split('==') for a in sys.argv[1:])))" \
	  $(TEST_PYTHON_PACKAGES) 2>/dev/null || $(VENV)/bin/pip install -q $(TEST_PYTHON_PACKAGES)

# Every suite of coldtap-bench (BENCH_SUITES, also what make test runs once at a tiny size).
bench: venv test-deps
	$(SWIFTPM) build -c release --product coldtap-bench
	COLDTAP_PYTHON=$(VENV)/bin/python bash scripts/lib/run-benches.sh .build/release/coldtap-bench

fuzz: deps
	$(SWIFTPM) build -c release --build-path .build-fuzz --product FuzzNDEF \
	  --sanitize=fuzzer -Xswiftc -sanitize=address,fuzzer
	@mkdir -p .fuzz/corpus .fuzz/artifacts
	@cp -n Tests/Fixtures/ndef/*.ndef .fuzz/corpus/ 2>/dev/null || true
	SWIFT_BACKTRACE=enable=no .build-fuzz/release/FuzzNDEF .fuzz/corpus \
	  -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=.fuzz/artifacts/ -print_final_stats=1

clean:
	rm -rf .build .build-fuzz .fuzz

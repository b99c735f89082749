# tilerace — the front doors. `make run` and `make test` set everything up themselves.
BUILD      ?= build
PORT       ?= 8080
DATA       ?= ./data
CMAKE_ARGS ?=
CHAOS_MINUTES ?= 10
WERROR     := $(if $(CI),ON,OFF)

.PHONY: all deps build run test test-web web-deps bench bench-bot bench-one-core bench-cluster bench-latency bench-tournament chaos profile screenshots test-asan test-tsan fuzz test-hardening soak test-docker clean format

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja: CMakeLists.txt
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILERACE_WERROR=$(WERROR) $(CMAKE_ARGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD)

run: build
	./$(BUILD)/tilerace --port $(PORT) --data $(DATA) --web-root web-client

test: build web-deps
	ctest --test-dir $(BUILD) --output-on-failure -j 2
	TILERACE_BINARY=$(BUILD)/tilerace node --test tests/web/ tests/browser/

# The web client alone: node's test runner on its pure modules, then Chromium against the server.
test-web: build web-deps
	TILERACE_BINARY=$(BUILD)/tilerace node --test tests/web/ tests/browser/

web-deps:
	@scripts/install-deps.sh --browser
	@[ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund

# Refreshes the screenshots the README shows (docs/screenshots/).
screenshots: build web-deps
	TILERACE_SCREENSHOTS=1 TILERACE_BINARY=$(BUILD)/tilerace node --test tests/browser/

# Engine micro-benchmarks, the bitboard beside nneonneo/2048-ai's and the computer opponent's
# games (bench-bot, about 6 minutes), storage, then the load scenarios against fresh servers
# on 127.0.0.1 (bench/run-scenarios.sh, about 4 minutes; bench/one-core.sh, about 8 minutes).
# Figures: docs/performance.md.
bench: build
	./$(BUILD)/engine_bench
	BUILD=$(BUILD) bench/vs-nneonneo.sh
	taskset -c 1 ./$(BUILD)/bot_bench
	./$(BUILD)/store_bench
	taskset -c 1 ./$(BUILD)/password_bench
	taskset -c 1 ./$(BUILD)/rating_bench
	BUILD=$(BUILD) bench/run-scenarios.sh
	./$(BUILD)/alloc_bench
	taskset -c 0 ./$(BUILD)/encode_bench
	BUILD=$(BUILD) bench/one-core.sh

# Tournaments' own overhead: a 64-player knockout and a 32-player Swiss of scripted clients on
# one node (bench/tournament.mjs, under a minute). Figures: docs/performance.md.
bench-tournament: build
	BUILD=$(BUILD) node --experimental-websocket bench/tournament.mjs

# Key → board change in Chromium at 0–300 ms round trip, with and without prediction, and the
# server's frame → moved time at half of peak race load (bench/latency.mjs, about 3 minutes).
bench-latency: build web-deps
	BUILD=$(BUILD) node bench/latency.mjs

# The chaos suite (tests/chaos/chaos_main.cpp): three nodes, Redis and PostgreSQL behind relays
# on 127.0.0.1, racers, spectators and people playing all along, a fault every 30 s for
# CHAOS_MINUTES minutes (CHAOS_FAULTS=kind,… to draw only some); fails on any violation
# (docs/operations.md, "Fencing"). Not part of make test.
chaos: build
	cp $(BUILD)/tilerace $(BUILD)/tilerace-chaos-node
	TILERACE_SERVER=$(CURDIR)/$(BUILD)/tilerace-chaos-node CHAOS_MINUTES=$(CHAOS_MINUTES) ./$(BUILD)/tilerace-chaos

# One node against two nodes of a cluster under the same race load (bench/cluster.sh, ~1 min).
bench-cluster: build
	BUILD=$(BUILD) bench/cluster.sh

# The computer opponent alone: 200 seeded games per strength on one core (~6 minutes), and
# the bitboard beside nneonneo/2048-ai's.
bench-bot: build
	BUILD=$(BUILD) bench/vs-nneonneo.sh
	taskset -c 1 ./$(BUILD)/bot_bench

# The "one core" scenario alone: allocations per move and what a move's messages cost to write,
# then tilerace, the echo floor, the Node.js peer and the Bun peer, each pinned to CPU 0 with one
# network thread, the load generator on CPU 1, at full load (tilerace, over TLS and the Bun peer
# in ROUNDS=3 rounds of windows next to each other) and at half of each one's peak (about 9
# minutes).
bench-one-core: build
	./$(BUILD)/alloc_bench
	taskset -c 0 ./$(BUILD)/encode_bench
	taskset -c 0 ./$(BUILD)/tls_record_bench
	BUILD=$(BUILD) bench/one-core.sh

# The server under load scenario (a), sampled by perf; prints the top entries.
profile: build
	@scripts/install-deps.sh --profile
	BUILD=$(BUILD) bench/run-scenarios.sh --profile

# Builds the Docker image and checks it end to end (minutes; not part of make test).
test-docker: build
	scripts/test-docker.sh

# Sanitizer builds of the whole suite, each in its own build folder.
test-asan:
	$(MAKE) test BUILD=build-asan CMAKE_ARGS="-DCMAKE_BUILD_TYPE=Debug -DTILERACE_SANITIZE=address,undefined -DTILERACE_BENCH=OFF"
test-tsan:
	TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" $(MAKE) test BUILD=build-tsan CMAKE_ARGS="-DCMAKE_BUILD_TYPE=Debug -DTILERACE_SANITIZE=thread -DTILERACE_BENCH=OFF"

# Honest racers under two waves of abuse (slowloris, garbage, a flood, a silent spectator);
# about 2 minutes, loopback only. Prints its report; fails on a crash or a wrong defence.
soak: build
	BUILD=$(BUILD) bench/soak.sh

# libFuzzer harnesses (fuzz/) built with clang, ASan and UBSan; each runs FUZZ_SECONDS.
FUZZ_SECONDS ?= 300
fuzz:
	@scripts/install-deps.sh --fuzz
	cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
	  -DTILERACE_SANITIZE=address,undefined,fuzzer-no-link -DTILERACE_FUZZ=ON -DTILERACE_TESTS=OFF \
	  -DTILERACE_BENCH=OFF
	cmake --build build-fuzz
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh build-fuzz

# Everything that shows the server withstands bad input: a minute of each fuzzer, then the
# whole suite (WebSocket conformance included) under ASan+UBSan and under TSan.
test-hardening:
	$(MAKE) fuzz FUZZ_SECONDS=60
	$(MAKE) test-asan
	$(MAKE) test-tsan

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf build build-asan build-tsan build-fuzz node_modules

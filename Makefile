# Quick start: `make run` and `make test`. Both install missing Debian packages first.
BUILD ?= build
JOBS ?= $(shell nproc)
PORT ?= 6379

.PHONY: all setup configure build run test layers unit integration asan bench fuzz-long clean \
	redis-tests cluster cluster-stop cluster-status cluster-clean

all: build

setup:
	@bash scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: configure
	@cmake --build $(BUILD) -j $(JOBS) --target rankd
	@mkdir -p data
	./$(BUILD)/rankd --bind 127.0.0.1 --port $(PORT) --dir ./data

unit: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Integration tests in TEST_WORKERS processes (pytest-xdist): most of their time
# is waiting on servers, so two workers halve the suite's time on two cores.
TEST_WORKERS ?= 2
integration: build
	@RANKD_BIN=$(abspath $(BUILD))/rankd /usr/bin/python3 -m pytest -q -n $(TEST_WORKERS) tests

# The layer rule of each src/ folder is the 'May include:' line of its README.md.
layers: setup
	@/usr/bin/python3 scripts/check_layers.py

test: layers unit integration

# Redis 7.0.15's own suite against build/rankd (long: ~40 min; not part of
# `test`). REDIS_TESTS_OUT: where the per-unit logs go; UNITS: a subset.
REDIS_TESTS_OUT ?= build/redis-tests
redis-tests: configure
	@cmake --build $(BUILD) -j $(JOBS) --target rankd
	@scripts/redis_tests.sh $(BUILD)/rankd $(REDIS_TESTS_OUT) $(UNITS)

asan: setup
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DRANKD_SANITIZE=ON -DRANKD_BENCH=OFF >/dev/null
	@cmake --build build-asan -j $(JOBS)
	@cd build-asan && ctest --output-on-failure -j $(JOBS)
	@RANKD_BIN=$(abspath build-asan)/rankd /usr/bin/python3 -m pytest -q -n $(TEST_WORKERS) tests

bench: build
	@bash bench/run_all.sh

# The command fuzzer for an hour (make test runs it for a minute): FUZZ_SEEDS seeds
# from FUZZ_SEED share FUZZ_SECONDS; a failing seed is reported and the next one runs.
FUZZ_SECONDS ?= 3600
FUZZ_SEED ?= 1000
FUZZ_SEEDS ?= 6
FUZZ_ARGS ?=
fuzz-long: build
	@/usr/bin/python3 tests/fuzz_commands.py --bin $(abspath $(BUILD))/rankd --seed $(FUZZ_SEED) \
		--seeds $(FUZZ_SEEDS) --seconds $(FUZZ_SECONDS) --keep-going $(FUZZ_ARGS)

# A local cluster (scripts/cluster.sh): CLUSTER_NODES nodes at ports 30001.. with
# CLUSTER_REPLICAS replicas per master; REDIS=1 runs redis-server nodes instead.
CLUSTER_NODES ?= 6
CLUSTER_REPLICAS ?= 1
CLUSTER_ENV = NODES=$(CLUSTER_NODES) REPLICAS=$(CLUSTER_REPLICAS) REDIS=$(REDIS) \
	BIN=$(if $(BIN),$(BIN),$(if $(REDIS),,$(BUILD)/rankd))
cluster:
	@if [ -z "$(REDIS)$(BIN)" ]; then $(MAKE) --no-print-directory configure && \
		cmake --build $(BUILD) -j $(JOBS) --target rankd; fi
	@$(CLUSTER_ENV) bash scripts/cluster.sh start

cluster-stop:
	@$(CLUSTER_ENV) bash scripts/cluster.sh stop

cluster-status:
	@$(CLUSTER_ENV) bash scripts/cluster.sh status

cluster-clean:
	@$(CLUSTER_ENV) bash scripts/cluster.sh clean

clean:
	rm -rf $(BUILD) build-asan

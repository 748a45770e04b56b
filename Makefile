# The README's two commands: `make play` and `make test`. Everything else is a step they use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The Python packages, runtime and dev extra, pinned with hashes for CPython 3.11 on x86_64 Linux.
# uv, not pip-tools: it resolves for a named target, ignoring pip.conf: any machine, same lock.
LOCK := requirements.lock
UV_VERSION := 0.13.9
NPM_STAMP := node_modules/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# `make cluster`: daphne processes on ports from CLUSTER_FIRST_PORT up, nginx on CLUSTER_PORT;
# the clock in each process (in-process) or alone under runclock (separate).
CLUSTER_PROCESSES ?= 2
CLUSTER_FIRST_PORT ?= 8101
CLUSTER_PORT ?= 8080
CLUSTER_CLOCK ?= in-process

.PHONY: play test install lock lint typecheck bench migrate clean ci cluster messages lighthouse

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Exactly the lock, every file checked against its hash, then the project itself. pip check
# fails when pyproject.toml asks for what the lock lacks: run `make lock`.
$(STAMP): $(BIN)/python $(LOCK) pyproject.toml
	$(BIN)/pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/pip install --quiet --no-deps -e .
	$(BIN)/pip check
	touch $(STAMP)

# Refresh the lock from pyproject.toml, keeping every pin that still fits; to move pins on,
# `make lock LOCK_ARGS=--upgrade` (all) or `LOCK_ARGS="--upgrade-package django"` (one).
lock: $(BIN)/python
	$(BIN)/pip install --quiet "uv==$(UV_VERSION)"
	$(BIN)/uv pip compile pyproject.toml --extra dev --generate-hashes \
		--python-version 3.11 --python-platform x86_64-unknown-linux-gnu \
		--custom-compile-command "make lock" --quiet --output-file $(LOCK) $(LOCK_ARGS)

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $(NPM_STAMP)

# The translations (locale/, docs/languages.md), compiled from their .po sources (no gettext
# needed: the project's compilemessages uses polib); git keeps only the .po files.
MO_FILES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/*.po))

# The key too: outside the tests and DEBUG, settings refuse to load without one (and
# collectstatic and mypy's Django plugin load them).
install: $(STAMP) $(NPM_STAMP) .local/secret_key $(MO_FILES)

locale/%.mo: locale/%.po $(STAMP) .local/secret_key
	$(BIN)/python manage.py compilemessages --verbosity 0

# Extract the strings marked for translation into locale/es and locale/nb (then translate the
# new entries and commit the .po files). Needs Debian's gettext, installed here when missing.
messages: install
	command -v xgettext >/dev/null 2>&1 || (apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null)
	$(BIN)/python manage.py makemessages -l es -l nb
	$(BIN)/python manage.py makemessages -d djangojs -l es -l nb

.local/secret_key:
	mkdir -p .local
	$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@
	chmod 600 $@

migrate: install .local/secret_key
	$(BIN)/python manage.py migrate --noinput

play: migrate
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python manage.py seed_demo
	@echo "The cardroom is at http://$(HOST):$(PORT)/ (Ctrl-C stops it)"
	$(BIN)/daphne -b $(HOST) -p $(PORT) --websocket_connect_timeout 20 cardroom.asgi:application

# The deployment's shape on this machine (docs/deploy.md): several daphne processes behind
# nginx on loopback, on DATABASE_URL and REDIS_URL, which it requires. Ctrl-C stops them all.
cluster: install .local/secret_key
	$(BIN)/python deploy/cluster.py run --processes $(CLUSTER_PROCESSES) \
		--first-port $(CLUSTER_FIRST_PORT) --port $(CLUSTER_PORT) --clock $(CLUSTER_CLOCK)

test: install
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/pytest -n 2 --dist loadgroup -q -rs

# Lighthouse's accessibility and best-practices scores of the lobby and a table page (player
# and spectator), desktop and mobile, on a demo in a temporary database: fails below 95
# (tests/lighthouse/run.py; reports in test-artifacts/lighthouse/, docs/accessibility.md).
lighthouse: install
	$(BIN)/python -m tests.lighthouse.run

# The import contracts too (pyproject.toml, [tool.importlinter]): which package may import which.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy games accounts cardroom

bench: install
	$(BIN)/python -m games bench

clean:
	rm -rf $(VENV) node_modules staticfiles .local db.sqlite3

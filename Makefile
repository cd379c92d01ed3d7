# Deckhall: `make run` serves the site with demo data; `make test` runs lint + the whole suite;
# `make venue` serves an event to players' phones on the LAN (see README "Venue mode").
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?= -n 2

.PHONY: run venue test lint format migrate demo bench clean messages messages-extract lock

$(VENV)/bin/activate:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is required (set PYTHON=/path/to/python3.11)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# requirements.txt and requirements-test.txt are locks (every transitive dependency pinned and hashed),
# compiled from the short requirements*.in by `make lock`: every install is the same program.
$(VENV)/.installed: requirements.txt $(VENV)/bin/activate
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r requirements.txt
	touch $@

$(VENV)/.installed-test: requirements.txt requirements-test.txt $(VENV)/.installed
	$(PY) -m pip install --quiet --require-hashes -r requirements-test.txt
	touch $@

# Recompile the locks after editing requirements*.in (keeps current pins unless UPGRADE=--upgrade).
# uv runs from a throwaway venv of its own: it is a tool for maintainers, not a dependency of the site.
UV_VERSION := 0.13.9
LOCK_FLAGS := --generate-hashes --python-version 3.11 --universal --quiet $(UPGRADE)
lock:
	@[ -x .lock-venv/bin/uv ] || { $(PYTHON) -m venv .lock-venv && .lock-venv/bin/pip install --quiet uv==$(UV_VERSION); }
	.lock-venv/bin/uv pip compile requirements.in -o requirements.txt $(LOCK_FLAGS)
	.lock-venv/bin/uv pip compile requirements-test.in -c requirements.txt -o requirements-test.txt $(LOCK_FLAGS)

migrate: $(VENV)/.installed
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

run: demo
	@echo "Serving Deckhall on http://$(HOST):$(PORT)/"
	$(PY) manage.py runserver $(HOST):$(PORT)

# The event server for one laptop: gunicorn on every interface, DEBUG off, snapshots on (README "Venue mode").
venue: $(VENV)/.installed
	DECKHALL_VENUE=1 PORT=$(PORT) $(PY) manage.py venue --port $(PORT)

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(VENV)/.installed-test
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

test: lint
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest $(PYTEST_ARGS)

# Apps with a catalogue of their own; everything else (accounts, config, templates/) is in locale/.
APPS := cards rules decks tournaments

# Extract UI strings into the Russian catalogues: the site chrome (templates/, config/) into locale/,
# each app's into <app>/locale/. Translate the new entries, then `make messages`.
messages-extract: $(VENV)/.installed
	$(PY) manage.py makemessages -l ru --ignore=.venv --ignore=tests --ignore=bench --ignore=staticfiles $(addprefix --ignore=,$(APPS))
	for app in $(APPS); do [ -d $$app/locale ] || continue; \
	  (cd $$app && DECKHALL_EXTRACTING_APP=1 ../$(PY) ../manage.py makemessages -l ru -d django --ignore=.venv) || exit 1; done

messages: $(VENV)/.installed
	$(PY) manage.py compilemessages --ignore=.venv

bench: $(VENV)/.installed-test
	for script in bench/bench_*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) .lock-venv staticfiles .pytest_cache

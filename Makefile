# steplab: `make run` serves the app with a worker; `make test` runs the whole suite.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
FRONT_STAMP := frontend/node_modules/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
# Where `make serve` keeps Celery beat's schedule file.
VAR ?= var
FRONT_SRC := $(shell find frontend/src frontend/index.html frontend/vite.config.ts -type f 2>/dev/null)

.PHONY: install frontend run test lint docs-test docs-site docs-serve bench-import bench-label-quality bench-symbolic-kinds openapi client chromium serve clean

$(STAMP): pyproject.toml clients/python/pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev,ml]'
	$(BIN)/pip install -q -e clients/python
	touch $@

$(FRONT_STAMP): frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund --loglevel=error
	touch $@

frontend/dist/index.html: $(FRONT_STAMP) $(FRONT_SRC)
	cd frontend && npm run build

install: $(STAMP) frontend

frontend: frontend/dist/index.html

# Debian's Chromium for the end-to-end tests (Playwright never downloads a browser here).
chromium:
	@test -x /usr/bin/chromium || { apt-get update -qq && \
		apt-get install -y -qq -o DPkg::Lock::Timeout=300 chromium; }

run: install
	mkdir -p var
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py collectstatic --noinput -v 0
	$(MAKE) --no-print-directory serve

# The web server (gunicorn with gunicorn.conf.py: 2 processes per core x 4 threads) and three
# Celery workers (one for the short `default` queue, also running beat; one for machine work:
# auto-label chunks, rollouts, exports, at a lower OS priority; one for training and PRM
# scoring on the `gpu` queue). Ctrl-C or SIGTERM stops all four and their children (bin/serve).
serve:
	exec bin/serve $(BIN) $(HOST) $(PORT) $(VAR)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# pytest in PYTEST_WORKERS processes (pytest-xdist; docs/benchmarks.md "The test suite's time"
# for the choice): each worker has its own test database, media folder and Celery broker
# database (annotate/settings/test.py); tests marked xdist_group run in one worker together.
# 4 workers by default (the whole suite 18:28 with a serial run beside it on 2 cores, against
# 22-44 minutes serially; its first clean run after the last two order- and load-sensitive tests
# were fixed: docs/benchmarks.md "-n 4 again"); PYTEST_WORKERS=0 runs it in this process.
PYTEST_WORKERS ?= 4
test: install chromium
	cd frontend && npm test --silent
	cd frontend && npm run --silent typecheck
	$(BIN)/ruff check .
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup

# The OpenAPI schema's checked-in copy (tests/api/test_openapi_snapshot.py compares them), as a
# PostgreSQL deployment serves it (no server needed: only the backend's name is used).
openapi: $(STAMP)
	DATABASE_URL=postgres://schema@127.0.0.1:1/schema $(BIN)/python manage.py spectacular --file docs/openapi.yaml

# The Python client's generated part, from docs/openapi.yaml (a test checks it matches).
client: $(STAMP)
	rm -rf clients/python/steplab_client/generated
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/openapi-python-client generate --path docs/openapi.yaml \
		--meta none --config clients/python/openapi-config.yaml \
		--output-path clients/python/steplab_client/generated

# Only the checks of README.md and docs/ (every code block run or parsed, links, examples).
docs-test: $(STAMP)
	$(BIN)/pytest tests/docs -q

# The docs site (mkdocs-material, in its own venv: not an app dependency), built into var/site
# from README.md, docs/, ARCHITECTURE.md and RELIABILITY.md; docs-serve serves it read-only.
DOCS_VENV := var/docs-venv
docs-site:
	test -x $(DOCS_VENV)/bin/mkdocs || { $(PY) -m venv $(DOCS_VENV) && \
		$(DOCS_VENV)/bin/pip install -q mkdocs-material==9.8.1; }
	$(PY) docs/build_site.py var/docs-src
	NO_MKDOCS_2_WARNING=1 $(DOCS_VENV)/bin/mkdocs build -q -f mkdocs.yml

docs-serve: docs-site
	@echo "steplab docs: http://$(HOST):8001/index.html"
	$(PY) -m http.server 8001 --bind $(HOST) --directory var/site

bench-import: $(STAMP)
	$(BIN)/python bench/import_bench.py

# Rewrites the label-quality tables of docs/benchmarks.md (between its label-quality markers).
bench-label-quality: $(STAMP)
	mkdir -p var
	$(BIN)/python bench/label_quality.py --markdown > var/label_quality.md
	$(BIN)/python bench/doc_tables.py docs/benchmarks.md label-quality var/label_quality.md

# The symbolic checker's claim kinds on the ProcessBench dev set (issue 25): stores which kinds
# earned a −1 for this checker version (autolabel/calibration/symbolic_kinds.json) and rewrites
# the tables between the symbolic-kinds markers of README.md and docs/benchmarks.md.
bench-symbolic-kinds: $(STAMP)
	mkdir -p var
	$(BIN)/python bench/symbolic_refutations.py --dev --calibrate --markdown var/symbolic_kinds.md \
		--readme-markdown var/symbolic_kinds_readme.md
	$(BIN)/python bench/doc_tables.py README.md symbolic-kinds var/symbolic_kinds_readme.md
	$(BIN)/python bench/doc_tables.py docs/benchmarks.md symbolic-kinds var/symbolic_kinds.md
	$(BIN)/python bench/label_quality.py --sources symbolic --calibrate --data \
		../shared/data/processbench_dev.jsonl --part develop --on "ProcessBench dev (develop part)"

clean:
	rm -rf var frontend/dist

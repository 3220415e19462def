# Executable Notes on Machine Learning and Statistics
#   make book     build the site into _build/html (strict: any warning fails)
#   make pdf      build the whole book as one PDF through XeLaTeX: _build/latex/book.pdf,
#                 copied to _build/html/book.pdf, where the site links to it
#   make test     unit tests, notebooks (nbval), strict build and browser checks, PDF
#   make test CHAPTER=13
#                 the quick loop for one chapter: its notebook, its modules' unit tests, its
#                 notebook checks and its pages in the browser and JupyterLab (no PDF)
#   make execute  re-run every chapter notebook top to bottom in a fresh kernel, in place,
#                 recording the times for the execution report (status.md)
#   make bench    time the mlnotes algorithms against scikit-learn/SciPy (performance.md);
#                 run it on a quiet machine
#   make bench-suite   what make test costs against its floor (the notebooks alone), by kind
#                 of check (bench/suite.json); LOAD=2 runs two busy processes beside it
#   make bench-pages   how fast the heaviest chapter pages open with and without their math
#                 (after make book; bench/pages.json)
#   make screenshots   PNGs of each chapter (first screen, a theorem, a figure, a table) at
#                 1280 and 390 px, light and dark, with an index page: _build/screenshots/
#                 (after make book; CHAPTER=27 for one chapter)
#   make lab      JupyterLab on the chapters
#   make clean    remove the build and caches (keeps .venv; `make distclean` removes it too)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.requirements-installed
NODE_STAMP := node_modules/.installed
JOBS   ?= auto
NOTEBOOKS := $(sort $(wildcard chapters/*.ipynb))

.PHONY: all book pdf pages bench bench-suite bench-pages test execute lab screenshots clean distclean venv

all: book

# (Re)install only when requirements.txt or pyproject.toml changed since the last install.
$(STAMP): requirements.txt pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

venv: $(STAMP)

# KaTeX (Node.js), which renders the site's math at build time: `npm ci` installs the
# versions pinned in package-lock.json, again only when package*.json changed.
$(NODE_STAMP): package.json package-lock.json
	@command -v node >/dev/null || { echo "make: Node.js (18 or newer) is needed to render the math: apt-get install nodejs npm"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# Generated pages: the index of verified claims (from the notebooks' stored outputs) and
# the execution report (from the times recorded by make execute).
pages: $(STAMP)
	$(BIN)/python tools/claims_index.py
	$(BIN)/python tools/status_page.py

book: pages $(NODE_STAMP)
	$(BIN)/jupyter-book build . -W -n --keep-going

# The PDF, then the site again: the introduction links the PDF once it is in the site.
pdf: pages $(NODE_STAMP)
	$(BIN)/jupyter-book build . --builder pdflatex -W -n --keep-going
	@mkdir -p _build/html
	cp _build/latex/book.pdf _build/html/book.pdf
	$(BIN)/jupyter-book build . -W -n --keep-going

CHAPTER ?=
CH := $(if $(CHAPTER),$(shell printf '%02d' '$(CHAPTER)'),)
test: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile --durations=12 \
	    --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-current-env \
	    $(if $(CH),--chapter=$(CH) tests $(wildcard chapters/$(CH)_*.ipynb),tests chapters)

execute: $(STAMP)
	@for nb in $(NOTEBOOKS); do \
	    $(BIN)/python tools/execute.py "$$nb" || exit 1; \
	done
	$(MAKE) --no-print-directory pages

# Writes bench/results.csv, bench/environment.json, performance.md and bench/speed.png.
bench: $(STAMP)
	$(BIN)/python -m bench.run

LOAD ?= 0
bench-suite: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m bench.suite --load $(LOAD)

bench-pages: $(STAMP)
	$(BIN)/python -m bench.pages

screenshots: $(STAMP)
	$(BIN)/python tools/screenshots.py $(CHAPTER)

lab: $(STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root,) chapters

clean:
	rm -rf _build .pytest_cache .jupyter_cache
	find . -name __pycache__ -not -path './.venv/*' -prune -exec rm -rf {} +
	find . -name .ipynb_checkpoints -not -path './.venv/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) node_modules src/*.egg-info

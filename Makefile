# Executable Notes on Machine Learning and Statistics
#   make book     build the site into _build/html (strict: any warning fails)
#   make pdf      build the whole book as one PDF through XeLaTeX: _build/latex/book.pdf,
#                 copied to _build/html/book.pdf, where the site links to it
#   make test     unit tests, notebooks (nbval), strict build and browser checks
#   make execute  re-run every chapter notebook top to bottom in a fresh kernel, in place,
#                 recording the times for the execution report (status.md)
#   make bench    time the mlnotes algorithms against scikit-learn/SciPy (performance.md);
#                 run it on a quiet machine
#   make lab      JupyterLab on the chapters
#   make clean    remove the build and caches (keeps .venv; `make distclean` removes it too)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.requirements-installed
JOBS   ?= auto
NOTEBOOKS := $(sort $(wildcard chapters/*.ipynb))

.PHONY: all book pdf pages bench test execute lab clean distclean venv

all: book

# (Re)install only when requirements.txt or pyproject.toml changed since the last install.
$(STAMP): requirements.txt pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

venv: $(STAMP)

# Generated pages: the index of verified claims (from the notebooks' stored outputs) and
# the execution report (from the times recorded by make execute).
pages: $(STAMP)
	$(BIN)/python tools/claims_index.py
	$(BIN)/python tools/status_page.py

book: pages
	$(BIN)/jupyter-book build . -W -n --keep-going

pdf: pages
	$(BIN)/jupyter-book build . --builder pdflatex -W -n --keep-going
	@mkdir -p _build/html
	cp _build/latex/book.pdf _build/html/book.pdf

test: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile --durations=12 \
	    --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-current-env \
	    tests chapters

execute: $(STAMP)
	@for nb in $(NOTEBOOKS); do \
	    $(BIN)/python tools/execute.py "$$nb" || exit 1; \
	done
	$(MAKE) --no-print-directory pages

# Writes bench/results.csv, bench/environment.json, performance.md and bench/speed.png.
bench: $(STAMP)
	$(BIN)/python -m bench.run

lab: $(STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root,) chapters

clean:
	rm -rf _build .pytest_cache .jupyter_cache
	find . -name __pycache__ -not -path './.venv/*' -prune -exec rm -rf {} +
	find . -name .ipynb_checkpoints -not -path './.venv/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) src/*.egg-info

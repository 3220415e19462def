# Executable Notes on Machine Learning and Statistics
#   make book     build the site into _build/html (strict: any warning fails)
#   make test     unit tests, notebooks (nbval), strict build and browser checks
#   make execute  re-run every chapter notebook top to bottom in a fresh kernel, in place
#   make lab      JupyterLab on the chapters
#   make clean    remove the build and caches (keeps .venv; `make distclean` removes it too)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.requirements-installed
JOBS   ?= auto
NOTEBOOKS := $(sort $(wildcard chapters/*.ipynb))

.PHONY: all book test execute lab clean distclean venv

all: book

# (Re)install only when requirements.txt or pyproject.toml changed since the last install.
$(STAMP): requirements.txt pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

venv: $(STAMP)

book: $(STAMP)
	$(BIN)/jupyter-book build . -W -n --keep-going

test: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile --durations=12 \
	    --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-current-env \
	    tests chapters

execute: $(STAMP)
	@for nb in $(NOTEBOOKS); do \
	    $(BIN)/python tools/execute.py "$$nb" || exit 1; \
	done

lab: $(STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root,) chapters

clean:
	rm -rf _build .pytest_cache .jupyter_cache
	find . -name __pycache__ -not -path './.venv/*' -prune -exec rm -rf {} +
	find . -name .ipynb_checkpoints -not -path './.venv/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) src/*.egg-info

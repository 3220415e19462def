"""The project's set-up: pinned requirements, the book configuration, and the promises of the README."""
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_requirements_are_pinned_exactly():
    lines = [ln.strip() for ln in (ROOT / "requirements.txt").read_text().splitlines()]
    reqs = [ln for ln in lines if ln and not ln.startswith("#")]
    assert "-e ." in reqs, "the helper package must be installed editable"
    pins = dict(re.fullmatch(r"([A-Za-z0-9_.\-\[\]]+)==(\S+)", r).groups() for r in reqs if r != "-e .")
    assert len(pins) == len(reqs) - 1, "every requirement must be pinned with =="
    names = {k.lower().replace("_", "-") for k in pins}
    for needed in ["jupyter-book", "sphinx-proof", "sphinx-exercise", "numpy", "scipy", "matplotlib",
                   "scikit-learn", "statsmodels", "nbval", "pytest", "pytest-xdist", "hypothesis", "playwright",
                   "jupyterlab", "jupyterlab-myst"]:
        assert needed in names, f"{needed} is not pinned in requirements.txt"
    assert {k.lower(): v for k, v in pins.items()}["jupyter-book"] == "1.0.4.post1"


def test_book_configuration():
    cfg = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert cfg["only_build_toc_files"] is True
    assert cfg["execute"]["execute_notebooks"] == "off"
    assert cfg["html"]["use_download_button"] is True
    assert cfg["launch_buttons"]["thebe"] is False
    sphinx = cfg["sphinx"]
    assert {"sphinx_proof", "sphinx_exercise"} <= set(sphinx["extra_extensions"])
    assert sphinx["local_extensions"] == {"book_html": "_ext/", "katex_math": "_ext/"}
    assert sphinx["config"]["html_math_renderer"] == "katex"
    assert sphinx["config"]["html_context"]["default_mode"] == "auto"
    macros = sphinx["config"]["math_macros"]
    for name in ["bracka", "brackb", "brackc", "brackd", "abs", "norm", "dby", "argmax", "argmin", "const", "loss"]:
        assert name in macros, f"macro \\{name} is not defined in _config.yml"
    assert cfg["bibtex_bibfiles"] == ["references.bib"]
    assert (ROOT / cfg["html"]["favicon"]).exists()


def test_readme_gives_the_two_commands_and_gitignore_the_build():
    readme = (ROOT / "README.md").read_text()
    assert "make book" in readme and "make test" in readme
    ignored = (ROOT / ".gitignore").read_text().split()
    assert {".venv/", "_build/", "node_modules/"} <= set(ignored)
    assert (ROOT / "LICENSE").read_text().count("CC BY 4.0") >= 1
    assert "MIT" in (ROOT / "LICENSE").read_text()


def _public_objects():
    """(name, module, object) for every function and class that an mlnotes module defines and
    lists in its ``__all__`` (names it re-exports from another module are skipped)."""
    import importlib
    import inspect
    import pkgutil

    import mlnotes

    for info in sorted(pkgutil.iter_modules(mlnotes.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"mlnotes.{info.name}")
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name)
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ == mod.__name__:
                yield name, info.name, obj


def test_public_names_with_one_meaning():
    """Two modules may export the same name only for the same signature: `from mlnotes.a import
    f` and `from mlnotes.b import f` must not call differently (a re-export is one object)."""
    import collections
    import inspect

    seen = collections.defaultdict(list)
    for name, module, obj in _public_objects():
        seen[name].append((module, str(inspect.signature(obj))))
    clashes = {name: defs for name, defs in seen.items() if len({sig for _, sig in defs}) > 1}
    assert not clashes, "public names of mlnotes with different signatures in different modules:\n" + "\n".join(
        f"  {name}: " + "; ".join(f"{m}{sig}" for m, sig in defs) for name, defs in sorted(clashes.items()))

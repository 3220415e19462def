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

"""Execute a chapter notebook top to bottom in a fresh ``python3`` kernel, in place.

Usage: python tools/execute.py chapters/06_linear_models.ipynb [...]

Also refreshes the front matter of the first Markdown cell (the LaTeX macros of
_config.yml, for JupyterLab; see tools/frontmatter.py). The notebook runs with its own folder as the working directory, exactly as
``pytest --nbval`` and JupyterLab run it. Prints the wall-clock time of each notebook and
records it, with the Python and package versions, in ``bench/execution.json``, from which
``tools/status_page.py`` writes the book's status page.
"""
import json
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from frontmatter import macros_from_config, sync

ROOT = Path(__file__).resolve().parents[1]
TIMES = ROOT / "bench" / "execution.json"  # read by tools/status_page.py
PACKAGES = ("numpy", "scipy", "scikit-learn", "matplotlib", "ipykernel", "nbclient", "jupyter-book",
            "myst-nb", "sphinx")


def _coalesce_streams(outputs):
    """Merge consecutive stdout (or stderr) chunks, which arrive split at random places."""
    merged = []
    for out in outputs:
        prev = merged[-1] if merged else None
        if (out.output_type == "stream" and prev is not None and prev.output_type == "stream"
                and prev.name == out.name):
            prev.text += out.text
        else:
            merged.append(out)
    return merged


def execute(path):
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    sync(nb, macros_from_config())  # the LaTeX macros, for JupyterLab (see frontmatter.py)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    client = NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - start
    for cell in nb.cells:  # keep stored notebooks free of per-run noise
        cell.get("metadata", {}).pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = _coalesce_streams(cell.outputs)
    nbformat.write(nb, path)
    return elapsed


def record(path, seconds, log=TIMES):
    """Store the execution time of a notebook, with the versions it ran with, in ``log``."""
    import platform
    from importlib.metadata import version

    log.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(log.read_text()) if log.exists() else {}
    data["python"] = platform.python_version()
    data["packages"] = {p: version(p) for p in PACKAGES}
    data.setdefault("notebooks", {})[Path(path).stem] = {
        "seconds": round(seconds, 2), "date": time.strftime("%Y-%m-%d")}
    data["notebooks"] = dict(sorted(data["notebooks"].items()))
    log.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def main(paths):
    if not paths:
        print(__doc__)
        return 2
    for p in paths:
        seconds = execute(p)
        if Path(p).resolve().parent == ROOT / "chapters":  # not for copies run elsewhere
            record(p, seconds)
        print(f"{p}: executed in {seconds:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

from mlnotes.checks import claim

SPECS = {
    "show_source": (lambda: dict(obj=claim, docstring="summary"), {"obj": "object", "docstring": "choice"}),
}
EXEMPT = {}

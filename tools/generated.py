"""The command line shared by the scripts that write a generated page of the book.

``python tools/<script>.py`` writes the page when its text changed; with ``--check`` it
writes nothing and exits 1 if the page is out of date.
"""
import argparse


def write_or_check(argv, page, render, description):
    """Write ``render()`` to ``page`` (a Path), or with ``--check`` only compare; exit code."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help=f"exit 1 if {page.name} is out of date; write nothing")
    check = parser.parse_args(argv).check
    text = render()
    current = page.read_text() if page.exists() else None
    if check:
        if current != text:
            print(f"{page.name} is out of date: run python tools/{parser.prog}")
            return 1
        return 0
    if current != text:
        page.write_text(text)
        print(f"wrote {page.name}")
    return 0

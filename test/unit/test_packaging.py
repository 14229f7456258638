"""The installed distribution contains every package of the source tree."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_every_package_is_listed_in_pyproject() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    locations = {name: ROOT / path for name, path in setuptools["package-dir"].items()}
    for top in ("relax_dialect", *locations):
        base = locations.get(top, ROOT / top)
        for init in base.rglob("__init__.py"):
            relative = init.parent.relative_to(base).parts
            assert ".".join((top, *relative)) in listed, f"{init.parent} is not packaged"

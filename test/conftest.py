"""The suite runs call_tir as the tools do: on the lowered interpreter, wired once here
(a test of the tools would wire it anyway, and the wiring is global).

Files marked ``heavy`` (``pytestmark``) come first, the others after them from the most
tests to the fewest: ``pytest -n auto --dist loadfile`` hands whole files to the workers in
this order, so the long compilations of a cold cache do not start last, while the other
worker has nothing left to run (xdist's own order, by number of tests alone, ended on them)."""

from collections import Counter

import pytest

from relax_xdsl.lowering import wire_tir_executor

wire_tir_executor()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "heavy: the file takes 10 s of CPU or more with a cold compile cache"
    )
    if hasattr(config.option, "loadscopereorder"):  # pytest-xdist: keep the order below
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tests = Counter(item.path for item in items)
    heavy = {item.path for item in items if item.get_closest_marker("heavy")}
    items.sort(key=lambda item: (item.path not in heavy, -tests[item.path]))

"""Generated from the pattern files (``relax_dialect.canonicalization``): every pattern
class a file defines is in its ``PATTERNS``, says what it rewrites in a one-line
docstring, and roots on operations that carry the ``Canonicalized`` trait, through
which ``canonicalize`` finds it (``patterns_for``); the random-program tester runs
``canonicalize``."""

from __future__ import annotations

import inspect
import sys
from importlib import import_module
from pathlib import Path
from types import ModuleType

import pytest
from xdsl.ir import Operation
from xdsl.traits import HasCanonicalizationPatternsTrait
from xdsl.transforms.canonicalize import CanonicalizePass

from relax_dialect import canonicalization
from relax_dialect.canonicalization import PATTERN_FILES, all_patterns, patterns_for
from relax_dialect.dialect import OPERATIONS
from relax_dialect.ops.traits import Canonicalized
from relax_dialect.rewriting.patterns import RootedPattern

sys.path.insert(0, str(Path(__file__).parents[1] / "passes"))

PACKAGE = Path(canonicalization.__file__).parent
FILES: dict[str, ModuleType] = {
    name: import_module(f"{canonicalization.__name__}.{name}") for name in PATTERN_FILES
}


def defined(module: ModuleType) -> list[type[RootedPattern]]:
    """The concrete pattern classes ``module`` defines (not those it imports)."""
    return [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, RootedPattern)
        and value.__module__ == module.__name__
        and not inspect.isabstract(value)
    ]


PATTERN_CLASSES = {cls.__name__: cls for module in FILES.values() for cls in defined(module)}


def test_every_pattern_file_is_listed() -> None:
    on_disk = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert on_disk == set(PATTERN_FILES)


@pytest.mark.parametrize("name", PATTERN_FILES)
def test_a_file_lists_every_pattern_it_defines(name: str) -> None:
    module = FILES[name]
    listed = [type(p) for p in module.PATTERNS]
    assert len(listed) == len(set(listed)), f"{name}.PATTERNS lists a pattern twice"
    assert set(listed) == set(defined(module)), (
        f"{name}.py: defined but not in PATTERNS: "
        f"{sorted(c.__name__ for c in set(defined(module)) - set(listed))}; "
        f"in PATTERNS but defined elsewhere: "
        f"{sorted(c.__name__ for c in set(listed) - set(defined(module)))}"
    )


def test_all_patterns_are_the_files_patterns_in_order() -> None:
    expected = [p for name in PATTERN_FILES for p in FILES[name].PATTERNS]
    assert list(all_patterns()) == expected


@pytest.mark.parametrize("name", sorted(PATTERN_CLASSES))
def test_a_pattern_says_what_it_rewrites_in_one_line(name: str) -> None:
    cls = PATTERN_CLASSES[name]
    doc = vars(cls).get("__doc__")
    assert doc and doc.strip(), f"{name} has no docstring of its own"
    first = doc.strip().splitlines()[0].rstrip()
    assert first.endswith("."), f"{name}: the first line does not end the sentence: {first!r}"


@pytest.mark.parametrize("name", sorted(PATTERN_CLASSES))
def test_a_pattern_roots_on_canonicalized_operations(name: str) -> None:
    root = PATTERN_CLASSES[name].root
    assert isinstance(root, tuple) and root, f"{name} has no root"
    for kind in root:
        assert isinstance(kind, type) and issubclass(kind, Operation), (name, kind)
        matched = [op for op in OPERATIONS if issubclass(op, kind)]
        assert matched, f"{name}: no Relax operation is a {kind.__name__}"
        lacking = [op.name for op in matched if not op.has_trait(Canonicalized)]
        assert not lacking, f"{name} roots on operations without Canonicalized: {lacking}"


@pytest.mark.parametrize("name", sorted(PATTERN_CLASSES))
def test_canonicalize_finds_a_pattern_for_its_roots(name: str) -> None:
    """What xDSL's ``canonicalize`` asks an operation: its one
    ``HasCanonicalizationPatternsTrait`` gives the pattern for each operation of
    its root, and only for those."""
    pattern = next(p for p in all_patterns() if type(p) is PATTERN_CLASSES[name])
    for op in OPERATIONS:
        traits = op.get_traits_of_type(HasCanonicalizationPatternsTrait)
        found = [p for trait in traits for p in trait.get_patterns(op)]
        assert found == list(patterns_for(op)), op.name
        assert (pattern in found) == issubclass(op, pattern.root), (name, op.name)


def test_patterns_for_keeps_the_files_order() -> None:
    for op in OPERATIONS:
        order = [all_patterns().index(p) for p in patterns_for(op)]
        assert order == sorted(order), op.name


def test_the_random_program_tester_runs_canonicalize() -> None:
    tester = import_module("test_pass_semantics")
    assert tester.AVAILABLE["canonicalize"]() is CanonicalizePass
    assert not tester.missing("canonicalize")
    seeds = [
        case.values[1]
        for case in tester.cases()
        if case.values[0] == "canonicalize" and not case.marks  # pyright: ignore
    ]
    assert seeds == list(range(tester.SEEDS))

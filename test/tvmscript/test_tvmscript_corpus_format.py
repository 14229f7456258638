"""The TVMScript corpus keeps its conventions (no TVM needed; ``validate_corpus.py`` checks the
programs themselves against TVM 0.25)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest
from inputs import INT_HIGH, INT_LOW, generate_inputs, parse_run_spec

HERE = Path(__file__).resolve().parent
CORPUS = sorted((HERE / "corpus").glob("*.py"))
ERRORS = sorted((HERE / "errors").glob("*.py"))
NEWER = sorted((HERE / "corpus_newer").glob("*.py"))
IMPORTS = "from tvm.script import ir as I, relax as R, tirx as T"
NOT_RUNNABLE = re.compile(
    r"R\.call_packed|R\.call_pure_packed|R\.call_inplace_packed|R\.call_dps_packed|R\.print"
    r"|R\.assert_op|R\.call_tir|T\.prim_func"
)
ERROR_LINE = re.compile(r"^# error: (?P<line>\d+):(?P<col>\d+): (?P<message>\S.*)$")


def _first_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.strip())


def test_sizes() -> None:
    assert len(CORPUS) >= 110
    assert len(ERRORS) >= 25
    assert len(NEWER) == 5


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_file(path: Path) -> None:
    text = path.read_text()
    assert re.fullmatch(r"\d{3}_\w+\.py", path.name)
    assert _first_line(text).startswith(('"""', "#"))
    assert "# ruff: noqa" in text
    assert IMPORTS in text.splitlines()
    assert "@I.ir_module" in text and "class Module:" in text
    ast.parse(text)
    if "T.prim_func" in text:
        assert "call_tir" in path.name
    spec = parse_run_spec(text)
    if spec is not None:
        assert not NOT_RUNNABLE.search(text), "a run spec on a program TVM cannot run alone"


def test_numbers_are_unique() -> None:
    for paths in (CORPUS, ERRORS, NEWER):
        numbers = [path.name[:3] for path in paths]
        assert len(numbers) == len(set(numbers))


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: p.name)
def test_error_file(path: Path) -> None:
    lines = path.read_text().splitlines()
    match = ERROR_LINE.match(lines[0])
    assert match, "first line must be '# error: LINE:COL: message'"
    line, col = int(match["line"]), int(match["col"])
    assert 1 <= line <= len(lines)
    assert lines[line - 1][col - 1 :].strip(), "the position must point at code"
    assert lines[-1] in ("# tvm: rejects", "# tvm: accepts")


@pytest.mark.parametrize("path", NEWER, ids=lambda p: p.name)
def test_newer_file(path: Path) -> None:
    text = path.read_text()
    assert _first_line(text).startswith(('"""', "#"))
    ast.parse(text)


def test_run_spec() -> None:
    assert parse_run_spec("x = 1\n") is None
    spec = parse_run_spec('"""doc"""\n# run: main n=3 m=5\n')
    assert spec is not None and spec.entry == "main" and spec.sizes == {"n": 3, "m": 5}
    with pytest.raises(ValueError):
        parse_run_spec("# run: main n=three\n")


def test_inputs_are_deterministic() -> None:
    params = [
        ("x", (3, 4), "float32"),
        ("i", (5,), "int32"),
        ("b", (2, 2), "bool"),
        ("s", (), "float16"),
    ]
    first = generate_inputs(params, seed=0)
    again = generate_inputs(list(reversed(params)), seed=0)
    for name, shape, dtype in params:
        assert first[name].shape == shape and first[name].dtype == np.dtype(dtype)
        np.testing.assert_array_equal(first[name], again[name])
    assert first["i"].min() >= INT_LOW and first["i"].max() < INT_HIGH
    other = generate_inputs(params, seed=1)
    assert not np.array_equal(first["x"], other["x"])

"""The TVMScript frontend on the corpus: every program is read and well formed,
every runnable one runs, every invalid one fails where and how its header says."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from corpus_harness import (
    CORPUS,
    ERRORS,
    NEWER,
    context,
    diagnostics,
    load,
    run_corpus_program,
    run_spec,
)

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.frontends.tvmscript.printer import print_tvmscript

ERROR_HEADER = re.compile(r"^# error: (?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")


@pytest.mark.parametrize("path", CORPUS + NEWER, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_program_is_read_and_well_formed(path: Path) -> None:
    load(path)


@pytest.mark.parametrize(
    "path", [p for p in CORPUS + NEWER if run_spec(p)], ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_runnable_corpus_program_runs(path: Path) -> None:
    def arrays(value: object) -> list[np.ndarray]:
        if isinstance(value, tuple):
            return [a for field in value for a in arrays(field)]
        return [np.asarray(value)] if isinstance(value, np.ndarray) else []

    result = run_corpus_program(path)
    assert arrays(result) or result is not None


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: p.name)
def test_invalid_program_fails_at_the_stated_place(path: Path) -> None:
    header = ERROR_HEADER.match(path.read_text().splitlines()[0])
    assert header is not None
    _, found = diagnostics(path)
    assert found, "accepted"
    first = found[0]
    assert first.location is not None
    where = (first.location.line, first.location.column)
    assert where == (int(header["line"]), int(header["col"])), str(first)
    assert header["message"] in first.message


@pytest.mark.parametrize(
    ("source", "message"),
    [("def f(:\n", "invalid syntax"), ("y = (1\n", "invalid syntax: '(' was never closed")],
)
def test_python_syntax_error_message_is_not_repeated(source: str, message: str) -> None:
    with pytest.raises(DiagnosticError) as caught:
        parse_tvmscript(source, "bad.py")
    assert [d.message for d in caught.value.diagnostics] == [message]


@pytest.mark.parametrize(
    "path",
    [p for p in CORPUS + NEWER if "T.prim_func" not in p.read_text()],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_round_trip_through_tvmscript_is_a_fixed_point(path: Path) -> None:
    """TVMScript -> dialect -> TVMScript -> dialect: the second reading prints the
    same dialect text and the same TVMScript as the first."""
    first = load(path)
    text = print_tvmscript(first)
    second = parse_tvmscript(text, "first.py", ctx=context())
    again = print_tvmscript(second)
    third = parse_tvmscript(again, "second.py", ctx=context())
    assert again == text
    assert str(third) == str(second)

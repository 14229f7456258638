"""The frontend's fast paths read what the general ones read: annotations set
aside before Python's parser (``placeholders``), binding annotations read once
per text, operator inference memoised."""

from __future__ import annotations

import ast
import io
import warnings
from pathlib import Path

import pytest
from corpus_harness import CORPUS, ERRORS, NEWER, context
from xdsl.printer import Printer

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.tvmscript import placeholders
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.ops.operator import OperatorOp
from relax_dialect.ops.placement import place

PROGRAMS = CORPUS + NEWER + ERRORS
FRONTEND_LIT = sorted((Path(__file__).parents[1] / "filecheck" / "tvmscript").glob("*.py"))


def reading(text: str) -> str:
    """The module ``text`` defines in generic form with every location (or the
    diagnostics), for comparing two ways of reading it."""
    try:
        module = parse_tvmscript(text, "input.py", ctx=context())
    except DiagnosticError as error:
        return str(error)
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=True, print_debuginfo=True).print_op(module)
    return stream.getvalue()


def pieces(path: Path) -> list[str]:
    return path.read_text().split("# -----")


@pytest.mark.parametrize("path", PROGRAMS + FRONTEND_LIT, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reading_with_annotations_set_aside_is_unchanged(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = [reading(text) for text in pieces(path)]
    monkeypatch.setattr(placeholders, "parse", lambda source, name: (ast.parse(source, name), {}))
    assert [reading(text) for text in pieces(path)] == fast


def test_windows_line_endings_read_the_same() -> None:
    text = next(p.read_text() for p in CORPUS if placeholders.parse(p.read_text(), "input.py")[1])
    windows = text.replace("\n", "\r\n")
    assert placeholders.parse(windows, "input.py")[1]
    assert reading(windows) == reading(text)


@pytest.mark.parametrize(
    "line",
    [
        'y: R.Tensor((1if True else 2,), dtype="float32") = R.add(x, x)',
        'y: R.Tensor((4,), dtype="float32") = R.add(x, 1if True else 2)',
    ],
    ids=["in an annotation", "elsewhere"],
)
def test_python_warns_as_it_would(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    source = f"x = 1\n{line}\n"

    def warned() -> list[tuple[object, ...]]:
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            placeholders.parse(source, "input.py")
        return [(w.category, str(w.message), w.filename, w.lineno) for w in found]

    fast = warned()
    monkeypatch.setattr(placeholders, "parse", lambda source, name: (ast.parse(source, name), {}))
    assert fast and warned() == fast


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_annotations_set_aside_parse_back_to_the_same_tree(path: Path) -> None:
    source = path.read_text()
    try:
        expected = ast.parse(source)
    except SyntaxError:
        with pytest.raises(SyntaxError):
            placeholders.parse(source, "input.py")
        return
    tree, set_aside = placeholders.parse(source, "input.py")
    for node in ast.walk(tree):
        annotation = getattr(node, "annotation", None)
        if isinstance(node, ast.AnnAssign) and isinstance(annotation, ast.Name):
            position = (annotation.lineno, annotation.col_offset)
            if (text := set_aside.pop(position, None)) is not None:
                node.annotation = placeholders.annotation_node(text, position)
    assert set_aside == {}
    assert ast.dump(tree, include_attributes=True) == ast.dump(expected, include_attributes=True)


BINDING = 'y: R.Tensor((4,), dtype="float32") = R.add(x, x)'


@pytest.mark.parametrize(
    "source",
    [
        f'"""A docstring quoting a binding:\n{BINDING}\n"""\n',
        f"def f(\n{BINDING},\n):\n    pass\n",
        f"{BINDING.replace('((4,)', '((4,),,')}\n",
        f"{BINDING}\nx = (\n",
        f"# é\n{BINDING.replace('y:', 'yé:')}\n",
    ],
    ids=["in a string", "a parameter", "not an expression", "syntax error", "non-ASCII"],
)
def test_annotations_are_set_aside_only_where_they_annotate_bindings(source: str) -> None:
    try:
        expected = ast.dump(ast.parse(source), include_attributes=True)
    except SyntaxError as error:
        with pytest.raises(SyntaxError) as raised:
            placeholders.parse(source, "input.py")
        assert (raised.value.msg, raised.value.lineno, raised.value.offset) == (
            error.msg,
            error.lineno,
            error.offset,
        )
        return
    tree, set_aside = placeholders.parse(source, "input.py")
    assert set_aside == {}
    assert ast.dump(tree, include_attributes=True) == expected


def test_an_annotation_read_before_is_read_again_where_its_names_differ() -> None:
    source = """
@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        y: R.Tensor((n,), dtype="float32") = R.add(x, x)
        return y

    @R.function
    def g(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        n = R.add(x, x)
        y: R.Tensor((n,), dtype="float32") = R.add(x, x)
        return y
"""
    with pytest.raises(DiagnosticError, match=r"input.py:13:22: .*'n' is not a symbolic variable"):
        parse_tvmscript(source, "input.py", ctx=context())


@pytest.mark.parametrize("path", CORPUS + NEWER, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_memoised_inference_is_the_inference(path: Path) -> None:
    try:
        module = parse_tvmscript(path.read_text(), str(path), ctx=context())
    except DiagnosticError:
        return
    for op in module.walk():
        if isinstance(op, OperatorOp):
            inferred = type(op).infer_type.__wrapped__(op)  # pyright: ignore
            operand_types = [operand.type for operand in op.operands]
            assert op.infer_type() == place(op.name, op.PLACEMENT, operand_types, inferred)

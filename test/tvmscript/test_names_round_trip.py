"""Every source name survives reading and printing: for each program of the
corpora, the examples and the TVMScript lit inputs, the names the source gives
(functions, parameters, bindings, results of ``if``), collected with ``ast``,
are the names of the TVMScript printed from it, directly and through the MLIR
text (TVMScript → dialect → MLIR → dialect → TVMScript)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from corpus_harness import CORPUS, NEWER, context

from relax_dialect.frontends.mlir import parse_module
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.frontends.tvmscript.printer import print_tvmscript
from relax_dialect.memo_printer import print_module

ROOT = Path(__file__).parents[2]
LIT = ROOT / "test/filecheck/tvmscript"
PROGRAMS = [
    p
    for p in [
        *CORPUS,
        *NEWER,
        *sorted((ROOT / "examples").glob("*.py")),
        *sorted(LIT.glob("*.py")),
    ]
    if "T.prim_func" not in p.read_text() and not p.name.startswith("invalid")
]

Names = dict[str, set[str]]
"""The names each global function defines (its own, its parameters', its
bindings', those of the functions nested in it), by function."""


def source_names(text: str) -> Names:
    """The names the functions of a TVMScript module define; the declarations of
    symbolic variables (``n = T.int64()``) and ``cls = Module`` are not values."""
    tree = ast.parse(text)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    members = classes[0].body if classes else tree.body
    module = classes[0].name if classes else None
    return {
        function.name: _defined(function, module)
        for function in members
        if isinstance(function, ast.FunctionDef)
    }


def _defined(function: ast.FunctionDef, module: str | None) -> set[str]:
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.FunctionDef):
            names |= {node.name, *(arg.arg for arg in node.args.args)}
        elif isinstance(node, ast.Assign) and not _declaration(node.value, module):
            names |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _declaration(value: ast.expr, module: str | None) -> bool:
    """``n = T.int64()``, ``n = TypeVar("n")``, ``cls = Module``."""
    if isinstance(value, ast.Name):
        return value.id == module
    func = value.func if isinstance(value, ast.Call) else None
    kind = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return kind in ("TypeVar", "Var") or (kind.startswith(("int", "uint")) and not value.args)  # pyright: ignore


def lost(source: Names, printed: str) -> Names:
    """The source names each function of ``printed`` lacks."""
    found = source_names(printed)
    return {f: missing for f, names in source.items() if (missing := names - found.get(f, set()))}


def _ids(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("path", PROGRAMS, ids=_ids)
def test_source_names_survive_printing(path: Path) -> None:
    text = path.read_text()
    source = source_names(text)
    module = parse_tvmscript(text, str(path), ctx=context())
    through_mlir = parse_module(context(), print_module(module), "printed.mlir")
    assert lost(source, print_tvmscript(module)) == {}
    assert lost(source, print_tvmscript(through_mlir)) == {}


def test_names_are_collected() -> None:
    """The collection itself: parameters, bindings, unpacked tuples, nested
    functions, both branches of an ``if``; no symbolic variable, no ``cls``."""
    source = """
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), "float32"), w_12: R.Prim("bool")):
        n = T.int64()
        cls = Module
        a, b = (x, x)
        if w_12:
            r = R.add(a, b)
        else:
            r: R.Tensor(("n",), "float32") = x
        @R.function
        def inner(v: R.Object):
            return v
        return r
"""
    assert source_names(source) == {"main": {"main", "x", "w_12", "a", "b", "r", "inner", "v"}}
    assert lost(source_names(source), source.replace("w_12", "w")) == {"main": {"w_12"}}

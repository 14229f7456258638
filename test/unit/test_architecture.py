"""The layers of the product code (``docs/architecture.md``): imports point one way,
and no module imports, at its top or inside a function, a module that imports it
back."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {
    "relax_dialect": "relax_dialect",
    "lowering": "relax_xdsl.lowering",
    "tools": "relax_xdsl.tools",
}
"""Each product folder and the package it is installed as."""


def _modules() -> dict[str, Path]:
    found = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = [package, *path.relative_to(ROOT / folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _run_time_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a module that may run: all but ``if TYPE_CHECKING:`` blocks."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            continue
        yield node
        yield from _run_time_nodes(node)


def _imported(module: str, path: Path) -> Iterator[str]:
    """The product modules ``module`` imports, anywhere in its text (a function's
    deferred import too, not a type checker's): ``from P import name`` imports
    ``P.name`` when that is a module, else ``P``; importing ``a.b.c`` imports ``a.b``
    too, unless it is one of ``module``'s own packages (imported before it anyway)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    own = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
    for node in _run_time_nodes(ast.parse(path.read_text(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        for target in targets:
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                name = ".".join(parts[:i])
                if name in MODULES and name != module and (name == target or name not in own):
                    yield name


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Each module and the modules it imports (read when a test asks: parsing every module
    took 2.8 s of each xdist worker's collection)."""
    return {module: set(_imported(module, path)) for module, path in MODULES.items()}


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for successor in sorted(_graph()[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = [stack.pop()]
            while component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(_graph()):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle() -> None:
    assert _cycles() == []


LAYERS: list[tuple[str, set[str]]] = [
    ("relax_xdsl.tools", {"relax_xdsl.tools"}),
    ("relax_xdsl.lowering", {"relax_xdsl.tools"}),
    ("relax_dialect", {"relax_xdsl"}),
    ("relax_dialect.ops", {f"relax_dialect.{p}" for p in ("frontends", "passes", "interpreter")}),
    ("relax_dialect.types", {"relax_dialect.ops", "relax_dialect.passes"}),
    ("relax_dialect.struct_info", {"relax_dialect.ops", "relax_dialect.passes"}),
    ("relax_dialect.prim_expr", {"relax_dialect.types", "relax_dialect.struct_info"}),
]
"""Each module prefix and the prefixes it must not import (a layer above it)."""


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


@pytest.mark.parametrize(("prefix", "above"), LAYERS, ids=[layer for layer, _ in LAYERS])
def test_imports_point_down(prefix: str, above: set[str]) -> None:
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in _graph().items()
        if _under(module, prefix)
        for target in targets
        if any(_under(target, higher) and not _under(target, prefix) for higher in above)
    )
    assert wrong == []


def test_symbolic_expressions_need_no_xdsl() -> None:
    """The symbolic-expression module and its simplifier stand alone."""
    for name in ("relax_dialect.prim_expr", "relax_dialect.prim_expr_simplify"):
        tree = ast.parse(MODULES[name].read_text())
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        } | {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not any(m.startswith("xdsl") for m in imported), name


def test_the_graph_sees_the_product() -> None:
    """The test reads the product's modules and their imports (it cannot pass empty)."""
    assert len(MODULES) > 100
    assert "relax_dialect.ops.operator" in _graph()["relax_dialect.ops.unary"]
    assert "relax_dialect.dialect" in _graph()["relax_dialect.universe"]  # a deferred import

"""Whatever the input format, the checker sees the same module: every input of the
test corpora (the TVMScript corpora and errors, the lit tests, the examples), printed as MLIR
and as TVMScript and read back, gets the verdict it got; an accepted one comes
back as the same module: the same MLIR text, and, through TVMScript (which
writes leaves inline and every attribute, as TVM does), the same TVMScript text."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from relax_dialect import frontends
from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.mlir import forget_resources
from relax_dialect.frontends.tvmscript.printer import print_tvmscript
from relax_dialect.memo_printer import MemoMLIRTarget
from relax_dialect.ops.functions import FunctionOp
from relax_dialect.well_formed import check_well_formed

pytestmark = pytest.mark.heavy

ROOT = Path(__file__).parents[2]
LIT = ROOT / "test" / "filecheck"
INPUTS = [
    *sorted((ROOT / "test" / "tvmscript").glob("corpus*/*.py")),
    *sorted((ROOT / "test" / "tvmscript" / "errors").glob("*.py")),
    *sorted(p for p in LIT.rglob("*.py") if not {"Inputs", "Output"} & set(p.parts)),
    *sorted(p for p in LIT.rglob("*.mlir") if "Output" not in p.parts),  # not lit's output
    *sorted((ROOT / "examples").glob("*.py")),
    *sorted((ROOT / "examples").glob("*.mlir")),
]
"""The inputs: TVMScript programs and MLIR files, each of ``// -----`` chunks (the lit
tests' plugin inputs, which are Python but no TVMScript, left out)."""


@pytest.fixture(scope="module")
def ctx() -> Context:
    return frontends.default_context()


def read(ctx: Context, frontend: str, text: str) -> ModuleOp | None:
    """The module of ``text`` (None: the reader rejects it)."""
    forget_resources(ctx)
    try:
        return frontends.lookup(frontend).read(ctx, text, "input")
    except DiagnosticError:
        return None


def print_module(ctx: Context, module: ModuleOp, generic: bool = False) -> str:
    """``module``'s MLIR text with its ``dialect_resources`` section, as relax-opt writes it."""
    stream = StringIO()
    MemoMLIRTarget(print_generic_format=generic).emit(ctx, module, stream)
    return stream.getvalue()


def accepted(module: ModuleOp | None) -> bool:
    return module is not None and not check_well_formed(module)


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_printed_and_read_back_the_checker_sees_the_same_module(ctx: Context, path: Path) -> None:
    frontend = frontends.select(path.read_bytes(), str(path))
    marker = frontend.split_marker
    chunks = path.read_text().split(marker) if marker else [path.read_text()]
    for index, chunk in enumerate(chunks):
        where = f"{path.name} chunk {index}"
        module = read(ctx, frontend.name, chunk)
        if module is None:
            continue
        verdict = accepted(module)
        # custom syntax cannot say all that is wrong
        text = print_module(ctx, module, generic=not verdict)
        again = read(ctx, "mlir", text)
        assert accepted(again) == verdict, f"{where}: the verdict changes through MLIR"
        if not verdict:
            continue
        assert print_module(ctx, again) == text, f"{where}: the module changes through MLIR"  # pyright: ignore[reportArgumentType]
        if not any(isinstance(op, FunctionOp) for op in module.body.block.ops):
            continue  # no Relax function: nothing TVMScript writes
        script = print_tvmscript(module)
        back = read(ctx, "tvmscript", script)
        assert accepted(back), f"{where}: rejected through TVMScript"
        assert print_tvmscript(back) == script, f"{where}: the module changes through TVMScript"  # pyright: ignore[reportArgumentType]

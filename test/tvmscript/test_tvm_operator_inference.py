"""Operator inference against TVM 0.25 on a grid of cases (skipped without ``tvm``):
each case builds the operator with TVM's ``BlockBuilder`` and with this dialect on the
same operand types (static, symbolic, unknown shapes and ranks, unknown data types);
both must infer the same StructInfo, or both reject the call."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from test_tvm_differential import agree, read_tvm
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.utils.exceptions import ParseError, VerifyException

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module

tvm = pytest.importorskip("tvm", reason="needs apache-tvm 0.25")
from tvm import relax, tirx  # noqa: E402

SYMBOLS = {name: tirx.Var(name, "int64") for name in ("n", "m", "h", "w")}


def tvm_shape(dims: str) -> list:
    return [int(d) if d.strip().isdigit() else SYMBOLS[d.strip()] for d in dims.split(",")]


@dataclass(frozen=True)
class Operand:
    """A tensor operand: ``dims`` ("n, 3"), or unknown dims of ``ndim`` (-1: rank unknown)."""

    dims: str | None
    dtype: str = "float32"
    ndim: int = -1

    def ours(self) -> str:
        dtype = {"float32": ", f32", "float16": ", f16", "int32": ", i32", "": ""}[self.dtype]
        if self.dims is not None:
            return f"!relax.tensor<[{self.dims}]{dtype}>"
        rank = "" if self.ndim < 0 else f"ndim = {self.ndim}"
        return f"!relax.tensor<{rank}{dtype if rank else dtype.lstrip(', ')}>"

    def theirs(self, name: str) -> relax.Var:
        if self.dims is not None:
            sinfo = relax.TensorStructInfo(tvm_shape(self.dims), self.dtype or None)
        else:
            sinfo = relax.TensorStructInfo(dtype=self.dtype or None, ndim=self.ndim)
        return relax.Var(name, sinfo)


@dataclass(frozen=True)
class Case:
    name: str
    operands: tuple[Operand, ...]
    ours: str
    """The binding, operands ``%a``, ``%b``."""
    theirs: Callable[..., relax.Expr]


def load(text: str) -> ModuleOp:
    context = Context()
    context.load_dialect(Builtin)
    context.load_dialect(Relax)
    return parse_module(context, text, "case.mlir")


def check(case: Case) -> None:
    names = ["a", "b"][: len(case.operands)]
    params = ", ".join(f"%{n}: {o.ours()}" for n, o in zip(names, case.operands, strict=True))
    text = f"relax.function @main({params}) -> !relax.object {{\n  %r = {case.ours}\n  relax.return %r\n}}\n"
    block_builder = relax.BlockBuilder()
    try:
        call = case.theirs(*(o.theirs(n) for n, o in zip(names, case.operands, strict=True)))
        theirs = read_tvm(str(block_builder.normalize(call).struct_info))
    except Exception:  # TVM rejects the call
        theirs = None
    try:
        module = load(text)
    except (VerifyException, DiagnosticError, ParseError):
        assert theirs is None, f"{case.name}: TVM infers {theirs}, we reject"
        return
    ours = next(op for op in module.walk() if op.name == case.ours.split()[0]).results[0].type
    assert theirs is not None, f"{case.name}: TVM rejects, we infer {ours}"
    assert agree(ours, theirs), f"{case.name}: ours {ours}, TVM {theirs}"


F = Operand
DATA = [F("2, 3, h, w"), F("n, 8, 5, 7", "float16"), F(None, ndim=4), F(None), F("1, 3, 4, 4", "")]

GRID_SAMPLE = [
    Case(
        f"grid_sample-{k}-{method}-{layout}",
        (data, grid),
        f'relax.image.grid_sample %a, %b {{method = "{method}", layout = "{layout}"}}',
        lambda a, b, method=method, layout=layout: relax.op.image.grid_sample(
            a, b, method=method, layout=layout
        ),
    )
    for k, (data, grid) in enumerate(
        itertools.product(DATA[2:], [F("2, m, m, m"), F("n, 4, 4, 4"), F(None, ndim=4)])
    )
    for method in ("bilinear", "nearest")
    for layout in ("NCHW", "NHWC")
]
"""Cases where TVM 0.25's grid_sample inference (output sizes from the grid's dims 1
and 2) and ours (dims 2 and 3, as its kernel computes) agree: unknown shapes, and
grids whose dims 1, 2 equal dims 2, 3."""

ROI_ALIGN = [
    Case(
        f"roi_align-{k}-{layout}-{pooled}",
        (data, rois),
        f"relax.vision.roi_align %a, %b {{pooled_size = [{pooled}], spatial_scale = 0.5, "
        f'layout = "{layout}"}}',
        lambda a, b, layout=layout, pooled=pooled: relax.op.vision.roi_align(
            a, b, [int(p) for p in pooled.split(",")], 0.5, layout=layout
        ),
    )
    for k, (data, rois) in enumerate(
        itertools.product(
            [*DATA, F("2, 3, 4"), F("1, 2, 3, 4, 5")],
            [F("m, 5"), F("7, 5", "float16"), F("m, 4"), F("m, n"), F(None, ndim=2), F("5")],
        )
    )
    for layout in ("NCHW", "NHWC")
    for pooled in ("2, 3", "4")
]

MAPS = {
    "split": ("(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)", lambda i, j: (i // 4, j, i % 4)),
    "transpose": ("(d0, d1) -> (d1, d0)", lambda i, j: (j, i)),
    "fuse": ("(d0, d1) -> (d0 * 3 + d1)", lambda i, j: (i * 3 + j,)),
    "nested": (
        "(d0, d1) -> (d0 floordiv 8, (d0 floordiv 4) mod 2, d0 mod 4, d1)",
        lambda i, j: (i // 8, i // 4 % 2, i % 4, j),
    ),
    "mod-of-split": ("(d0, d1) -> ((d0 mod 4) floordiv 2, d1)", lambda i, j: (i % 4 // 2, j)),
    "scaled": ("(d0, d1) -> (d0 * 2, d1)", lambda i, j: (i * 2, j)),
    "offset": ("(d0, d1) -> (d0 - d1 + 5, d1)", lambda i, j: (i - j + 5, j)),
    "shifted": ("(d0, d1) -> (d0 + 1, d1)", lambda i, j: (i + 1, j)),
}
LAYOUT_TRANSFORM = [
    Case(
        f"layout_transform-{name}-{k}",
        (data,),
        f"relax.layout_transform %a {{index_map = affine_map<{ours}>}}",
        lambda a, theirs=theirs: relax.op.layout_transform(a, theirs),
    )
    for name, (ours, theirs) in MAPS.items()
    for k, data in enumerate(
        [
            F("n, 3"),
            F("10, 3"),
            F("2, 5"),
            F("16, m"),
            F("4, 6"),
            F(None, ndim=2),
            F(None),
            F("n, 3, 2"),
        ]
    )
]


@pytest.mark.parametrize("case", GRID_SAMPLE + ROI_ALIGN + LAYOUT_TRANSFORM, ids=lambda c: c.name)
def test_inference_agrees_with_tvm(case: Case) -> None:
    check(case)

"""Differential test of ``quantize``, ``dequantize``, ``index_tensor``, ``index_put``,
``slice_scatter`` and ``median`` against TVM 0.25 (skipped without ``tvm``).

Each case is one call in TVMScript on parameters of a grid of types (static,
symbolic, rank-only and unknown shapes; accepted and rejected data types and
attributes). TVM and our frontend read the same program: both reject it, or
both accept it and infer the same StructInfo. The runnable cases are also
built with TVM for llvm and run on random inputs, and must compute what our
reference interpreter computes.

Run it as ``test_tvm_differential.py`` says (a Python with TVM and this project).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from corpus_harness import binding_struct_info, diagnostics

from relax_dialect.interpreter import run

tvm_oracle = pytest.importorskip("tvm_oracle", reason="needs apache-tvm 0.25")
from test_tvm_differential import agree, read_tvm  # noqa: E402


@dataclass(frozen=True)
class Call:
    """``r = EXPR`` in ``main(PARAMS)``; ``inputs`` draws runnable arguments."""

    params: str
    expr: str
    inputs: tuple[tuple[str, tuple[int, ...], str, str], ...] = ()
    """Per parameter, for a run: name, shape, NumPy data type and how to draw it
    (``normal``, ``wide``: normal times 200 with NaN and infinities, ``ints:LOW:HIGH``
    uniform in ``[LOW, HIGH)``, ``distinct:LOW:HIGH`` without repeats)."""

    def text(self) -> str:
        symbolic = '"n"' in self.params
        lines = [
            "# ruff: noqa",
            *(["# run: main"] if self.inputs else []),
            "from tvm.script import ir as I, relax as R, tirx as T",
            "",
            "",
            "@I.ir_module",
            "class Module:",
            "    @R.function",
            f"    def main({self.params}):",
            *(["        n = T.int64()"] if symbolic else []),
            f"        r = {self.expr}",
            "        return r",
        ]
        return "\n".join(lines) + "\n"


def tensor(shape: str | None, dtype: str = "float32", ndim: int = -1) -> str:
    """A TVMScript tensor annotation: ``shape`` as written (``"(n, 4)"``), or rank only."""
    if shape is None:
        return f'R.Tensor(dtype="{dtype}", ndim={ndim})'
    return f'R.Tensor({shape}, dtype="{dtype}")'


# --- the grid ------------------------------------------------------------------------

QUANTIZE_DATA = [
    ("(2, 3)", "float32"),
    ('("n", 3)', "float32"),
    ("(2, 3)", "float16"),
    ("(2, 3)", "float64"),
    ("()", "float32"),
    (None, "float32"),
]
DEQUANTIZE_DATA = [
    ("(2, 3)", "int8"),
    ('("n", 3)', "uint16"),
    ("(2, 3)", "int32"),
    ("(2, 3)", "float16"),
    ("(2, 3)", "int64"),
    ("(2, 3)", "uint32"),
]
PARAMETERS = [
    ("()", "float32", "()", "int8"),
    ("(3,)", "float32", "(3,)", "uint8"),
    ("(2,)", "float16", "(2,)", "int32"),
    ('("n",)', "float32", '("n",)', "int16"),
    ("(1, 1)", "float32", "(1,)", "float16"),
    ("(3, 2)", "float32", "()", "uint32"),
    ("()", "float64", "()", "int8"),
    ("()", "float32", "()", "float32"),
    ("()", "float32", "()", "int64"),
]


def quantization() -> Iterator[tuple[str, Call]]:
    for op, data_types, out_dtypes in (
        ("quantize", QUANTIZE_DATA, ["int8", "uint8", "int16", "uint16", "int32"]),
        ("dequantize", DEQUANTIZE_DATA, ["float32", "float16", "float64"]),
    ):
        grid = itertools.product(data_types, PARAMETERS, (-1, 0, 1, -3))
        for (shape, dtype), (s_shape, s_dtype, z_shape, z_dtype), axis in grid:
            params = (
                f"x: {tensor(shape, dtype, 2)}, s: {tensor(s_shape, s_dtype)}, "
                f"z: {tensor(z_shape, z_dtype)}"
            )
            yield (
                f"{op}-{shape}-{dtype}-{s_shape}-{s_dtype}-{z_dtype}-axis{axis}",
                Call(params, f"R.{op}(x, s, z, axis={axis})"),
            )
        for out_dtype in out_dtypes:
            data = data_types[0][1]
            params = f"x: {tensor('(2, 3)', data)}, s: {tensor('()')}, z: {tensor('()', 'int8')}"
            yield f"{op}-out-{out_dtype}", Call(params, f'R.{op}(x, s, z, out_dtype="{out_dtype}")')
    yield (
        "quantize-unknown-rank",
        Call(
            f"x: {tensor(None, ndim=-1)}, s: {tensor('()')}, z: {tensor('()', 'int8')}",
            "R.quantize(x, s, z)",
        ),
    )


INDEX_TENSORS = [
    ("(2,)", "int64"),
    ("(3, 1)", "int32"),
    ('("n",)', "int64"),
    ("(1,)", "int8"),
    ("(2,)", "uint8"),
    ("(2,)", "float32"),
    (None, "int64"),
    ("(2,)", ""),
]
INDEXED_DATA = ['(4, 5, "n")', "(4, 5)", None, "(3,)"]


def indexing() -> Iterator[tuple[str, Call]]:
    for data in INDEXED_DATA:
        for count, kinds in ((1, INDEX_TENSORS), (2, INDEX_TENSORS), (3, INDEX_TENSORS[:3])):
            for indices in itertools.combinations_with_replacement(kinds, count):
                params = ", ".join(
                    [f"x: {tensor(data, ndim=2)}"]
                    + [
                        f"i{k}: {tensor(shape, dtype, 1)}"
                        for k, (shape, dtype) in enumerate(indices)
                    ]
                )
                names = ", ".join(f"i{k}" for k in range(count))
                key = f"{data}-{'-'.join(f'{s}{d}' for s, d in indices)}"
                yield f"index_tensor-{key}", Call(params, f"R.index_tensor(x, ({names},))")
                values = f", v: {tensor('(2,)')}"
                yield f"index_put-{key}", Call(params + values, f"R.index_put(x, ({names},), v)")
    for values, dtype in (("(2,)", "float32"), ("(2,)", "float16"), (None, "float32")):
        v = tensor(values, dtype, ndim=1)
        params = f"x: {tensor('(4,)')}, i: {tensor('(2,)', 'int64')}, v: {v}"
        for accumulate in (False, True):
            yield (
                f"index_put-single-{values}-{accumulate}",
                Call(params, f"R.index_put(x, i, v, accumulate={accumulate})"),
            )


SLICES = [(0, 4, 2), (1, 3, 1), (0, 0, 1), (2, 1, 1), (0, 4, 0), (-2, 2, 1), (0, "n", 1), (1, 9, 4)]
SOURCES = [
    ("(3, 2)", "float32"),
    ('(3, "n")', "float32"),
    ("(2, 2)", "float32"),
    ("(3, 4)", "float32"),
    ("(3, 2)", "int32"),
    (None, "float32"),
    ("(3,)", "float32"),
]


def slices() -> Iterator[tuple[str, Call]]:
    for data in ["(3, 4)", '(3, "n")', None]:
        grid = itertools.product(SOURCES, SLICES, (1, -2, 2))
        for (src, dtype), (start, end, step), axis in grid:
            params = f"x: {tensor(data, ndim=2)}, s: {tensor(src, dtype, ndim=2)}"
            if end == "n" and '"n"' not in params:
                continue
            bounds = ", ".join(f"R.prim_value({v})" for v in (start, end, step))
            yield (
                f"slice_scatter-{data}-{src}-{start}-{end}-{step}-axis{axis}",
                Call(params, f"R.slice_scatter(x, s, {bounds}, axis={axis})"),
            )


def medians() -> Iterator[tuple[str, Call]]:
    shapes = [('(2, 3, "n")', -1), ("(4,)", -1), ("()", -1), (None, 1), (None, 3), (None, -1)]
    axes = (None, 0, -1, [0, 2], [1, 1], 3)
    for (shape, ndim), axis, keepdims in itertools.product(shapes, axes, (False, True)):
        params = f"x: {tensor(shape, 'float32', ndim)}"
        yield (
            f"median-{shape}-{ndim}-{axis}-{keepdims}",
            Call(params, f"R.median(x, axis={axis}, keepdims={keepdims})"),
        )


INFERENCE = dict(itertools.chain(quantization(), indexing(), slices(), medians()))


def write(tmp_path: Path, call: Call) -> Path:
    path = tmp_path / "program.py"
    path.write_text(call.text())
    return path


@pytest.mark.parametrize("name", sorted(INFERENCE))
def test_inference_agrees_with_tvm(name: str, tmp_path: Path) -> None:
    path = write(tmp_path, INFERENCE[name])
    module, found = diagnostics(path)
    theirs = tvm_oracle.rejection(path)
    if theirs is not None or found:
        assert found and theirs is not None, f"ours: {found}, TVM: {theirs}"
        return
    assert module is not None
    ours = binding_struct_info(module)[("main", "r")]
    expected = tvm_oracle.binding_struct_info(tvm_oracle.load(path))[("main", "r")]
    assert agree(ours, read_tvm(expected)), f"ours {ours}, TVM {expected}"


# --- numerics ------------------------------------------------------------------------


def runnable(params: str, expr: str, *inputs: tuple[str, tuple[int, ...], str, str]) -> Call:
    return Call(params, expr, inputs)


WIDE, NORMAL = "wide", "normal"
RUNS = {
    "quantize-per-tensor": runnable(
        f"x: {tensor('(6, 5)')}, s: {tensor('()')}, z: {tensor('()', 'int8')}",
        "R.quantize(x, s, z)",
        ("x", (6, 5), "float32", WIDE),
        ("s", (), "float32", "ints:1:3"),
        ("z", (), "int8", "ints:-5:5"),
    ),
    "quantize-per-axis-uint8": runnable(
        f"x: {tensor('(6, 5)')}, s: {tensor('(6,)')}, z: {tensor('(6,)', 'uint8')}",
        'R.quantize(x, s, z, axis=0, out_dtype="uint8")',
        ("x", (6, 5), "float32", WIDE),
        ("s", (6,), "float32", NORMAL),
        ("z", (6,), "uint8", "ints:0:256"),
    ),
    "quantize-f16-data-int16": runnable(
        f"x: {tensor('(4, 6)', 'float16')}, s: {tensor('(6,)', 'float32')}, "
        f"z: {tensor('(6,)', 'float16')}",
        'R.quantize(x, s, z, out_dtype="int16")',
        ("x", (4, 6), "float16", WIDE),
        ("s", (6,), "float32", NORMAL),
        ("z", (6,), "float16", NORMAL),
    ),
    "quantize-f16-int16-overflows": runnable(
        f"x: {tensor('(3, 5)', 'float16')}, s: {tensor('()', 'float16')}, z: {tensor('()', 'int16')}",
        'R.quantize(x, s, z, out_dtype="int16")',
        ("x", (3, 5), "float16", WIDE),
        ("s", (), "float16", "ints:1:4"),
        ("z", (), "int16", "ints:-9:9"),
    ),
    "quantize-f16-uint16-f32-scale": runnable(
        f"x: {tensor('(3, 4)')}, s: {tensor('(1, 1)', 'float16')}, z: {tensor('(1,)', 'int32')}",
        'R.quantize(x, s, z, axis=1, out_dtype="uint16")',
        ("x", (3, 4), "float32", WIDE),
        ("s", (1, 1), "float16", NORMAL),
        ("z", (1,), "int32", "ints:-100:100"),
    ),
    "dequantize-int8": runnable(
        f"x: {tensor('(6, 5)', 'int8')}, s: {tensor('(5,)')}, z: {tensor('(5,)', 'int8')}",
        "R.dequantize(x, s, z)",
        ("x", (6, 5), "int8", "ints:-128:128"),
        ("s", (5,), "float32", NORMAL),
        ("z", (5,), "int8", "ints:-128:128"),
    ),
    "dequantize-uint16-f16-zero-point-to-f16": runnable(
        f"x: {tensor('(4, 3)', 'uint16')}, s: {tensor('()', 'float16')}, "
        f"z: {tensor('()', 'float16')}",
        'R.dequantize(x, s, z, out_dtype="float16")',
        ("x", (4, 3), "uint16", "ints:0:65536"),
        ("s", (), "float16", NORMAL),
        ("z", (), "float16", NORMAL),
    ),
    "dequantize-int32-uint32": runnable(
        f"x: {tensor('(8,)', 'int32')}, s: {tensor('()')}, z: {tensor('()', 'uint32')}",
        "R.dequantize(x, s, z)",
        ("x", (8,), "int32", "ints:-2147483648:2147483648"),
        ("s", (), "float32", NORMAL),
        ("z", (), "uint32", "ints:0:4294967296"),
    ),
    "dequantize-float-to-f16": runnable(
        f"x: {tensor('(8,)')}, s: {tensor('()')}, z: {tensor('()', 'uint8')}",
        'R.dequantize(x, s, z, out_dtype="float16")',
        ("x", (8,), "float32", WIDE),
        ("s", (), "float32", "ints:100:400"),
        ("z", (), "uint8", "ints:0:256"),
    ),
    "index_tensor": runnable(
        f"x: {tensor('(4, 5, 3)')}, i: {tensor('(2, 1)', 'int64')}, j: {tensor('(3,)', 'int32')}",
        "R.index_tensor(x, (i, j))",
        ("x", (4, 5, 3), "float32", NORMAL),
        ("i", (2, 1), "int64", "ints:0:4"),
        ("j", (3,), "int32", "ints:0:5"),
    ),
    "index_put": runnable(
        f"x: {tensor('(4, 5)')}, i: {tensor('(3,)', 'int64')}, j: {tensor('(3,)', 'int64')}, "
        f"v: {tensor('(3,)')}",
        "R.index_put(x, (i, j), v)",
        ("x", (4, 5), "float32", NORMAL),
        ("i", (3,), "int64", "distinct:-4:4"),
        ("j", (3,), "int64", "distinct:0:5"),
        ("v", (3,), "float32", NORMAL),
    ),
    "index_put-accumulate": runnable(
        f"x: {tensor('(6,)', 'int32')}, i: {tensor('(4,)', 'int64')}, v: {tensor('(4,)', 'int32')}",
        "R.index_put(x, (i,), v, accumulate=True)",
        ("x", (6,), "int32", "ints:-9:9"),
        ("i", (4,), "int64", "distinct:-6:6"),
        ("v", (4,), "int32", "ints:-9:9"),
    ),
    "slice_scatter": runnable(
        f"x: {tensor('(3, 8)')}, s: {tensor('(3, 3)')}",
        "R.slice_scatter(x, s, R.prim_value(1), R.prim_value(7), R.prim_value(2), axis=1)",
        ("x", (3, 8), "float32", NORMAL),
        ("s", (3, 3), "float32", NORMAL),
    ),
    "slice_scatter-whole-axis": runnable(
        f"x: {tensor('(4, 2)')}, s: {tensor('(4, 2)')}",
        "R.slice_scatter(x, s, R.prim_value(0), R.prim_value(4), R.prim_value(1), axis=0)",
        ("x", (4, 2), "float32", NORMAL),
        ("s", (4, 2), "float32", NORMAL),
    ),
    "slice_scatter-negative-start": runnable(
        f"x: {tensor('(2, 4)')}, s: {tensor('(2, 9)')}",
        "R.slice_scatter(x, s, R.prim_value(-6), R.prim_value(3), R.prim_value(1), axis=1)",
        ("x", (2, 4), "float32", NORMAL),
        ("s", (2, 9), "float32", NORMAL),
    ),
    "median-all": runnable(
        f"x: {tensor('(5, 4)')}", "R.median(x)", ("x", (5, 4), "float32", NORMAL)
    ),
    "median-axis": runnable(
        f"x: {tensor('(5, 4)')}", "R.median(x, axis=0)", ("x", (5, 4), "float32", NORMAL)
    ),
    "median-axis-keepdims-ties": runnable(
        f"x: {tensor('(3, 6)', 'int32')}",
        "R.median(x, axis=-1, keepdims=True)",
        ("x", (3, 6), "int32", "ints:0:3"),
    ),
    "median-vector-keepdims": runnable(
        f"x: {tensor('(7,)')}", "R.median(x, keepdims=True)", ("x", (7,), "float32", NORMAL)
    ),
}
"""Runnable cases; duplicate positions stay out of ``index_put``, whose TVM kernel
writes them in parallel. In ``f16`` the upper bound of ``i16`` is 32768, which
the conversion wraps to -32768, in TVM as here."""


def draw(shape: tuple[int, ...], dtype: str, how: str, rng: np.random.Generator) -> np.ndarray:
    kind, *bounds = how.split(":")
    if kind in (NORMAL, WIDE):
        data = rng.standard_normal(shape) * (200 if kind == WIDE else 1)
        if kind == WIDE and data.size >= 4:
            data.reshape(-1)[:4] = [np.nan, np.inf, -np.inf, 2.5]
        return data.astype(dtype)
    low, high = map(int, bounds)
    if kind == "distinct":
        return rng.choice(np.arange(low, high), shape, replace=False).astype(dtype)
    return rng.integers(low, high, shape, dtype=np.int64).astype(dtype)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_outputs_agree_with_tvm(name: str, tmp_path: Path) -> None:
    call = RUNS[name]
    path = write(tmp_path, call)
    module, found = diagnostics(path)
    assert module is not None and found == []
    rng = np.random.default_rng(sorted(RUNS).index(name))
    inputs = {key: draw(shape, dtype, how, rng) for key, shape, dtype, how in call.inputs}
    ours = run(module, "main", *inputs.values())
    theirs = tvm_oracle.run(path, inputs)
    pairs = zip(*(v if isinstance(v, tuple) else (v,) for v in (ours, theirs)), strict=True)
    for got, want in pairs:
        got, want = np.asarray(got), np.asarray(want)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)

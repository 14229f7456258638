"""``relax.layout_transform``: the result's shape (TVM's ``IndexMap.map_shape``), the
kernel against a NumPy definition that moves each element in Python, and its index
map read from TVMScript lambdas with ``ast``."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from operator_harness import function
from xdsl.ir.affine import AffineMap

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.frontends.tvmscript.index_maps import index_map_text
from relax_dialect.interpreter import run
from relax_dialect.interpreter.machine import RelaxRuntimeError
from relax_dialect.ops.fusion import OpPattern, operator_pattern
from relax_dialect.ops.index_map import map_shape
from relax_dialect.ops.operator import OperatorOp
from relax_dialect.prim_expr import IntImm, Var, to_text

N, M = Var("n"), Var("m")


@pytest.mark.parametrize(
    ("dims", "mapping", "expected"),
    [
        ([N, M], lambda i, j: (i // 4, j, i % 4), ["(n + 3 * n floormod 4) floordiv 4", "m", "4"]),
        ([10, 3], lambda i, j: (i // 4, j, i % 4), ["3", "3", "4"]),
        ([2, 3], lambda i, j: (i // 4, j, i % 4), ["1", "3", "4"]),  # the split pads
        ([N, 3], lambda i, j: (i * 3 + j,), ["3 * n"]),  # fused
        ([N, 5], lambda i, j: (i * 3 + j,), ["3 * n + 2"]),  # not fusable: the range
        ([16], lambda i: (i // 4 // 2, i // 4 % 2, i % 4), ["2", "2", "4"]),
        ([6, 3], lambda i, j: (i % 4 // 2, j), ["2", "3"]),
        ([4, 4], lambda i, j: (i * 2, j), ["8", "4"]),  # a scaled iterator
        ([4, 6], lambda i, j: (i - j + 5, j), ["9", "6"]),
    ],
)
def test_map_shape_as_tvm(dims, mapping, expected) -> None:
    """The expected shapes are TVM 0.25's (``relax.op.layout_transform``'s inference)."""
    dims = [IntImm(d) if isinstance(d, int) else d for d in dims]
    shape = map_shape("op", AffineMap.from_callable(mapping), dims)
    assert [to_text(d) for d in shape] == expected


def moved(x: np.ndarray, mapping, shape: tuple[int, ...], pad: float) -> np.ndarray:
    """Each element of ``x`` moved, one by one, to ``mapping(index)``."""
    out = np.full(shape, pad, x.dtype)
    for index in itertools.product(*map(range, x.shape)):
        out[mapping(*index)] = x[index]
    return out


@pytest.mark.parametrize(
    ("shape", "index_map", "mapping", "result", "pad"),
    [
        ((6, 3), "d0 floordiv 4, d1, d0 mod 4", lambda i, j: (i // 4, j, i % 4), (2, 3, 4), 0.0),
        ((6, 3), "d0 floordiv 4, d1, d0 mod 4", lambda i, j: (i // 4, j, i % 4), (2, 3, 4), 1.5),
        ((3, 4), "d1, d0", lambda i, j: (j, i), (4, 3), 0.0),
        ((3, 4), "d0 * 4 + d1", lambda i, j: (i * 4 + j,), (12,), 0.0),
        ((4, 6), "d0 - d1 + 5, d1", lambda i, j: (i - j + 5, j), (9, 6), -2.0),
        ((5, 2), "d0 * 2, d1", lambda i, j: (i * 2, j), (10, 2), 9.0),
    ],
)
def test_elements_move_and_the_rest_is_padding(shape, index_map, mapping, result, pad) -> None:
    names = ", ".join(f"d{k}" for k in range(len(shape)))
    dims = ", ".join(map(str, shape))
    program = function(
        f"%x: !relax.tensor<[{dims}], f32>",
        f"%y = relax.layout_transform %x {{index_map = affine_map<({names}) -> ({index_map})>, "
        f"pad_value = {pad}}}",
    )
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) + 1
    got = run(program, "main", x)
    np.testing.assert_array_equal(got, moved(x, mapping, result, pad))  # pyright: ignore


def test_integer_data_pads_with_zero_by_default() -> None:
    program = function(
        "%x: !relax.tensor<[n, 3], i32>",
        "%y = relax.layout_transform %x {index_map = affine_map<(d0, d1) -> (d0 floordiv 2, d1, d0 mod 2)>}",
    )
    x = np.arange(9, dtype=np.int32).reshape(3, 3) + 1
    got = run(program, "main", x)
    assert got.dtype == np.int32  # pyright: ignore[reportAttributeAccessIssue]
    np.testing.assert_array_equal(got, moved(x, lambda i, j: (i // 2, j, i % 2), (2, 3, 2), 0))  # pyright: ignore


def test_two_elements_to_one_position_is_a_run_time_error() -> None:
    program = function(
        "%x: !relax.tensor<[4, 3], f32>",
        "%y = relax.layout_transform %x {index_map = affine_map<(d0, d1) -> (d0 floordiv 2, d1)>}",
    )
    with pytest.raises(RelaxRuntimeError, match="two elements to one position"):
        run(program, "main", np.zeros((4, 3), np.float32))


def source(binding: str) -> str:
    return f"""from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((8, 3), "float32")):
        y = {binding}
        return y
"""


@pytest.mark.parametrize(
    ("binding", "expected"),
    [
        (
            "R.layout_transform(x, index_map=lambda i, j: (i // 4, j, i % 4))",
            "(i0 // 4, i1, i0 % 4)",
        ),
        ("R.layout_transform(x, T.index_map(lambda a, b: (b, a)))", "(i1, i0)"),
        (
            "R.layout_transform(x, lambda i, j: (T.floordiv(i, 2), j * 2 + T.floormod(i, 2)))",
            "(i0 // 2, 2 * i1 + i0 % 2)",
        ),
    ],
)
def test_index_maps_are_read_from_lambdas(binding: str, expected: str) -> None:
    """Read, then printed with the parameters TVM gives a map of positional arguments."""
    module = parse_tvmscript(source(binding))
    op = next(op for op in module.walk() if op.name == "relax.layout_transform")
    text = index_map_text(op.index_map.data)  # pyright: ignore[reportAttributeAccessIssue]
    assert text == f"T.index_map(lambda i0, i1: {expected})"


@pytest.mark.parametrize(
    ("binding", "message"),
    [
        (
            "R.layout_transform(x, index_map=lambda i, j: (i * j, j))",
            "multiplies only by constants",
        ),
        ("R.layout_transform(x, index_map=lambda i, j: (i // j, j))", "divides only by positive"),
        ("R.layout_transform(x, index_map=lambda *i: i)", "takes plain parameters"),
        ("R.layout_transform(x, index_map=lambda i, j: (i, k))", "'k' is not defined"),
        ("R.layout_transform(x, index_map=[1, 0])", "an index map is a lambda"),
        (
            "R.layout_transform(x, index_map=lambda i: (i,))",
            "the input has 2 dimensions, the index map 1",
        ),
    ],
)
def test_bad_index_maps_are_located_errors(binding: str, message: str) -> None:
    with pytest.raises(DiagnosticError, match=message) as error:
        parse_tvmscript(source(binding), "bad.py")
    assert "bad.py:8:" in str(error.value)


@pytest.mark.parametrize(
    ("shape", "index_map", "kind"),
    [
        ("4, 3", "d0, d1", OpPattern.ELEMWISE),
        ("4, 3", "d1, d0", OpPattern.INJECTIVE),
        ("n, 3", "d1, d0", OpPattern.INJECTIVE),
        ("6, 3", "d0 floordiv 4, d1, d0 mod 4", OpPattern.INJECTIVE),  # pads
        ("n, 3", "d0 floordiv 4, d1, d0 mod 4", OpPattern.INJECTIVE),  # may pad
        ("8, 3", "d0 floordiv 4, d1, d0 mod 4", OpPattern.OPAQUE),
        ("4, 3", "d0 * 3 + d1", OpPattern.OPAQUE),
        ("4, 6", "d1 * 4 + d0", OpPattern.OPAQUE),
    ],
)
def test_fusion_kinds_are_tvms(shape: str, index_map: str, kind: OpPattern) -> None:
    """The kinds TVM 0.25's ``AnnotateTIROpPattern`` gives the legalized operator."""
    program = function(
        f"%x: !relax.tensor<[{shape}], f32>",
        f"%y = relax.layout_transform %x {{index_map = affine_map<(d0, d1) -> ({index_map})>}}",
    )
    op = next(op for op in program.walk() if isinstance(op, OperatorOp))
    assert operator_pattern(op) is kind

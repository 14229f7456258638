"""linalg in the lowered interpreter against NumPy: linalg.generic (broadcast views,
strided and gathered maps, recognised combiners, contractions, the loop fallback,
linalg.index) and the named operations of xDSL's linalg dialect."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from interpreter_harness import run, run_xdsl

RNG = np.random.default_rng(3)


def generic(
    maps: list[str], iterators: list[str], ins: list[str], outs: list[str], body: str
) -> str:
    """@g(ins..., outs...) running one linalg.generic; body yields %v (several: %v0, %v1)."""
    maps_text = ", ".join(f"affine_map<{m}>" for m in maps)
    iterators_text = ", ".join(f'"{kind}"' for kind in iterators)
    params = ", ".join(f"%i{n}: {t}" for n, t in enumerate(ins))
    out_params = ", ".join(f"%o{n}: {t}" for n, t in enumerate(outs))
    element = [re.sub(r"^tensor<(?:[0-9?]+x)*(\w+)>$", r"\1", t) for t in ins + outs]
    block_args = ", ".join(f"%b{n}: {e}" for n, e in enumerate(element))
    in_names = ", ".join(f"%i{n}" for n in range(len(ins)))
    out_names = ", ".join(f"%o{n}" for n in range(len(outs)))
    results = ", ".join(outs)
    yielded = "%v" if len(outs) == 1 else ", ".join(f"%v{n}" for n in range(len(outs)))
    yielded_types = ", ".join(element[len(ins) :])
    return f"""
    func.func @g({params}, {out_params}) -> ({results}) {{
      %r:{len(outs)} = linalg.generic {{indexing_maps = [{maps_text}], iterator_types = [{iterators_text}]}}
          ins({in_names} : {", ".join(ins)}) outs({out_names} : {results}) {{
      ^bb0({block_args}):
        {body}
        linalg.yield {yielded} : {yielded_types}
      }} -> {results}
      func.return {", ".join(f"%r#{n}" for n in range(len(outs)))} : {results}
    }}
    """


def test_broadcast_and_transposed_reads() -> None:
    source = generic(
        ["(d0, d1, d2) -> (d2, d0)", "(d0, d1, d2) -> (d1)", "(d0, d1, d2) -> (d0, d1, d2)"],
        ["parallel"] * 3,
        ["tensor<?x?xf32>", "tensor<?xf32>"],
        ["tensor<?x?x?xf32>"],
        "%v = arith.subf %b0, %b1 : f32",
    )
    a, b = RNG.standard_normal((4, 2)).astype(np.float32), RNG.standard_normal(3).astype(np.float32)
    (result,) = run(source, "g", a, b, np.zeros((2, 3, 4), np.float32))
    np.testing.assert_allclose(result, a.T[:, None, :] - b[None, :, None])


def test_transposed_write_and_constant_yield() -> None:
    source = generic(
        ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d1, d0)", "(d0, d1) -> (d0, d1)"],
        ["parallel"] * 2,
        ["tensor<2x3xf32>"],
        ["tensor<3x2xf32>", "tensor<2x3xf32>"],
        "%v0 = math.exp %b0 : f32\n%v1 = arith.constant 7.0 : f32",
    )
    a = RNG.standard_normal((2, 3)).astype(np.float32)
    exp, sevens = run(source, "g", a, np.zeros((3, 2), np.float32), np.zeros((2, 3), np.float32))
    np.testing.assert_allclose(exp, np.exp(a).T, rtol=1e-6)
    np.testing.assert_array_equal(sevens, np.full((2, 3), 7))


COMBINERS = [
    ("arith.addf", "f32", lambda x, axis: x.sum(axis)),
    ("arith.mulf", "f64", lambda x, axis: x.prod(axis)),
    ("arith.maximumf", "f32", lambda x, axis: x.max(axis)),
    ("arith.minnumf", "f32", lambda x, axis: np.fmin.reduce(x, axis)),
    ("arith.addi", "i32", lambda x, axis: x.sum(axis, dtype=np.int32)),
    ("arith.maxsi", "i16", lambda x, axis: x.max(axis)),
    ("arith.xori", "i64", lambda x, axis: np.bitwise_xor.reduce(x, axis)),
]


@pytest.mark.parametrize(
    ("combiner", "element", "reference"), COMBINERS, ids=[c[0] for c in COMBINERS]
)
@pytest.mark.parametrize("out_first", [False, True])
def test_recognised_combiners(combiner: str, element: str, reference, out_first: bool) -> None:
    operands = "%b1, %b0" if out_first else "%b0, %b1"
    source = generic(
        ["(d0, d1) -> (d1, d0)", "(d0, d1) -> (d0)"],
        ["parallel", "reduction"],
        [f"tensor<?x?x{element}>"],
        [f"tensor<?x{element}>"],
        f"%v = {combiner} {operands} : {element}",
    )
    dtype = np.dtype(
        {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i16": np.int16, "i64": np.int64}[
            element
        ]
    )
    x = (RNG.standard_normal((5, 3)) * 50).astype(dtype)
    init = np.array([1, 2, 3], dtype)
    (result,) = run(source, "g", x, init)
    assert result.dtype == dtype
    combine = {
        "arith.addf": np.add,
        "arith.mulf": np.multiply,
        "arith.maximumf": np.maximum,
        "arith.minnumf": np.fmin,
        "arith.addi": np.add,
        "arith.maxsi": np.maximum,
        "arith.xori": np.bitwise_xor,
    }[combiner]
    np.testing.assert_allclose(result, combine(init, reference(x, 0)), rtol=1e-5)


def test_unrecognised_combiner_loops_over_the_reduction() -> None:
    """argmax: a select on a comparison with the output, and linalg.index."""
    source = generic(
        ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0)", "(d0, d1) -> (d0)"],
        ["parallel", "reduction"],
        ["tensor<?x?xf32>"],
        ["tensor<?xf32>", "tensor<?xi64>"],
        """%j = linalg.index 1 : index
        %jj = arith.index_cast %j : index to i64
        %gt = arith.cmpf ogt, %b0, %b1 : f32
        %v0 = arith.select %gt, %b0, %b1 : f32
        %v1 = arith.select %gt, %jj, %b2 : i64""",
    )
    x = RNG.standard_normal((4, 6)).astype(np.float32)
    values, indices = run(source, "g", x, np.full(4, -np.inf, np.float32), np.zeros(4, np.int64))
    np.testing.assert_array_equal(values, x.max(1))
    np.testing.assert_array_equal(indices, x.argmax(1))


def test_linalg_index_in_parallel_generic() -> None:
    source = (
        generic(
            ["(d0, d1) -> (d0, d1)"],
            ["parallel", "parallel"],
            [],
            ["tensor<3x4xindex>"],
            """%i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %c = arith.constant 10 : index
        %t = arith.muli %i, %c : index
        %v = arith.addi %t, %j : index""",
        )
        .replace("func.func @g(, ", "func.func @g(")
        .replace("ins( : ) ", "")
    )
    (result,) = run(source, "g", np.zeros((3, 4), np.int64))
    np.testing.assert_array_equal(result, np.arange(3)[:, None] * 10 + np.arange(4))


def test_contraction_with_casts_batched() -> None:
    """A batched matmul with i8 inputs accumulating in i32 (one np.matmul)."""
    source = generic(
        ["(b, m, n, k) -> (b, k, m)", "(b, m, n, k) -> (k, n)", "(b, m, n, k) -> (b, m, n)"],
        ["parallel", "parallel", "parallel", "reduction"],
        ["tensor<?x?x?xi8>", "tensor<?x?xi8>"],
        ["tensor<?x?x?xi32>"],
        """%x = arith.extsi %b0 : i8 to i32
        %y = arith.extsi %b1 : i8 to i32
        %p = arith.muli %x, %y : i32
        %v = arith.addi %b2, %p : i32""",
    )
    a = RNG.integers(-128, 128, (2, 5, 3)).astype(np.int8)
    b = RNG.integers(-128, 128, (5, 4)).astype(np.int8)
    init = RNG.integers(-9, 9, (2, 3, 4)).astype(np.int32)
    (result,) = run(source, "g", a, b, init)
    expected = init + np.einsum("bkm,kn->bmn", a.astype(np.int32), b.astype(np.int32))
    np.testing.assert_array_equal(result, expected)


def test_matmul_with_transposed_indexing_maps_and_dot() -> None:
    source = """
    func.func @mm(%a: tensor<3x2xf32>, %b: tensor<4x3xf32>, %o: tensor<2x4xf32>) -> tensor<2x4xf32> {
      %r = linalg.matmul {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
          affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]}
          ins(%a, %b : tensor<3x2xf32>, tensor<4x3xf32>) outs(%o : tensor<2x4xf32>) -> tensor<2x4xf32>
      func.return %r : tensor<2x4xf32>
    }
    """
    a, b = (
        RNG.standard_normal((3, 2)).astype(np.float32),
        RNG.standard_normal((4, 3)).astype(np.float32),
    )
    o = np.ones((2, 4), np.float32)
    (result,) = run(source, "mm", a, b, o)
    np.testing.assert_allclose(result, 1 + a.T @ b.T, rtol=1e-5)
    dot = generic(
        ["(d0) -> (d0)", "(d0) -> (d0)", "(d0) -> ()"],
        ["reduction"],
        ["tensor<?xf64>", "tensor<?xf64>"],
        ["tensor<f64>"],
        "%p = arith.mulf %b0, %b1 : f64\n%v = arith.addf %p, %b2 : f64",
    )
    x, y = RNG.standard_normal(7), RNG.standard_normal(7)
    (result,) = run(dot, "g", x, y, np.array(0.5))
    assert result.shape == () and np.isclose(result, 0.5 + x @ y)


def conv_reference(x, w, strides, dilations):
    """NCHW/FCHW convolution by loops."""
    n, _c, h, wd = x.shape
    f, _, kh, kw = w.shape
    oh = (h - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (wd - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, f, oh, ow), np.float64)
    for i, j in itertools.product(range(kh), range(kw)):
        window = x[:, :, i * dilations[0] :, j * dilations[1] :][
            :, :, : oh * strides[0] : strides[0], : ow * strides[1] : strides[1]
        ]
        out += np.einsum("nchw,fc->nfhw", window, w[:, :, i, j])
    return out


@pytest.mark.parametrize(
    ("strides", "dilations"), [((1, 1), (1, 1)), ((2, 1), (1, 2)), ((2, 3), (2, 1))]
)
def test_conv_2d_nchw_fchw(strides, dilations) -> None:
    x = RNG.standard_normal((2, 3, 11, 12)).astype(np.float32)
    w = RNG.standard_normal((4, 3, 3, 2)).astype(np.float32)
    expected = conv_reference(x, w, strides, dilations)
    out_type = "tensor<" + "x".join(map(str, expected.shape)) + "xf32>"
    source = f"""
    func.func @conv(%x: tensor<2x3x11x12xf32>, %w: tensor<4x3x3x2xf32>, %o: {out_type}) -> {out_type} {{
      %r = linalg.conv_2d_nchw_fchw {{dilations = dense<[{dilations[0]}, {dilations[1]}]> : tensor<2xi64>,
          strides = dense<[{strides[0]}, {strides[1]}]> : tensor<2xi64>}}
          ins(%x, %w : tensor<2x3x11x12xf32>, tensor<4x3x3x2xf32>) outs(%o : {out_type}) -> {out_type}
      func.return %r : {out_type}
    }}
    """
    (result,) = run(source, "conv", x, w, np.zeros(expected.shape, np.float32))
    np.testing.assert_allclose(result, expected, rtol=1e-4, atol=1e-4)


def test_conv_2d_nhwc_hwcf_and_pooling() -> None:
    x = RNG.standard_normal((1, 6, 7, 3)).astype(np.float32)
    w = RNG.standard_normal((2, 2, 3, 5)).astype(np.float32)
    expected = conv_reference(
        x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), (1, 1), (1, 1)
    ).transpose(0, 2, 3, 1)
    source = """
    func.func @conv(%x: tensor<1x6x7x3xf32>, %w: tensor<2x2x3x5xf32>, %o: tensor<1x5x6x5xf32>) -> tensor<1x5x6x5xf32> {
      %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%x, %w : tensor<1x6x7x3xf32>, tensor<2x2x3x5xf32>) outs(%o : tensor<1x5x6x5xf32>) -> tensor<1x5x6x5xf32>
      func.return %r : tensor<1x5x6x5xf32>
    }
    func.func @pool(%x: tensor<1x2x6x6xf32>, %k: tensor<3x3xf32>, %o: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
      %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>}
          ins(%x, %k : tensor<1x2x6x6xf32>, tensor<3x3xf32>) outs(%o : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
      func.return %r : tensor<1x2x2x2xf32>
    }
    """
    (result,) = run(source, "conv", x, w, np.zeros((1, 5, 6, 5), np.float32))
    np.testing.assert_allclose(result, expected, rtol=1e-4, atol=1e-4)
    p = RNG.standard_normal((1, 2, 6, 6)).astype(np.float32)
    (pooled,) = run(
        source, "pool", p, np.zeros((3, 3), np.float32), np.full((1, 2, 2, 2), -np.inf, np.float32)
    )
    np.testing.assert_array_equal(pooled, p.reshape(1, 2, 2, 3, 2, 3).max(axis=(3, 5)))


def test_gathered_view_for_a_sum_of_parallel_loops() -> None:
    """out[i, j] = x[i + j]: a map no strided view expresses."""
    source = generic(
        ["(d0, d1) -> (d0 + d1)", "(d0, d1) -> (d0, d1)"],
        ["parallel", "parallel"],
        ["tensor<6xf32>"],
        ["tensor<3x4xf32>"],
        "%v = arith.addf %b0, %b0 : f32",
    )
    x = np.arange(6, dtype=np.float32)
    (result,) = run(source, "g", x, np.zeros((3, 4), np.float32))
    np.testing.assert_array_equal(result, 2 * (np.arange(3)[:, None] + np.arange(4)))


def test_named_operations() -> None:
    source = """
    func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<2x3xi1>, %v: tensor<3xf32>,
        %o: tensor<2x3xf32>, %t: tensor<3x2xf32>, %r: tensor<2xf32>, %i: tensor<2x3xi32>)
        -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>,
            tensor<2x3xf32>, tensor<2xf32>, tensor<2x3xi32>, tensor<2x3xf32>) {
      %add = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
      %max = linalg.max ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
      %exp = linalg.exp ins(%a : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
      %sel = linalg.select ins(%c, %a, %b : tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
      %tr = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%t : tensor<3x2xf32>) permutation = [1, 0]
      %bc = linalg.broadcast ins(%v : tensor<3xf32>) outs(%o : tensor<2x3xf32>) dimensions = [0]
      %red = linalg.reduce ins(%a : tensor<2x3xf32>) outs(%r : tensor<2xf32>) dimensions = [1]
        (%x: f32, %y: f32) {
          %s = arith.addf %x, %y : f32
          linalg.yield %s : f32
        }
      %cp = linalg.copy ins(%a : tensor<2x3xf32>) outs(%i : tensor<2x3xi32>) -> tensor<2x3xi32>
      %zero = arith.constant 0.5 : f32
      %fill = linalg.fill ins(%zero : f32) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
      func.return %add, %max, %exp, %sel, %tr, %bc, %red, %cp, %fill
          : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>,
            tensor<2x3xf32>, tensor<2xf32>, tensor<2x3xi32>, tensor<2x3xf32>
    }
    """
    a = RNG.standard_normal((2, 3)).astype(np.float32) * 4
    b = RNG.standard_normal((2, 3)).astype(np.float32)
    c = a > b
    v = RNG.standard_normal(3).astype(np.float32)
    r = np.array([1.0, 2.0], np.float32)
    add, mx, exp, sel, tr, bc, red, cp, fill = run(
        source,
        "f",
        a,
        b,
        c,
        v,
        np.zeros((2, 3), np.float32),
        np.zeros((3, 2), np.float32),
        r,
        np.zeros((2, 3), np.int32),
    )
    np.testing.assert_allclose(add, a + b)
    np.testing.assert_allclose(mx, np.maximum(a, b))
    np.testing.assert_allclose(exp, np.exp(a), rtol=1e-6)
    np.testing.assert_allclose(sel, np.where(c, a, b))
    np.testing.assert_array_equal(tr, a.T)
    np.testing.assert_array_equal(bc, np.broadcast_to(v, (2, 3)))
    np.testing.assert_allclose(red, r + a.sum(1), rtol=1e-6)
    assert cp.dtype == np.int32
    np.testing.assert_array_equal(cp, a.astype(np.int32))
    np.testing.assert_array_equal(fill, np.full((2, 3), 0.5))


def test_memref_outputs_are_written_in_place() -> None:
    source = """
    func.func @f(%a: memref<2x2xf32>, %o: memref<2x2xf32>) {
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
          affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
          iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%a, %a : memref<2x2xf32>, memref<2x2xf32>) outs(%o : memref<2x2xf32>) {
      ^bb0(%x: f32, %y: f32, %acc: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
      }
      func.return
    }
    """
    a = np.array([[1, 2], [3, 4]], np.float32)
    o = np.ones((2, 2), np.float32)
    assert run(source, "f", a, o) == []
    np.testing.assert_array_equal(o, 1 + a @ a)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(1, 4), min_size=3, max_size=3),
    st.sampled_from(["(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d0)"]),
    st.booleans(),
)
def test_random_contractions_and_reductions(sizes, a_map, reduce_only) -> None:
    m, n, k = sizes
    a_shape = (m, k) if a_map.endswith("(d0, d2)") else (k, m)
    a = RNG.standard_normal(a_shape)
    b = RNG.standard_normal((k, n))
    a_view = a if a_map.endswith("(d0, d2)") else a.T
    body = "%p = arith.mulf %b0, %b1 : f64\n%v = arith.addf %p, %b2 : f64"
    if reduce_only:
        body = "%p = arith.mulf %b0, %b1 : f64\n%v = arith.maximumf %b2, %p : f64"
    source = generic(
        [a_map, "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"],
        ["parallel", "parallel", "reduction"],
        ["tensor<?x?xf64>", "tensor<?x?xf64>"],
        ["tensor<?x?xf64>"],
        body,
    )
    init = np.zeros((m, n))
    (result,) = run(source, "g", a, b, init)
    products = a_view[:, None, :] * b.T[None, :, :]
    expected = products.sum(-1) if not reduce_only else np.maximum(0, products.max(-1))
    np.testing.assert_allclose(result, expected, rtol=1e-9, atol=1e-12)


def test_same_results_through_xdsls_interpreter() -> None:
    """The kernels registered into xDSL's Interpreter give the same results."""
    source = generic(
        ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0)"],
        ["parallel", "reduction"],
        ["tensor<?x?xf32>"],
        ["tensor<?xf32>"],
        "%e = math.exp %b0 : f32\n%v = arith.addf %b1, %e : f32",
    )
    x = RNG.standard_normal((3, 5)).astype(np.float32)
    init = np.zeros(3, np.float32)
    (ours,) = run(source, "g", x, init)
    (theirs,) = run_xdsl(source, "g", x, init)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_allclose(ours, np.exp(x).sum(1), rtol=1e-5)

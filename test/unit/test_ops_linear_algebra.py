"""matmul, einsum and outer in the interpreter, against NumPy written without einsum."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from operator_harness import function, run_tensor
from xdsl.ir import Block

from relax_dialect.interpreter import RelaxRuntimeError
from relax_dialect.ops.linear_algebra import EinsumOp, OuterOp
from relax_dialect.ops.values import TupleOp
from relax_dialect.prim_expr import Var
from relax_dialect.types import TensorType, struct_info_text


def run_function(params: list[str], body: list[str], result: str, *args: np.ndarray) -> np.ndarray:
    """A function of parameters ``%a, %b, ...`` (typed by ``params``) whose body
    binds ``%r``, returned as ``result`` (checked by the interpreter)."""
    names = "abcdefgh"
    signature = ", ".join(f"%{names[i]}: {t}" for i, t in enumerate(params))
    return run_tensor(function(signature, *body, ret=result), *args)


def random(*shape: int, dtype: str = "float32") -> np.ndarray:
    rng = np.random.default_rng(len(shape) + sum(shape))
    if dtype.startswith("int"):
        return rng.integers(-9, 10, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


# --- matmul -----------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize(
    ("lhs", "rhs", "result", "lhs_shape", "rhs_shape"),
    [
        ("[n, 4]", "[4, 5]", "[n, 5]", ("n", 4), (4, 5)),
        ("[4]", "[n, 4, 5]", "[n, 5]", (4,), ("n", 4, 5)),
        ("[n, 4]", "[4]", "[n]", ("n", 4), (4,)),
        ("[4]", "[4]", "[]", (4,), (4,)),
        ("[1, n, 4]", "[2, 4, 5]", "[2, n, 5]", (1, "n", 4), (2, 4, 5)),
    ],
)
def test_matmul(
    n: int, lhs: str, rhs: str, result: str, lhs_shape: tuple, rhs_shape: tuple
) -> None:
    def bind(shape: tuple) -> tuple[int, ...]:
        return tuple(n if d == "n" else d for d in shape)

    a, b = random(*bind(lhs_shape)), random(*bind(rhs_shape))
    value = run_function(
        [f"!relax.tensor<{lhs}, f32>", f"!relax.tensor<{rhs}, f32>"],
        ["%r = relax.matmul %a, %b"],
        f"!relax.tensor<{result}, f32>",
        a,
        b,
    )
    expected = (a[None] if a.ndim == 1 else a) @ (b[..., None] if b.ndim == 1 else b)
    np.testing.assert_allclose(value, expected.reshape(value.shape), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(("rhs", "rhs_shape"), [("[m, 5]", (3, 5)), ("[m]", (3,))])
def test_matmul_inner_dimensions_that_differ_at_run_time(rhs: str, rhs_shape: tuple) -> None:
    with pytest.raises(RelaxRuntimeError, match=r"relax\.matmul: inner dimensions 4 and 3 differ$"):
        run_function(
            ["!relax.tensor<[n, 4], f32>", f"!relax.tensor<{rhs}, f32>"],
            ["%r = relax.matmul %a, %b"],
            "!relax.object",
            random(2, 4),
            random(*rhs_shape),
        )


def test_matmul_out_dtype_casts_before_multiplying() -> None:
    a = np.full((2, 3), 100, np.int8)
    b = np.full((3, 2), 2, np.int8)
    value = run_function(
        ["!relax.tensor<[2, 3], i8>", "!relax.tensor<[3, 2], i8>"],
        ["%r = relax.matmul %a, %b {out_dtype = i32}"],
        "!relax.tensor<[2, 2], i32>",
        a,
        b,
    )
    np.testing.assert_array_equal(value, np.full((2, 2), 600))
    wrapped = run_function(
        ["!relax.tensor<[2, 3], i8>", "!relax.tensor<[3, 2], i8>"],
        ["%r = relax.matmul %a, %b"],
        "!relax.tensor<[2, 2], i8>",
        a,
        b,
    )
    np.testing.assert_array_equal(wrapped, np.full((2, 2), 600 - 512))


# --- einsum -----------------------------------------------------------------------


def label_broadcast(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``ij,jk->ik`` where x's j has extent 1: x's column times y's column sums."""
    return x[:, :1] * y.sum(axis=0)[None, :]


EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)], lambda x, y: x @ y),
    ("ij,jk", [(3, 4), (4, 5)], lambda x, y: x @ y),
    (" ij , jk -> ki ", [(3, 4), (4, 5)], lambda x, y: (x @ y).T),
    ("Ba,ab", [(2, 3), (3, 4)], lambda x, y: x @ y),
    ("ii", [(4, 4)], np.trace),
    ("ii->i", [(4, 4)], np.diagonal),
    ("ij->ji", [(2, 3)], np.transpose),
    ("ij->", [(2, 3)], np.sum),
    ("i,j->ij", [(3,), (4,)], np.outer),
    ("i,i->", [(5,), (5,)], np.dot),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)], np.matmul),
    ("b...ij,b...jk->b...ik", [(2, 1, 3, 4), (2, 6, 4, 5)], np.matmul),
    ("ij,jk->ik", [(3, 1), (4, 5)], label_broadcast),
    ("ijk,ikl->ijl", [(2, 3, 4), (2, 4, 5)], np.matmul),
]


@pytest.mark.parametrize(("subscripts", "shapes", "reference"), EINSUM_CASES)
def test_einsum(
    subscripts: str, shapes: list[tuple[int, ...]], reference: Callable[..., object]
) -> None:
    arrays = [random(*shape) for shape in shapes]
    names = ", ".join(f"%{'abcdefgh'[i]}" for i in range(len(arrays)))
    value = run_function(
        [f"!relax.tensor<[{', '.join(map(str, s))}], f32>" for s in shapes],
        [f"%t = relax.tuple({names})", f'%r = relax.einsum %t {{subscripts = "{subscripts}"}}'],
        "!relax.object",
        *arrays,
    )
    expected = np.asarray(reference(*arrays))
    assert value.dtype == np.float32 and value.shape == expected.shape
    np.testing.assert_allclose(value, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("n", [1, 2, 5])
def test_einsum_symbolic_batch(n: int) -> None:
    a, b = random(n, 3, 4), random(n, 4, 2)
    value = run_function(
        ["!relax.tensor<[n, 3, 4], f32>", "!relax.tensor<[n, 4, 2], f32>"],
        ["%t = relax.tuple(%a, %b)", '%r = relax.einsum %t {subscripts = "nij,njk->nki"}'],
        "!relax.tensor<[n, 2, 3], f32>",
        a,
        b,
    )
    np.testing.assert_allclose(value, np.transpose(a @ b, (0, 2, 1)), rtol=1e-5, atol=1e-6)


def test_einsum_integers_stay_integers() -> None:
    a, b = random(3, 4, dtype="int32"), random(4, dtype="int32")
    value = run_function(
        ["!relax.tensor<[3, 4], i32>", "!relax.tensor<[4], i32>"],
        ["%t = relax.tuple(%a, %b)", '%r = relax.einsum %t {subscripts = "ij,j->i"}'],
        "!relax.tensor<[3], i32>",
        a,
        b,
    )
    np.testing.assert_array_equal(value, a @ b)


# --- outer ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 4])
def test_outer(n: int) -> None:
    a, b = random(n), random(3)
    value = run_function(
        ["!relax.tensor<[n], f32>", "!relax.tensor<[3], f32>"],
        ["%r = relax.outer %a, %b"],
        "!relax.tensor<[n, 3], f32>",
        a,
        b,
    )
    np.testing.assert_allclose(value, a[:, None] * b[None, :], rtol=1e-6)


def test_outer_takes_the_first_data_type() -> None:
    a = np.array([1, -2], np.int32)
    b = np.array([0.5, 3.0], np.float32)
    value = run_function(
        ["!relax.tensor<[2], i32>", "!relax.tensor<[2], f32>"],
        ["%r = relax.outer %a, %b"],
        "!relax.tensor<[2, 2], i32>",
        a,
        b,
    )
    np.testing.assert_array_equal(value, [[0, 3], [-1, -6]])


# --- building operators from Python --------------------------------------------------


def test_build_infers_the_result_type() -> None:
    block = Block(arg_types=[TensorType([Var("n"), 4], "f32"), TensorType([4], "f32")])
    a, b = block.args
    assert struct_info_text(OuterOp.build([b, b]).result_type) == "tensor<[4, 4], f32>"
    pair = TupleOp([a, b])
    block.add_op(pair)
    einsum = EinsumOp.build([pair.result], subscripts="ij,j->i")
    assert struct_info_text(einsum.result_type) == "tensor<[n], f32>"

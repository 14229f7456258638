"""Lowering of the shape manipulation operators: reference interpreter vs the bundled
interpreter vs the MLIR toolchain, at several values of the symbolic size ``n``."""

from __future__ import annotations

import numpy as np
import pytest
from convert_harness import load, lower, native_available
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    bools,
    floats,
    inputs,
    ints,
    lowered_main,
    lowering_error,
    operators_of,
    rng,
    sized,
    tensor,
)
from xdsl.ir.affine import AffineMap

from relax_dialect.dtype import DataType
from relax_dialect.interpreter import run
from relax_dialect.ops import manipulate
from relax_dialect.values import PrimValue, ShapeValue
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.interpreter import LoweredCheckError
from relax_xdsl.lowering.ops.manipulate import tiling

pytestmark = pytest.mark.heavy

F32 = "f32"
INT32 = DataType("int", 32)


def one(name: str, params: str, binding: str, *makers) -> Case:
    return Case(name, params, f"%r = {binding}", inputs(*makers))


def x(shape: str, dtype: str = F32) -> str:
    return f"%x: {tensor(shape, dtype)}"


RELAX_DTYPES = {"f32": "float32", "i8": "int8", "i32": "int32", "i64": "int64", "ui8": "uint8"}


def data_of(shape: str, dtype: str, salt: int, nan: bool = False):
    """Data of ``dtype`` (NaN in a few float elements with ``nan``)."""
    dims = [d.strip() for d in shape.split(",")]
    if dtype == "bool":
        return bools(*dims, salt=salt)
    if dtype != "f32":
        return ints(*dims, dtype=RELAX_DTYPES[dtype], low=-5, high=6, salt=salt)
    make = floats(*dims, salt=salt)
    if not nan:
        return make

    def with_nan(n: int) -> np.ndarray:
        data = make(n)
        data.reshape(-1)[::3] = np.nan
        return data

    return with_nan


def positions(shape: str, dtype: str, extents: str, negative: bool):
    """Indices of ``shape`` along the last axis of which coordinate ``k`` is in
    ``[-e, e)`` (``[0, e)`` unless ``negative``) for ``e`` the ``k``-th of
    ``extents`` (one extent: every index in it)."""
    dims = [d.strip() for d in shape.split(",")]
    bounds = [e.strip() for e in extents.split(",")]

    def make(n: int) -> np.ndarray:
        size = sized(dims, n)
        highs = np.array(sized(bounds, n)).reshape(-1 if len(bounds) > 1 else 1)
        fraction = rng(n, 7).random(size)
        low = -highs if negative else 0
        return np.floor(low + fraction * (highs - low)).astype(RELAX_DTYPES[dtype])

    return make


def scatter(
    name: str,
    binding: str,
    shapes: tuple[str, str, str],
    dtypes: tuple[str, str],
    extents: str,
    negative: bool,
    nan: bool,
) -> Case:
    """``%r = BINDING`` of ``%d``, ``%i``, ``%u`` of ``shapes`` (data and updates of
    ``dtypes[0]``, indices of ``dtypes[1]`` within ``extents``)."""
    data, indices, updates = shapes
    dtype, index = dtypes
    return Case(
        name,
        f"%d: {tensor(data, dtype)}, %i: {tensor(indices, index)}, %u: {tensor(updates, dtype)}",
        f"%r = {binding}",
        inputs(
            data_of(data, dtype, 1, nan),
            positions(indices, index, extents, negative),
            data_of(updates, dtype, 3, nan),
        ),
    )


def scatter_elements(
    reduction: str,
    data: str,
    indices: str,
    dtype: str,
    axis: int,
    index: str = "i64",
    nan: bool = False,
) -> Case:
    extent = [d.strip() for d in data.split(",")][axis]
    return scatter(
        f"scatter_elements-{reduction}-{dtype}-{index}-axis{axis}",
        f'relax.scatter_elements %d, %i, %u {{axis = {axis}, reduction = "{reduction}"}}',
        (data, indices, indices),
        (dtype, index),
        extent,
        not index.startswith("u"),
        nan,
    )


def scatter_nd(
    reduction: str, data: str, indices: str, updates: str, dtype: str, nan: bool = False
) -> Case:
    depth = int(indices.split(",")[-1])
    return scatter(
        f"scatter_nd-{reduction}-{dtype}-{indices.replace(', ', 'x')}",
        f'relax.scatter_nd %d, %i, %u {{reduction = "{reduction}"}}',
        (data, indices, updates),
        (dtype, "i64"),
        ", ".join(d.strip() for d in data.split(",")[:depth]) or "1",
        False,
        nan,
    )


CASES = [
    # reshaping
    one("reshape", x("n, 4"), "relax.reshape %x, %s", floats("n", 4)),
    one("reshape-rank0", x(""), "relax.reshape %x, %s", floats()),
    one("reshape-to-rank0", x("1, 1"), "relax.reshape %x, %s", floats(1, 1)),
    one("reshape-same", x("n, 4"), "relax.reshape %x, %s", floats("n", 4)),
    one("reshape-i8", x("2, n, 3", "i8"), "relax.reshape %x, %s", ints(2, "n", 3, dtype="int8")),
    one("reshape-two-dynamic", x("n, m"), "relax.reshape %x, %s", floats("n", "n+1")),
    one("reshape-three-dynamic", x("n, m, 2"), "relax.reshape %x, %s", floats("n", "n+2", 2)),
    one("flatten", x("n, 2, 3"), "relax.flatten %x", floats("n", 2, 3)),
    one("flatten-rank0", x("", "bool"), "relax.flatten %x", bools()),
    one("flatten-1d", x("n"), "relax.flatten %x", floats("n")),
    one("expand_dims", x("n, 3"), "relax.expand_dims %x {axis = [0, -1]}", floats("n", 3)),
    one("expand_dims-middle", x("n, 3"), "relax.expand_dims %x {axis = [1, 3]}", floats("n", 3)),
    one("expand_dims-rank0", x(""), "relax.expand_dims %x {axis = [0, 1]}", floats()),
    one("squeeze", x("1, n, 1, 3"), "relax.squeeze %x {axis = [0, 2]}", floats(1, "n", 1, 3)),
    one("squeeze-all", x("1, 4, 1"), "relax.squeeze %x", floats(1, 4, 1)),
    one("squeeze-to-rank0", x("1, 1", "i32"), "relax.squeeze %x", ints(1, 1)),
    one("squeeze-kept", x("n, 3"), "relax.squeeze %x {axis = [1]}", floats("n", 3)),
    # reordering
    one(
        "permute_dims", x("n, 3, 2"), "relax.permute_dims %x {axes = [2, 0, 1]}", floats("n", 3, 2)
    ),
    one(
        "permute_dims-reverse",
        x("n, 3", "i64"),
        "relax.permute_dims %x",
        ints("n", 3, dtype="int64"),
    ),
    one(
        "permute_dims-identity", x("n, 3"), "relax.permute_dims %x {axes = [0, 1]}", floats("n", 3)
    ),
    one("flip", x("n, 3"), "relax.flip %x {axis = 0}", floats("n", 3)),
    one("flip-last", x("2, n", "bool"), "relax.flip %x {axis = -1}", bools(2, "n")),
    # joining and splitting
    Case(
        "concat",
        f"{x('n, 3')}, %y: {tensor('2, 3', F32)}",
        "%t = relax.tuple(%x, %y, %x)\n%r = relax.concat %t {axis = 0}",
        inputs(floats("n", 3), floats(2, 3, salt=5)),
    ),
    Case(
        "concat-axis1",
        f"{x('2, n')}, %y: {tensor('2, m', F32)}",
        "%t = relax.tuple(%x, %y)\n%r = relax.concat %t {axis = -1}",
        inputs(floats(2, "n"), floats(2, "n+2", salt=5)),
    ),
    Case(
        "concat-one",
        x("n"),
        "%t = relax.tuple(%x)\n%r = relax.concat %t",
        inputs(floats("n")),
    ),
    Case(
        "stack",
        f"{x('n, 3')}, %y: {tensor('n, 3', F32)}",
        "%t = relax.tuple(%x, %y)\n%r = relax.stack %t {axis = 1}",
        inputs(floats("n", 3), floats("n", 3, salt=5)),
    ),
    Case(
        "stack-last",
        f"{x('n', 'i32')}, %y: {tensor('n', 'i32')}",
        "%t = relax.tuple(%x, %y, %y)\n%r = relax.stack %t {axis = -1}",
        inputs(ints("n"), ints("n", salt=5)),
    ),
    one(
        "split-sections",
        x("n, 4"),
        "relax.split %x {indices_or_sections = 3, axis = 0}",
        floats("n", 4),
    ),
    one(
        "split-indices",
        x("4, n"),
        "relax.split %x {indices_or_sections = [1, 3], axis = 1}",
        floats(4, "n"),
    ),
    one(
        "split-decreasing", x("n"), "relax.split %x {indices_or_sections = [4, 2, -1]}", floats("n")
    ),
    one("split-one", x("n"), "relax.split %x {indices_or_sections = 1}", floats("n")),
    Case(
        "meshgrid-ij",
        f"{x('n')}, %y: {tensor('3', F32)}",
        "%t = relax.tuple(%x, %y)\n%r = relax.meshgrid %t",
        inputs(floats("n"), floats(3, salt=5)),
    ),
    Case(
        "meshgrid-xy",
        f"{x('n', 'i32')}, %y: {tensor('3', 'i32')}, %z: {tensor('2', 'i32')}",
        '%t = relax.tuple(%x, %y, %z)\n%r = relax.meshgrid %t {indexing = "xy"}',
        inputs(ints("n"), ints(3, salt=5), ints(2, salt=6)),
    ),
    # replication
    Case(
        "broadcast_to",
        f"{x('1, 3')}, %y: {tensor('n', F32)}",
        "%s = relax.shape [2, n, 3]\n%r = relax.broadcast_to %x, %s",
        inputs(floats(1, 3), floats("n")),
    ),
    Case(
        "broadcast_to-symbolic",
        f"{x('n, 1')}, %s: !relax.shape<[m, n, 4]>",
        "%r = relax.broadcast_to %x, %s",
        lambda n: [floats("n", 1)(n), ShapeValue((2, n, 4))],
    ),
    one("tile", x("n, 3"), "relax.tile %x {repeats = [2, 1, 3]}", floats("n", 3)),
    one("tile-short", x("2, n", "i8"), "relax.tile %x {repeats = [3]}", ints(2, "n", dtype="int8")),
    one("tile-zero", x("n, 2"), "relax.tile %x {repeats = [0, 2]}", floats("n", 2)),
    one("repeat", x("n, 3"), "relax.repeat %x {repeats = 2, axis = 1}", floats("n", 3)),
    one(
        "repeat-negative-axis",
        x("n, 3"),
        "relax.repeat %x {repeats = 3, axis = -2}",
        floats("n", 3),
    ),
    one("repeat-flat", x("n, 2", "bool"), "relax.repeat %x {repeats = 2}", bools("n", 2)),
    Case(
        "collapse_sum_like",
        f"{x('2, n, 3')}, %y: {tensor('n, 1', F32)}",
        "%r = relax.collapse_sum_like %x, %y",
        inputs(floats(2, "n", 3), floats("n", 1)),
    ),
    Case(
        "collapse_sum_to",
        x("n, 4, 3", "i32"),
        "%s = relax.shape [4, 1]\n%r = relax.collapse_sum_to %x, %s",
        inputs(ints("n", 4, 3)),
    ),
    Case(
        "collapse_sum_to-same",
        x("n, 3"),
        "%s = relax.shape [n, 3]\n%r = relax.collapse_sum_to %x, %s",
        inputs(floats("n", 3)),
    ),
    # gathers
    Case(
        "gather_elements",
        f"{x('n, 4')}, %i: {tensor('n, 2', 'i64')}",
        "%r = relax.gather_elements %x, %i {axis = 1}",
        inputs(floats("n", 4), ints("n", 2, dtype="int64", low=-4, high=4)),
    ),
    Case(
        "gather_elements-axis0",
        f"{x('3, 4', 'i32')}, %i: {tensor('n, 4', 'i32')}",
        "%r = relax.gather_elements %x, %i",
        inputs(ints(3, 4), ints("n", 4, low=-3, high=3)),
    ),
    Case(
        "gather_nd",
        f"{x('4, 3, 2')}, %i: {tensor('n, 2', 'i64')}",
        "%r = relax.gather_nd %x, %i",
        inputs(
            floats(4, 3, 2),
            lambda n: np.stack(
                [ints(n, low=-4, high=4)(n), ints(n, low=0, high=3, salt=9)(n)], -1
            ).astype("int64"),
        ),
    ),
    Case(
        "gather_nd-batch",
        f"{x('2, n, 3')}, %i: {tensor('2, 1', 'i64')}",
        "%r = relax.gather_nd %x, %i {batch_dims = 1}",
        inputs(floats(2, "n", 3), lambda n: ints(2, 1, dtype="int64", low=0, high=n)(n)),
    ),
    # scatters (indices repeat: updates combine in order)
    scatter_elements("update", "n, 3", "2, 3", "f32", axis=0),
    scatter_elements("add", "3, n", "3, n", "i32", axis=1),
    scatter_elements("mul", "n, 4", "n, 2", "f32", axis=-1),
    scatter_elements("mean", "n, 3", "4, 3", "f32", axis=0),
    scatter_elements("min", "2, n", "2, 3", "f32", axis=1, nan=True),
    scatter_elements("max", "n", "6", "f32", axis=0, nan=True),
    scatter_elements("max", "n, 2", "3, 2", "i8", axis=0, index="ui8"),
    scatter_elements("add", "n, 2", "3, 2", "bool", axis=0),
    scatter_elements("mul", "n, 2", "3, 2", "bool", axis=0, index="i32"),
    scatter_nd("update", "n, 3", "4, 1", "4, 3", "f32"),
    scatter_nd("add", "n, 3, 2", "5, 2", "5, 2", "f32"),
    scatter_nd("mul", "n, 3", "2, 2, 1", "2, 2, 3", "i32"),
    scatter_nd("min", "n, 3", "5, 2", "5", "f32", nan=True),
    scatter_nd("max", "n, 3", "5, 2", "5", "i64"),
    scatter_nd("add", "n, 2", "2, 0", "2, n, 2", "f32"),
    scatter_nd("update", "n, 2", "3, 1", "3, 2", "bool"),
    # advanced indexing (indices broadcast together)
    Case(
        "index_tensor",
        f"{x('n, 4, 2')}, %i: {tensor('3, 1', 'i64')}, %j: {tensor('2', 'i32')}",
        "%t = relax.tuple(%i, %j)\n%r = relax.index_tensor %x, %t",
        inputs(
            floats("n", 4, 2),
            positions("3, 1", "i64", "n", False),
            positions("2", "i32", "4", False),
        ),
    ),
    Case(
        "index_tensor-one-symbolic",
        f"{x('5, n')}, %i: {tensor('n', 'i8')}",
        "%t = relax.tuple(%i)\n%r = relax.index_tensor %x, %t",
        inputs(floats(5, "n"), positions("n", "i8", "5", False)),
    ),
    Case(
        "index_put",
        f"{x('n, 4')}, %i: {tensor('2, 1', 'i64')}, %j: {tensor('3', 'i32')}, %v: {tensor('6', F32)}",
        "%t = relax.tuple(%i, %j)\n%r = relax.index_put %x, %t, %v",
        inputs(
            floats("n", 4),
            positions("2, 1", "i64", "n", True),
            positions("3", "i32", "4", True),
            floats(6),
        ),
    ),
    Case(
        "index_put-accumulate-i32",
        f"{x('n', 'i32')}, %i: {tensor('2, 3', 'ui8')}, %v: {tensor('3, 2', 'i32')}",
        "%r = relax.index_put %x, %i, %v {accumulate = true}",
        inputs(ints("n"), positions("2, 3", "ui8", "n", False), ints(3, 2, salt=4)),
    ),
    Case(
        "index_put-accumulate-bool",
        f"{x('n, 2', 'bool')}, %i: {tensor('3', 'i64')}, %j: {tensor('3', 'i64')}, %v: {tensor('3', 'bool')}",
        "%t = relax.tuple(%i, %j)\n%r = relax.index_put %x, %t, %v {accumulate = true}",
        inputs(
            bools("n", 2),
            positions("3", "i64", "n", False),
            positions("3", "i64", "2", False),
            bools(3, salt=5),
        ),
    ),
    *(
        Case(
            f"slice_scatter-{start}-{end}-{step}",
            f"{x('3, n')}, %s: {tensor(f'3, {length}', F32)}",
            f"%a = relax.prim_value {start}\n%b = relax.prim_value {end}\n"
            f"%c = relax.prim_value {step}\n%r = relax.slice_scatter %x, %s, %a, %b, %c {{axis = 1}}",
            inputs(floats(3, "n"), floats(3, length, salt=6)),
        )
        for start, end, step, length in [(0, 4, 2, 2), (1, 2, 1, 1), (-3, 6, 4, 3), (2, 2, 1, 0)]
    ),
    Case(
        "slice_scatter-symbolic",
        f"{x('n, 2')}, %s: {tensor('n, 2', F32)}",
        "%a = relax.prim_value 0\n%b = relax.prim_value n\n%c = relax.prim_value 1\n"
        "%r = relax.slice_scatter %x, %s, %a, %b, %c",
        inputs(floats("n", 2), floats("n", 2, salt=6)),
    ),
    Case(
        "one_hot",
        f"%i: {tensor('n', 'i32')}",
        "%on = relax.prim_value 5.0 : !relax.prim<f32>\n"
        "%off = relax.prim_value -1.0 : !relax.prim<f32>\n"
        "%r = relax.one_hot %i, %on, %off {depth = 4}",
        inputs(ints("n", low=-2, high=6)),
    ),
    Case(
        "one_hot-axis0",
        f"%i: {tensor('n, 2', 'i64')}, %on: !relax.prim<i32>, %off: !relax.prim<i32>",
        "%r = relax.one_hot %i, %on, %off {depth = 3, axis = 0}",
        lambda n: [
            ints("n", 2, dtype="int64", low=0, high=4)(n),
            PrimValue(7, INT32),
            PrimValue(0, INT32),
        ],
    ),
]

SHAPES = {
    "reshape": "[2, n, 2]",
    "reshape-rank0": "[1, 1]",
    "reshape-to-rank0": "[]",
    "reshape-same": "[n, 4]",
    "reshape-i8": "[-1, 2]",
    "reshape-two-dynamic": "[m, n]",
    "reshape-three-dynamic": "[m, 2, n]",
}
CASES = [
    Case(c.name, c.params, f"%s = relax.shape {SHAPES[c.name]}\n{c.body}", c.inputs)
    if c.name in SHAPES
    else c
    for c in CASES
]


def layout(name: str, shape: str, index_map: str, attrs: str = "", dtype: str = F32) -> Case:
    """``layout_transform`` of an input of ``shape`` by ``index_map`` (its results)."""
    dims = [int(d) if d.strip().isdigit() else d.strip() for d in shape.split(",")]
    names = ", ".join(f"d{k}" for k in range(len(dims)))
    make = floats(*dims) if dtype == F32 else ints(*dims, dtype="int32")
    extra = f", {attrs}" if attrs else ""
    binding = (
        f"relax.layout_transform %x {{index_map = affine_map<({names}) -> ({index_map})>{extra}}}"
    )
    return one(name, f"%x: {tensor(shape, dtype)}", binding, make)


CASES += [
    layout("layout-split", "n, 3", "d0 floordiv 4, d1, d0 mod 4"),
    layout("layout-split-pad", "n, 3", "d0 floordiv 2, d1, d0 mod 2", "pad_value = -1.5"),
    layout(
        "layout-split-pad-i32", "2, n", "d0, d1 floordiv 3, d1 mod 3", "pad_value = 7", dtype="i32"
    ),
    layout("layout-nchw4c", "1, 8, n, 2", "d0, d1 floordiv 4, d2, d3, d1 mod 4"),
    layout(
        "layout-nchw4c-pad", "1, 6, n, 2", "d0, d1 floordiv 4, d2, d3, d1 mod 4", "pad_value = 2.5"
    ),
    layout("layout-nhwc", "2, 3, n, 2", "d0, d2, d3, d1"),
    layout("layout-fuse", "n, 3", "d0 * 3 + d1"),
    layout("layout-nested-split", "2, n", "d0, d1 floordiv 4, (d1 floordiv 2) mod 2, d1 mod 2"),
    layout("layout-range", "4, 3", "d0 - d1 + 2, d1", "axis_separators = [1]"),
    layout("layout-scaled", "n, 2", "d0 * 2, d1", "pad_value = -1.0"),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


@pytest.mark.parametrize("name", sorted(FAMILY.cases))
def test_lowered_module_verifies(name: str) -> None:
    """xDSL accepts the lowered IR as ``relax-opt`` does (its ``tensor.reshape``
    verifier, for one, rejects dynamic sizes that MLIR accepts)."""
    lower(load(FAMILY.cases[name].function()), pipeline=True).verify()


def test_every_operator_is_covered() -> None:
    assert_covered(manipulate.OPERATIONS, operators_of(CASES))


# -- located errors and run-time checks ----------------------------------------------------


def test_scatter_nd_needs_a_constant_index_depth() -> None:
    message = lowering_error(
        f"relax.function @main(%d: {tensor('n, 3', F32)}, %i: {tensor('2, k', 'i64')}, "
        "%u: !relax.tensor<ndim = 2, f32>) {\n  %r = relax.scatter_nd %d, %i, %u\n"
        "  relax.return %r\n}\n"
    )
    assert message.startswith("test.mlir:2:"), message
    assert "relax.scatter_nd: the last dimension of the indices must be a constant" in message


SCATTER_CHECKS = [
    (
        "relax.scatter_elements %d, %i, %u",
        [np.zeros((3, 2), "float32"), np.array([[0, 3]]), np.ones((1, 2), "float32")],
        r"test.mlir:2:\d+: relax.scatter_elements: an index is outside axis 0 of the data",
    ),
    (
        "relax.scatter_elements %d, %i, %u {axis = 1}",
        [np.zeros((3, 2), "float32"), np.array([[0, -3]]), np.ones((1, 2), "float32")],
        "an index is outside axis 1 of the data",
    ),
    (
        "relax.scatter_elements %d, %i, %u {axis = 1}",
        [np.zeros((3, 2), "float32"), np.zeros((4, 1), "int64"), np.ones((4, 1), "float32")],
        "dimension 0 of the indices exceeds the data's",
    ),
    (
        "relax.scatter_elements %d, %i, %u",
        [np.zeros((3, 2), "float32"), np.zeros((1, 2), "int64"), np.ones((2, 2), "float32")],
        "relax.scatter_elements: dimension 0 of the updates differs from the indices'",
    ),
    (
        "relax.scatter_nd %d, %i, %u",
        [np.zeros((3, 2), "float32"), np.array([[-1], [0]]), np.ones((2, 2), "float32")],
        "relax.scatter_nd: an index is outside axis 0 of the data",
    ),
    (
        "relax.scatter_nd %d, %i, %u",
        [np.zeros((3, 2), "float32"), np.array([[1], [0]]), np.ones((3, 2), "float32")],
        r"dimension 0 of the updates differs from indices.shape\[:-1\] \+ data.shape\[1:\]",
    ),
]


@pytest.mark.parametrize(("binding", "args", "message"), SCATTER_CHECKS)
def test_scatters_check_indices_and_shapes_at_run_time(
    binding: str, args: list[np.ndarray], message: str
) -> None:
    """Where the reference kernel raises (an index outside the data, shapes that do
    not fit) the lowered scatter fails a check; arguments that fit pass."""
    nd = "scatter_nd" in binding
    indices = tensor("k, 1", "i64") if nd else "!relax.tensor<ndim = 2, i64>"
    params = f"%d: {tensor('n, m', F32)}, %i: {indices}, %u: !relax.tensor<ndim = 2, f32>"
    main = lowered_main(
        f"relax.function @main({params}) {{\n  %r = {binding}\n  relax.return %r\n}}\n"
    )
    with pytest.raises(LoweredCheckError, match=message):
        main(args)
    fitting = [args[0], np.zeros((1, 1), "int64"), np.ones((1, 2 if nd else 1), "float32")]
    assert main(fitting)[0][0, 0] == 1


def test_unknown_rank_result_is_a_located_error() -> None:
    message = lowering_error(
        f"relax.function @main({x('n, 1, m')}) {{\n  %s = relax.squeeze %x\n"
        f"  %r = relax.match_cast %s : {tensor('n, m', F32)}\n  relax.return %r\n}}\n"
    )
    assert message.startswith("test.mlir:2:") and "relax.squeeze" in message, message


def test_squeezing_a_dimension_that_is_not_one_fails_at_run_time() -> None:
    text = f"relax.function @main({x('n, m')}) {{\n  %r = relax.squeeze %x {{axis = [1]}}\n  relax.return %r\n}}\n"
    main = lowered_main(text)
    assert main([np.zeros((2, 1), "float32")])[0].shape == (2,)
    with pytest.raises(
        LoweredCheckError, match=r"test.mlir:2:\d+: relax.squeeze: dimension 1 is not 1"
    ):
        main([np.zeros((2, 3), "float32")])


def test_reshape_checks_the_element_count_at_run_time() -> None:
    text = (
        f"relax.function @main({x('n, 3')}, %s: !relax.shape<[m]>) {{\n"
        "  %r = relax.reshape %x, %s\n  relax.return %r\n}\n"
    )
    main = lowered_main(text)
    assert main([np.ones((2, 3), "float32"), 6])[0].shape == (6,)
    with pytest.raises(LoweredCheckError, match=r"relax\.reshape: the target shape does not hold"):
        main([np.ones((2, 3), "float32"), 5])


GATHERS = {
    "gather_elements": (
        f"%x: {tensor('n, 4', 'f32')}, %i: {tensor('n, 2', 'i64')}",
        "relax.gather_elements %x, %i {axis = 1}",
        [[0, -4], [3, 1]],
        [[0, 4], [-5, 1]],
        "axis 1 of the data",
    ),
    "gather_nd": (
        f"%x: {tensor('n, 4', 'f32')}, %i: {tensor('2, 2', 'i64')}",
        "relax.gather_nd %x, %i",
        [[1, -1], [-2, 3]],
        [[1, 0], [0, 4]],
        "its axis of the data",
    ),
}


@pytest.mark.parametrize("backend", ["lowered", "mlir"])
@pytest.mark.parametrize("name", sorted(GATHERS))
def test_gathers_check_their_indices(backend: str, name: str) -> None:
    """As the reference: an index outside its axis (after counting negative ones
    from the end) fails a located check; native code read outside the tensor before."""
    if backend == "mlir":
        native_available()
    params, binding, good, bad, where = GATHERS[name]
    text = f"relax.function @main({params}) {{\n  %r = {binding}\n  relax.return %r\n}}\n"
    module = load(text)
    main = compile_function(module, "main", backend)
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    expected = run(module, "main", x, np.array(good, np.int64))
    np.testing.assert_array_equal(main(x, np.array(good, np.int64)), expected)
    with pytest.raises(
        LoweredCheckError, match=f"test.mlir:2:3: relax.{name}: an index is outside {where}"
    ):
        main(x, np.array(bad, np.int64))


INDEXING_CHECKS = {
    "index_tensor": (
        f"%x: {tensor('n, 4', F32)}, %i: {tensor('2', 'i64')}",
        "%t = relax.tuple(%i)\n  %r = relax.index_tensor %x, %t",
        [np.zeros((3, 4), "float32"), np.array([0, -1])],
        "relax.index_tensor: an index is outside axis 0 of the data",
    ),
    "index_put-index": (
        f"%x: {tensor('n', F32)}, %i: {tensor('2', 'i64')}, %v: {tensor('m', F32)}",
        "%r = relax.index_put %x, %i, %v",
        [np.zeros(3, "float32"), np.array([0, -4]), np.ones(2, "float32")],
        "relax.index_put: an index is outside axis 0 of the data",
    ),
    "index_put-values": (
        f"%x: {tensor('n', F32)}, %i: {tensor('2', 'i64')}, %v: {tensor('m', F32)}",
        "%r = relax.index_put %x, %i, %v",
        [np.zeros(3, "float32"), np.array([0, 1]), np.ones(3, "float32")],
        "relax.index_put: the values are not one per indexed position",
    ),
    "slice_scatter": (
        f"%x: {tensor('n, 4', F32)}, %s: {tensor('n, m', F32)}",
        "%a = relax.prim_value 0\n  %b = relax.prim_value 4\n  %c = relax.prim_value 2\n"
        "  %r = relax.slice_scatter %x, %s, %a, %b, %c {axis = 1}",
        [np.zeros((3, 4), "float32"), np.ones((3, 3), "float32")],
        r"relax.slice_scatter: dimension 1 of src differs from the slice's",
    ),
}


@pytest.mark.parametrize("backend", ["lowered", "mlir"])
@pytest.mark.parametrize("name", sorted(INDEXING_CHECKS))
def test_indexing_checks_at_run_time(backend: str, name: str) -> None:
    """Where the reference kernel raises, the lowered code fails a located check."""
    if backend == "mlir":
        native_available()
    params, body, args, message = INDEXING_CHECKS[name]
    text = f"relax.function @main({params}) {{\n  {body}\n  relax.return %r\n}}\n"
    main = compile_function(load(text), "main", backend)
    with pytest.raises(LoweredCheckError, match=rf"test.mlir:\d+:3: {message}"):
        main(*args)


@pytest.mark.parametrize(
    ("mapping", "tiles"),
    [
        (lambda i, j: (i // 4, j, i % 4), [[(2, 1), (0, 4)], [(1, 1)]]),
        (lambda i, j: (j, i // 4 // 2, i // 4 % 2, i % 4), [[(3, 1), (2, 4), (1, 8)], [(0, 1)]]),
        (lambda i, j: (j, i), [[(1, 1)], [(0, 1)]]),
        (lambda i, j: (i * 3 + j,), None),  # fused
        (lambda i, j: (i * 2, j), None),  # scaled
        (lambda i, j: (i % 4, j), None),  # the outermost split has a mod
        (lambda i, j: (i // 4, j), None),  # the inner split is missing
    ],
)
def test_layout_maps_that_tile_are_gathers(mapping, tiles) -> None:
    """Maps that split and reorder the axes lower to a gather (``tiling``), others
    to a scatter."""
    assert tiling(AffineMap.from_callable(mapping)) == tiles

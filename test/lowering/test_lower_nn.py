"""Lowering of the neural-network operators: reference interpreter vs the bundled
interpreter vs the MLIR toolchain, at several values of the symbolic size ``n``."""

from __future__ import annotations

import numpy as np
import pytest
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    floats,
    inputs,
    ints,
    lowered_main,
    lowering_error,
    operators_of,
    tensor,
)

from relax_dialect.ops import nn
from relax_xdsl.lowering.interpreter import LoweredCheckError

F32 = "f32"


def one(name: str, params: str, binding: str, *makers) -> Case:
    return Case(name, params, f"%r = {binding}", inputs(*makers))


def x(shape: str, dtype: str = F32) -> str:
    return f"%x: {tensor(shape, dtype)}"


def params(**shapes: str) -> str:
    return ", ".join(f"%{name}: {tensor(shape, F32)}" for name, shape in shapes.items())


def positive(*shape: int | str, salt: int = 3):
    return lambda n: np.abs(floats(*shape, salt=salt)(n)) + 0.5


def targets(*shape: int | str, classes: int, ignore: bool = True):
    """Class indices (some -100, ignored, when ``ignore``)."""

    def make(n: int) -> np.ndarray:
        t = ints(*shape, dtype="int64", low=0, high=classes, salt=4)(n)
        if ignore and t.size > 1:
            t.reshape(-1)[1] = -100
        return t

    return make


def softmax_case(name: str, op: str, attrs: str = "") -> Case:
    return one(name, x("n, 5"), f"{op} %x{attrs}", floats("n", 5))


ACTIVATIONS = [
    one(op.name.removeprefix("relax.nn."), x("n, 4"), f"{op.name} %x", floats("n", 4))
    for op in nn.OPERATIONS
    if issubclass(op, nn.ActivationOp)
]

CASES = [
    *ACTIVATIONS,
    one("relu-i32", x("n, 3", "i32"), "relax.nn.relu %x", ints("n", 3)),
    one("gelu-f64", x("n", "f64"), "relax.nn.gelu %x", floats("n", dtype="float64")),
    one("leakyrelu-alpha", x("n, 4"), "relax.nn.leakyrelu %x {alpha = 0.2}", floats("n", 4)),
    one(
        "softplus-attrs",
        x("n, 4"),
        "relax.nn.softplus %x {beta = 2.0, threshold = 3.0}",
        floats("n", 4),
    ),
    softmax_case("softmax", "relax.nn.softmax"),
    softmax_case("softmax-axis0", "relax.nn.softmax", " {axis = 0}"),
    softmax_case("log_softmax", "relax.nn.log_softmax"),
    one("log_softmax-3d", x("2, n, 3"), "relax.nn.log_softmax %x {axis = 1}", floats(2, "n", 3)),
    one(
        "prelu",
        f"{x('2, 3, n')}, %a: {tensor('3', F32)}",
        "relax.nn.prelu %x, %a",
        floats(2, 3, "n"),
        floats(3, salt=5),
    ),
    one(
        "prelu-last-axis",
        f"{x('n, 4')}, %a: {tensor('4', F32)}",
        "relax.nn.prelu %x, %a {axis = -1}",
        floats("n", 4),
        floats(4, salt=5),
    ),
    one(
        "prelu-one-alpha",
        f"{x('n, 4')}, %a: {tensor('1', F32)}",
        "relax.nn.prelu %x, %a",
        floats("n", 4),
        floats(1, salt=5),
    ),
    # padding
    one("pad", x("n, 3"), "relax.nn.pad %x {pad_width = [1, 2, 0, 1]}", floats("n", 3)),
    one(
        "pad-value-crop",
        x("n, 4"),
        "relax.nn.pad %x {pad_width = [2, 0, -1, 2], pad_value = 3.5}",
        floats("n", 4),
    ),
    one(
        "pad-i32",
        x("n, 2", "i32"),
        "relax.nn.pad %x {pad_width = [0, 1, 1, 1], pad_value = -2.7}",
        ints("n", 2),
    ),
    one(
        "pad-reflect",
        x("n, 4"),
        'relax.nn.pad %x {pad_width = [0, 0, 2, 3], pad_mode = "reflect"}',
        floats("n", 4),
    ),
    one(
        "pad-replicate",
        x("n, 3"),
        'relax.nn.pad %x {pad_width = [2, 1, 0, 3], pad_mode = "replicate"}',
        floats("n", 3),
    ),
    one(
        "pad-circular",
        x("n, 3"),
        'relax.nn.pad %x {pad_width = [1, 0, 2, -1], pad_mode = "circular"}',
        floats("n", 3),
    ),
    one(
        "pixel_shuffle",
        x("n, 8, 2, 3"),
        "relax.nn.pixel_shuffle %x {upscale_factor = 2}",
        floats("n", 8, 2, 3),
    ),
    one(
        "pixel_shuffle-3d",
        x("9, n, 2"),
        "relax.nn.pixel_shuffle %x {upscale_factor = 3}",
        floats(9, "n", 2),
    ),
    one("batch_flatten", x("n, 2, 3"), "relax.nn.batch_flatten %x", floats("n", 2, 3)),
    one("batch_flatten-2d", x("n, 3"), "relax.nn.batch_flatten %x", floats("n", 3)),
    Case(
        "dropout",
        x("n, 3"),
        "%d = relax.nn.dropout %x {rate = 0.1}\n%r = relax.tuple_get_item %d[1]",
        inputs(floats("n", 3)),
    ),
    Case(
        "dropout-output",
        x("n, 3"),
        "%d = relax.nn.dropout %x\n%r = relax.tuple_get_item %d[0]",
        inputs(floats("n", 3)),
    ),
    # normalisations
    one(
        "layer_norm",
        params(x="n, 4", g="4", b="4"),
        "relax.nn.layer_norm %x, %g, %b {axes = [-1]}",
        floats("n", 4),
        floats(4, salt=5),
        floats(4, salt=6),
    ),
    one(
        "layer_norm-2axes",
        params(x="n, 3, 4", g="3, 4", b="3, 4"),
        "relax.nn.layer_norm %x, %g, %b {axes = [1, 2], epsilon = 1.0e-03, center = false}",
        floats("n", 3, 4),
        floats(3, 4, salt=5),
        floats(3, 4, salt=6),
    ),
    one(
        "layer_norm-symbolic-axis",
        params(x="2, n", g="n", b="n"),
        "relax.nn.layer_norm %x, %g, %b {axes = [1], scale = false}",
        floats(2, "n"),
        floats("n", salt=5),
        floats("n", salt=6),
    ),
    one(
        "layer_norm-f16",
        f"{x('n, 8', 'f16')}, %g: {tensor('8', 'f16')}, %b: {tensor('8', 'f16')}",
        "relax.nn.layer_norm %x, %g, %b {axes = [1]}",
        floats("n", 8, dtype="float16"),
        floats(8, dtype="float16", salt=5),
        floats(8, dtype="float16", salt=6),
    ),
    one(
        "layer_norm-unsorted-axes",
        params(x="n, 3, 4", g="4, 3", b="4, 3"),
        "relax.nn.layer_norm %x, %g, %b {axes = [2, 1]}",
        floats("n", 3, 4),
        floats(4, 3, salt=5),
        floats(4, 3, salt=6),
    ),
    one(
        "softmax-unknown-shape",
        "%x: !relax.tensor<ndim = 2, f32>",
        "relax.nn.softmax %x {axis = 0}",
        floats("n", 3),
    ),
    one(
        "rms_norm",
        params(x="n, 4", w="4"),
        "relax.nn.rms_norm %x, %w",
        floats("n", 4),
        floats(4, salt=5),
    ),
    one(
        "rms_norm-2axes",
        params(x="2, n, 3", w="n, 3"),
        "relax.nn.rms_norm %x, %w {axes = [-2, -1], epsilon = 0.01}",
        floats(2, "n", 3),
        floats("n", 3, salt=5),
    ),
    one(
        "group_norm",
        params(x="n, 6, 2, 2", g="6", b="6"),
        "relax.nn.group_norm %x, %g, %b {num_groups = 3, channel_axis = 1, axes = [2, 3]}",
        floats("n", 6, 2, 2),
        floats(6, salt=5),
        floats(6, salt=6),
    ),
    one(
        "group_norm-last-channel",
        params(x="2, n, 4", g="4", b="4"),
        "relax.nn.group_norm %x, %g, %b {num_groups = 2, channel_axis = -1, axes = [1], "
        "center = false}",
        floats(2, "n", 4),
        floats(4, salt=5),
        floats(4, salt=6),
    ),
    one(
        "instance_norm",
        params(x="2, 3, n", g="3", b="3"),
        "relax.nn.instance_norm %x, %g, %b {channel_axis = 1, axes = [2]}",
        lambda n: floats(2, 3, "n")(n) + 1,
        floats(3, salt=5),
        floats(3, salt=6),
    ),
    Case(
        "batch_norm-training",
        params(x="n, 3, 2", g="3", b="3", m="3", v="3"),
        "%t = relax.nn.batch_norm %x, %g, %b, %m, %v {axis = 1, momentum = 0.2}\n"
        "%o = relax.tuple_get_item %t[0]\n%mm = relax.tuple_get_item %t[1]\n"
        "%vv = relax.tuple_get_item %t[2]\n%r = relax.tuple(%o, %mm, %vv)",
        inputs(
            floats("n", 3, 2), floats(3, salt=5), floats(3, salt=6), floats(3, salt=7), positive(3)
        ),
    ),
    Case(
        "batch_norm-inference",
        params(x="n, 2, 3", g="3", b="3", m="3", v="3"),
        "%t = relax.nn.batch_norm %x, %g, %b, %m, %v {axis = -1, training = false, "
        "scale = false}\n%r = relax.tuple_get_item %t[0]",
        inputs(
            floats("n", 2, 3), floats(3, salt=5), floats(3, salt=6), floats(3, salt=7), positive(3)
        ),
    ),
    # losses
    one(
        "cross_entropy",
        params(p="n, 4", l="n, 4"),
        "relax.nn.cross_entropy_with_logits %p, %l",
        floats("n", 4),
        floats("n", 4, salt=5),
    ),
    one(
        "cross_entropy-1d",
        params(p="n", l="n"),
        "relax.nn.cross_entropy_with_logits %p, %l",
        floats("n"),
        floats("n", salt=5),
    ),
    one(
        "cross_entropy-i32",
        f"%p: {tensor('n, 3', 'i32')}, %l: {tensor('n, 3', 'i32')}",
        "relax.nn.cross_entropy_with_logits %p, %l",
        ints("n", 3),
        ints("n", 3, salt=5),
    ),
    one(
        "nll_loss",
        f"%p: {tensor('n, 5', F32)}, %t: {tensor('n', 'i64')}, %w: {tensor('5', F32)}",
        "relax.nn.nll_loss %p, %t, %w",
        floats("n", 5),
        targets("n", classes=5),
        positive(5),
    ),
    one(
        "nll_loss-sum-spatial",
        f"%p: {tensor('n, 3, 2', F32)}, %t: {tensor('n, 2', 'i64')}",
        'relax.nn.nll_loss %p, %t {reduction = "sum"}',
        floats("n", 3, 2),
        targets("n", 2, classes=3),
    ),
    one(
        "nll_loss-none",
        f"%p: {tensor('n, 4', F32)}, %t: {tensor('n', 'i64')}, %w: {tensor('4', F32)}",
        'relax.nn.nll_loss %p, %t, %w {reduction = "none", ignore_index = 2}',
        floats("n", 4),
        targets("n", classes=4, ignore=False),
        positive(4),
    ),
    one(
        "nll_loss-vector",
        f"%p: {tensor('n', F32)}, %t: {tensor('', 'i64')}, %w: {tensor('n', F32)}",
        "relax.nn.nll_loss %p, %t, %w",
        floats("n"),
        lambda n: np.array(n - 1, np.int64),
        positive("n"),
    ),
    # attention
    one(
        "attention",
        params(q="2, n, 2, 4", k="2, m, 2, 4", v="2, m, 2, 3"),
        "relax.nn.attention %q, %k, %v",
        floats(2, "n", 2, 4),
        floats(2, "n+1", 2, 4, salt=5),
        floats(2, "n+1", 2, 3, salt=6),
    ),
    one(
        "attention-causal-gqa",
        params(q="1, n, 4, 2", k="1, n, 2, 2", v="1, n, 1, 3"),
        'relax.nn.attention %q, %k, %v {scale = 0.5, causal_mask = "TopLeft"}',
        floats(1, "n", 4, 2),
        floats(1, "n", 2, 2, salt=5),
        floats(1, "n", 1, 3, salt=6),
    ),
    one(
        "attention-bottom-right",
        params(q="1, n, 1, 2", k="1, m, 1, 2", v="1, m, 1, 2"),
        'relax.nn.attention %q, %k, %v {causal_mask = "BottomRight"}',
        floats(1, "n", 1, 2),
        floats(1, "n+2", 1, 2, salt=5),
        floats(1, "n+2", 1, 2, salt=6),
    ),
    one(
        "attention_bias",
        params(q="2, n, 2, 3", k="2, m, 2, 3", v="2, m, 2, 3", b="1, 2, n, m"),
        "relax.nn.attention_bias %q, %k, %v, %b",
        floats(2, "n", 2, 3),
        floats(2, "n+1", 2, 3, salt=5),
        floats(2, "n+1", 2, 3, salt=6),
        floats(1, 2, "n", "n+1", salt=7),
    ),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(nn.OPERATIONS, operators_of(CASES))
    tested = {name for name in operators_of(CASES) if name.startswith("relax.nn.")}
    assert tested == {op.name for op in nn.OPERATIONS}


def test_sliding_window_attention_is_a_located_error() -> None:
    message = lowering_error(
        f"relax.function @main({params(q='1, 2, 1, 2')}) {{\n"
        "  %r = relax.nn.attention %q, %q, %q {window_size = 2}\n  relax.return %r\n}\n"
    )
    assert message.startswith("test.mlir:2:")
    assert "relax.nn.attention" in message and "window_size" in message


@pytest.mark.parametrize(
    "case, args, message",
    [
        (
            one("", x("n"), 'relax.nn.pad %x {pad_width = [3, 0], pad_mode = "reflect"}'),
            [np.ones(3, np.float32)],
            "reflect padding by 3 needs more than 3 elements on axis 0",
        ),
        (
            one(
                "",
                f"%p: {tensor('2, 3', F32)}, %t: {tensor('2', 'i64')}",
                "relax.nn.nll_loss %p, %t",
            ),
            [np.ones((2, 3), np.float32), np.array([0, 3])],
            "a target is out of range",
        ),
        (
            one(
                "",
                params(x="2, c", g="c", b="c"),
                "relax.nn.group_norm %x, %g, %b {num_groups = 2, channel_axis = 1, axes = []}",
            ),
            [np.ones((2, 3), np.float32), np.ones(3, np.float32), np.ones(3, np.float32)],
            "cannot be split into 2 groups",
        ),
    ],
)
def test_reference_failures_are_run_time_checks(case: Case, args, message: str) -> None:
    main = lowered_main(case.function())
    with pytest.raises(LoweredCheckError, match=message):
        main(args)

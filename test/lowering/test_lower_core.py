"""Lowering of the core operators with tensor semantics (shape_of, size, shape_to_tensor,
tensor_to_shape, assert_op, to_vdevice, hint_on_device) and of the set operators (located
errors): reference interpreter vs the bundled interpreter vs the MLIR toolchain."""

from __future__ import annotations

import re

import numpy as np
import pytest
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    bools,
    floats,
    inputs,
    ints,
    lowering_error,
    operators_of,
    tensor,
)

from relax_dialect.ops import core


def x(shape: str, dtype: str = "f32", name: str = "x") -> str:
    return f"%{name}: {tensor(shape, dtype)}"


CASES = [
    Case("shape_of", x("n, 3"), "%r = relax.shape_of %x", inputs(floats("n", 3))),
    Case("shape_of-rank0", x(""), "%r = relax.shape_of %x", inputs(floats())),
    Case("size", x("n, 3, 2"), "%r = relax.size %x", inputs(floats("n", 3, 2))),
    Case(
        "shape_to_tensor",
        x("n, 3"),
        "%s = relax.shape_of %x\n%r = relax.shape_to_tensor %s",
        inputs(floats("n", 3)),
    ),
    Case(
        "shape_to_tensor-empty",
        x(""),
        "%s = relax.shape_of %x\n%r = relax.shape_to_tensor %s",
        inputs(floats()),
    ),
    Case(
        "tensor_to_shape",
        f"{x('2', 'i64', 'v')}, {x('n')}",
        "%s = relax.tensor_to_shape %v\n"
        "%c = relax.match_cast %s : !relax.shape<[a, b]>\n"
        "%r = relax.shape [a + n, b * 2]",
        lambda n: [np.array([n + 1, 4], "int64"), floats("n")(n)],
    ),
    Case(
        "constant-bool-hex",
        x("n, 150", "bool"),
        f'%c = relax.constant dense<[150], bool, "0x{bytes([1, 1, 0] * 50).hex()}">\n'
        "%r = relax.logical_and %x, %c",
        inputs(bools("n", 150)),
    ),
    Case(
        "hint_on_device",
        x("n, 3"),
        "%r = relax.hint_on_device %x {device_type = 1, index = 0}",
        inputs(floats("n", 3)),
    ),
    Case(
        "tensor_to_shape-ui8",
        x("3", "ui8", "v"),
        "%r = relax.tensor_to_shape %v",
        inputs(ints(3, dtype="uint8", low=200, high=255)),
    ),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


ASSERT = """relax.function impure @main(%x: !relax.tensor<[n], f32>, %c: !relax.prim<bool>) {
  %a = relax.assert_op %c {format = "x must be positive"}
  relax.return %x
}
"""


def test_assert_op_becomes_a_run_time_check() -> None:
    from convert_harness import assert_accepted, generic_text, load, lower, run_lowered_or_skip

    from relax_xdsl.lowering.interpreter import LoweredCheckError
    from relax_xdsl.lowering.toolchain import ToolchainMissing, compile_module

    module = lower(load(ASSERT), pipeline=True)
    assert_accepted(module)
    x = np.ones(3, "float32")
    message = r"test.mlir:2:\d+: assertion failed: x must be positive"
    run_lowered = run_lowered_or_skip()
    np.testing.assert_array_equal(run_lowered(module, "main", [x, True])[0], x)
    with pytest.raises(LoweredCheckError, match=message):
        run_lowered(module, "main", [x, False])
    try:
        native = compile_module(generic_text(module))
    except ToolchainMissing as error:
        pytest.skip(f"MLIR toolchain absent: {error}")
    np.testing.assert_array_equal(native.call("main", [x, True])[0], x)
    with pytest.raises(LoweredCheckError, match=message):
        native.call("main", [x, False])


TO_VDEVICE = """builtin.module attributes {relax.global_infos = {vdevice = [#relax.vdevice<"llvm">, #relax.vdevice<{kind = "cuda"}, 2>]}} {
  relax.function @main(%x: !relax.tensor<[n], f32, vdevice = "llvm">) -> !relax.tensor<[n], f32, vdevice = "cuda"> {
    %r = relax.to_vdevice %x {dst_vdevice = "cuda:0:global"}
    relax.return %r
  }
}
"""


def test_to_vdevice_is_a_copy_carrying_its_destination() -> None:
    from convert_harness import assert_accepted, load, lower, run_lowered_or_skip
    from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, StringAttr
    from xdsl.dialects.tensor import CastOp

    module = lower(load(TO_VDEVICE), pipeline=True)
    assert_accepted(module)
    (copy,) = [op for op in module.walk() if isinstance(op, CastOp)]
    assert copy.attributes["relax.vdevice"] == StringAttr("cuda:0:global")
    assert "relax.global_infos" not in module.attributes
    devices = module.attributes["relax.vdevices"]
    assert isinstance(devices, DictionaryAttr)
    assert devices.data["cuda:0:global"] == DictionaryAttr(
        {
            "target": DictionaryAttr({"kind": StringAttr("cuda")}),
            "vdevice_id": IntegerAttr(2, 64),
            "memory_scope": StringAttr("global"),
        }
    )
    x = np.arange(4, dtype="float32")
    np.testing.assert_array_equal(run_lowered_or_skip()(module, "main", [x])[0], x)


UNLOWERABLE = {
    "relax.print": (x("n"), "%p = relax.print %x\n  %r = relax.tuple()", "printing"),
    "relax.null_value": ("", "%p = relax.null_value\n  %r = relax.tuple()", "the null object"),
    "relax.assert_op": (
        f"{x('n')}, %c: !relax.prim<bool>",
        '%r = relax.assert_op %c, %x {format = "x = {}"}',
        "formatting run-time values",
    ),
}


@pytest.mark.parametrize("name", sorted(UNLOWERABLE))
def test_located_error_naming_the_operator(name: str) -> None:
    params, body, why = UNLOWERABLE[name]
    purity = "impure " if name in ("relax.print", "relax.assert_op") else ""
    message = lowering_error(
        f"relax.function {purity}@main({params}) {{\n  {body}\n  relax.return %r\n}}\n"
    )
    assert re.match(r"test.mlir:\d+:\d+: ", message), message
    assert name in message and why in message, message


def test_every_operator_is_covered() -> None:
    """Every core operator with tensor semantics is tested here (closures and calls are
    structural: ``test_convert_closures.py``; the set operators: ``test_lower_set.py``)."""
    closures = (core.MakeClosureOp, core.InvokeClosureOp, core.InvokePureClosureOp)
    operations = [op for op in core.OPERATIONS if op not in closures]
    assert_covered(operations, operators_of(CASES) | set(UNLOWERABLE) | {"relax.to_vdevice"})

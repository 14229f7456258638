"""Virtual devices: references and declarations, TVM's subtyping and join of
tensors on devices, each operator's placement of its result, rule EN 24, the
TVMScript frontend's resolution of ``"kind:index"`` and the identity kernels."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.ir import Block, SSAValue
from xdsl.utils.exceptions import VerifyException

from relax_dialect.dialect import Relax
from relax_dialect.dtype import FLOAT32
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.interpreter import run
from relax_dialect.ops import operator_class, operators
from relax_dialect.ops.operator import OperatorOp
from relax_dialect.ops.placement import Placement
from relax_dialect.struct_info import Check, base_check, erase_vars, join, static_type
from relax_dialect.types import ShapeType, StructInfoType, TensorType, TupleType
from relax_dialect.vdevice import VDeviceAttr, VDeviceRef, lookup, reference_to, resolve
from relax_dialect.well_formed import check_well_formed

LLVM = VDeviceRef("llvm")
CUDA = VDeviceRef("cuda")
DECLARED = (
    VDeviceAttr("llvm"),
    VDeviceAttr({"kind": "cuda", "arch": "sm_80"}),
    VDeviceAttr("llvm -mcpu=skylake", 3, "global.texture"),
)


def tensor(device: VDeviceRef | None, shape: tuple = ("n", 4)) -> TensorType:
    return TensorType(list(shape), "f32", vdevice=device)


# --- references and declarations ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("llvm", VDeviceRef("llvm", 0, "global")),
        ("cuda:1", VDeviceRef("cuda", 1, "global")),
        ("cuda:1:global.texture", VDeviceRef("cuda", 1, "global.texture")),
        ("opencl:0:local:x", VDeviceRef("opencl", 0, "local:x")),
    ],
)
def test_references_as_tvm_writes_them(text: str, expected: VDeviceRef) -> None:
    assert VDeviceRef.parse(text) == expected
    assert VDeviceRef.parse(str(expected)) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "does not start with a target kind"),
        (":0", "does not start with a target kind"),
        ("cuda:one", "is not a device index"),
        ("cuda:-1", "is negative"),
        ("cuda:0:", "empty memory scope"),
    ],
)
def test_bad_references(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        VDeviceRef.parse(text)
    with pytest.raises(VerifyException, match=problem):
        TensorType([2], "f32", vdevice=text)


def test_a_target_kind_is_the_first_word_or_the_configurations_kind() -> None:
    assert [d.kind for d in DECLARED] == ["llvm", "cuda", "llvm"]
    assert DECLARED[1].target_value == {"kind": "cuda", "arch": "sm_80"}
    with pytest.raises(VerifyException, match="needs a kind"):
        VDeviceAttr({"arch": "sm_80"}).verify()


def test_lookup_counts_the_devices_of_a_kind_as_tvm_does() -> None:
    assert lookup(DECLARED, "llvm", 1) is DECLARED[2]
    assert lookup(DECLARED, "cuda", 1) is None
    assert lookup(DECLARED, "vdevice", 1) is DECLARED[1]  # the declared list itself
    assert reference_to(DECLARED, DECLARED[2]) == VDeviceRef("llvm", 1, "global.texture")
    assert resolve(DECLARED, VDeviceRef("llvm", 1, "global.texture")) is DECLARED[2]
    assert resolve(DECLARED, VDeviceRef("llvm", 1)) is None  # the scope must match


# --- StructInfo relations -------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "derived", "expected"),
    [
        (tensor(LLVM), tensor(LLVM), Check.PASS),
        (tensor(None), tensor(LLVM), Check.PASS),
        (tensor(LLVM), tensor(None), Check.FAIL_RUNTIME),
        (tensor(LLVM), tensor(CUDA), Check.FAIL_STATIC),
        # TVM compares ranks before devices, and devices before dimensions
        (tensor(LLVM), TensorType(None, "f32", 3, CUDA), Check.FAIL_STATIC),
        (tensor(LLVM, (4, 4)), tensor(None, (4, 5)), Check.FAIL_RUNTIME),
        (tensor(LLVM, (4, 4)), tensor(CUDA, (4, 5)), Check.FAIL_STATIC),
    ],
)
def test_base_check_of_devices(
    base: StructInfoType, derived: StructInfoType, expected: Check
) -> None:
    assert base_check(base, derived) == expected


def test_join_keeps_a_shared_device_only() -> None:
    assert join(tensor(CUDA), tensor(CUDA)) == tensor(CUDA)
    assert join(tensor(CUDA), tensor(LLVM)) == tensor(None)
    assert join(tensor(CUDA), tensor(None)) == tensor(None)
    assert join(tensor(CUDA, (2,)), tensor(CUDA, (3,))) == TensorType(None, "f32", 1, CUDA)


def test_erasure_keeps_the_device() -> None:
    assert erase_vars(tensor(CUDA), lambda name: False) == TensorType(None, "f32", 2, CUDA)
    assert static_type(TupleType([tensor(CUDA)])) == TupleType([TensorType(None, "f32", 2, CUDA)])


# --- placement --------------------------------------------------------------------------


@pytest.mark.parametrize("operator", list(operators().values()), ids=lambda op: op.name)
def test_every_operator_declares_its_placement(operator: type[OperatorOp]) -> None:
    declared = [c for c in operator.__mro__ if "PLACEMENT" in vars(c)]
    assert declared, f"{operator.name} declares no PLACEMENT (see relax_dialect/ops/placement.py)"
    assert isinstance(operator.PLACEMENT, Placement)


def infer(name: str, *types: StructInfoType, **attributes: object) -> StructInfoType:
    values: list[SSAValue] = list(Block(arg_types=types).args)
    op = operator_class(name)
    assert op is not None
    return op.build(values, **attributes).results[0].type  # pyright: ignore[reportArgumentType]


def test_data_placement_follows_the_first_tensor() -> None:
    assert infer("relax.sum", tensor(CUDA), axis=(1,)) == TensorType(["n"], "f32", vdevice=CUDA)
    indices = TensorType([3], "i64", vdevice=LLVM)
    assert infer("relax.take", tensor(CUDA), indices, axis=0) == tensor(CUDA, (3, 4))
    split = infer("relax.split", tensor(CUDA), indices_or_sections=2, axis=1)
    assert split == TupleType([TensorType(["n", 2], "f32", vdevice=CUDA)] * 2)


def test_binary_operands_share_their_device() -> None:
    assert infer("relax.add", tensor(None), tensor(CUDA)) == tensor(CUDA)
    assert infer("relax.add", tensor(CUDA), tensor(CUDA)) == tensor(CUDA)
    with pytest.raises(VerifyException, match="different virtual devices 'cuda:0:global' and"):
        infer("relax.add", tensor(CUDA), tensor(LLVM))
    with pytest.raises(VerifyException, match="different virtual devices"):
        infer("relax.nn.conv2d", tensor(CUDA, (1, 3, 8, 8)), tensor(LLVM, (4, 3, 3, 3)))


def test_common_placement_drops_a_disputed_device() -> None:
    square = tensor(CUDA, (4, 4))
    assert infer("relax.matmul", square, tensor(None, (4, 4))) == square
    assert infer("relax.matmul", square, tensor(LLVM, (4, 4))) == tensor(None, (4, 4))
    pair = TupleType([square, tensor(LLVM, (4, 4))])
    assert infer("relax.concat", pair) == tensor(None, (8, 4))


def test_results_built_from_shapes_are_on_no_device() -> None:
    zeros = infer("relax.zeros", ShapeType([2, 3]), dtype=FLOAT32)
    assert zeros == TensorType([2, 3], "f32")
    assert infer("relax.outer", tensor(CUDA, (2,)), tensor(CUDA, (3,))) == tensor(None, (2, 3))


def test_operators_placing_their_own_results() -> None:
    moved = infer("relax.to_vdevice", tensor(LLVM), dst_vdevice="cuda:0:global")
    assert moved == tensor(CUDA)
    assert infer("relax.hint_on_device", tensor(LLVM), device_type=2, index=0) == tensor(LLVM)
    collapsed = infer("relax.collapse_sum_like", tensor(LLVM), tensor(CUDA, (1, 4)))
    assert collapsed == tensor(CUDA, (1, 4))
    # nll_loss: predictions and weights share a device, the targets are left out
    loss = infer(
        "relax.nn.nll_loss",
        tensor(CUDA, (2, 4)),
        TensorType([2], "i64", vdevice=LLVM),
        tensor(None, (4,)),
    )
    assert loss == TensorType([], "f32", vdevice=CUDA)
    # batch_norm: the data and moving statistics keep their own devices
    vector = TensorType([3], "f32", vdevice=LLVM)
    data, stats = tensor(CUDA, (2, 3)), TensorType([3], "f32")
    norm = infer("relax.nn.batch_norm", data, vector, vector, stats, vector, axis=1)
    assert norm == TupleType([data, stats, vector])
    with pytest.raises(VerifyException, match="bad dst_vdevice"):
        infer("relax.to_vdevice", tensor(LLVM), dst_vdevice="cuda:x")
    with pytest.raises(VerifyException, match="expected a tensor"):
        infer("relax.hint_on_device", ShapeType([2]), device_type=2, index=0)


# --- well-formedness --------------------------------------------------------------------

MODULE = """
builtin.module attributes {relax.global_infos = {vdevice = [#relax.vdevice<"llvm">, #relax.vdevice<"cuda", 0, "global.texture">]}} {
  relax.function @main(%x: !relax.tensor<[2], f32, vdevice = DEVICE>) -> !relax.tensor<[2], f32, vdevice = "cuda:0:global.texture"> {
    %y = relax.to_vdevice %x {dst_vdevice = "cuda:0:global.texture"}
    %z = relax.add %y, %y
    relax.return %z
  }
}
"""


def test_a_program_on_declared_devices_runs_on_one_cpu() -> None:
    module = load(MODULE.replace("DEVICE", '"llvm"'))
    x = np.array([1.5, -2.0], np.float32)
    np.testing.assert_array_equal(run(module, "main", x), x + x)  # pyright: ignore


def test_undeclared_vdevice_is_rule_en_24() -> None:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Relax)
    text = MODULE.replace("DEVICE", '"cuda:1:global.texture"')
    (diagnostic,) = check_well_formed(parse_module(ctx, text, "test.mlir"))
    assert diagnostic.message.startswith("virtual device 'cuda:1:global.texture' is not declared")
    assert diagnostic.message.endswith("well-formedness rule EN 24)")
    assert (diagnostic.location.line, diagnostic.location.column) == (3, 24)


# --- TVMScript ---------------------------------------------------------------------------

SCRIPT = """
from tvm.script import ir as I
from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice("cuda"), I.vdevice("llvm", 5)]})

    @R.function
    def main(x: R.Tensor((2,), "float32", DEVICE)):
        return x
"""


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ('"llvm"', "llvm:0:global"),
        ('"llvm:1"', "llvm:1:global"),
        ('"llvm:1:global"', "llvm:1:global"),
        ('"cuda"', "cuda:0:global"),
        ('"vdevice:1"', "cuda:0:global"),
        ('"vdevice:2"', "llvm:1:global"),
    ],
)
def test_tvmscript_resolves_references_as_tvm(written: str, meant: str) -> None:
    module = parse_tvmscript(SCRIPT.replace("DEVICE", written), "m.py")
    (x,) = next(op for op in module.walk() if op.name == "relax.function").regions[0].block.args
    assert x.type == TensorType([2], "f32", vdevice=meant)

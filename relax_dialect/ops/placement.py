"""On which virtual device an operator's result lives (TVM's inferred ``vdevice``).

Each operator declares its ``PLACEMENT`` (itself or through its family's base);
after its own inference, the result's tensors (a tuple's tensor fields too) are
put on the device the rule gives. The rules are those of TVM's inference
functions; the operands considered are the tensor operands and the tensor fields
of tuple operands, in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from xdsl.utils.exceptions import VerifyException

from ..types import StructInfoType, TensorType, TupleType
from ..vdevice import VDeviceRef


class Placement(Enum):
    """How an operator's result is placed."""

    NONE = "none"
    """On no known device (a result built from shapes or attributes; an operator
    whose TVM inference drops the device)."""
    DATA = "data"
    """On the device of the first tensor operand (TVM's ``data_sinfo->vdevice``)."""
    SAME = "same"
    """On the device of the tensor operands, which must not differ (TVM's
    ``InferBinaryArithOpOutVDevice``: an operand without one takes the other's)."""
    COMMON = "common"
    """On the device the tensor operands that have one share; on none when they
    differ (TVM's ``matmul``, ``concat``, ``ewise_fma``)."""
    OWN = "own"
    """As the operator's own inference places it (``relax.to_vdevice``)."""


def place(
    op_name: str, placement: Placement, operands: Sequence[StructInfoType], result: StructInfoType
) -> StructInfoType:
    """``result`` with its tensors on the device ``placement`` gives."""
    if placement is Placement.OWN:
        return result
    devices = [t.device for t in _tensors(operands)]
    return _on_device(result, _device(op_name, placement, devices))


def _tensors(operands: Sequence[StructInfoType]) -> list[TensorType]:
    found: list[TensorType] = []
    for sinfo in operands:
        if isinstance(sinfo, TensorType):
            found.append(sinfo)
        elif isinstance(sinfo, TupleType):
            found.extend(f for f in sinfo.types if isinstance(f, TensorType))
    return found


def _device(
    op_name: str, placement: Placement, devices: Sequence[VDeviceRef | None]
) -> VDeviceRef | None:
    if placement is Placement.NONE or not devices:
        return None
    if placement is Placement.DATA:
        return devices[0]
    known = list(dict.fromkeys(d for d in devices if d is not None))
    if len(known) <= 1:
        return known[0] if known else None
    if placement is Placement.COMMON:
        return None
    raise VerifyException(
        f"{op_name}: operands are on different virtual devices "
        + " and ".join(f"'{d}'" for d in known)
        + "; copy one with relax.to_vdevice"
    )


def _on_device(result: StructInfoType, device: VDeviceRef | None) -> StructInfoType:
    if isinstance(result, TensorType):
        return result.on_device(device)
    if isinstance(result, TupleType):
        fields = [_on_device(f, device) if isinstance(f, TensorType) else f for f in result.types]
        if all(n is f for n, f in zip(fields, result.types, strict=True)):
            return result
        return TupleType(fields)
    return result

"""Virtual devices (TVM's ``VDevice``): where a tensor lives.

A module declares its virtual devices in order, as TVM's
``I.module_global_infos({"vdevice": [...]})``::

    builtin.module attributes {relax.global_infos = {vdevice = [
        #relax.vdevice<"llvm", 0, "global">,
        #relax.vdevice<{kind = "cuda", arch = "sm_80"}, 0, "global">]}} {...}

A tensor type refers to one of them by *kind, index and memory scope*,
``"cuda:0:global"``: the first declared device whose target is of kind
``cuda``, TVM's own spelling (``R.Tensor((n,), "float32", "cuda:0:global")``).
The index counts the declared devices of that kind, not their ``vdevice_id``;
a reference written ``"cuda"`` or ``"cuda:1"`` means index 0 and scope
``global``. Well-formedness rule EN 24 checks that each reference names a
declared device with that memory scope.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    StringAttr,
    i1,
)
from xdsl.ir import Attribute, Data, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

GLOBAL_INFOS = "relax.global_infos"
"""The module attribute holding TVM's global infos: ``{vdevice = [...]}``."""
DEFAULT_SCOPE = "global"

TargetValue = str | int | bool | list["TargetValue"] | dict[str, "TargetValue"]


@dataclass(frozen=True)
class VDeviceRef:
    """A reference to a declared virtual device: ``kind:index:scope``."""

    kind: str
    index: int = 0
    scope: str = DEFAULT_SCOPE

    @staticmethod
    def parse(text: str) -> VDeviceRef:
        """``kind``, ``kind:index`` or ``kind:index:scope`` (a ``ValueError`` otherwise)."""
        kind, *rest = text.split(":", 2)
        if not kind or not kind.replace("_", "").replace("-", "").isalnum():
            raise ValueError(f"'{text}' does not start with a target kind")
        index = 0
        if rest:
            try:
                index = int(rest[0])
            except ValueError:
                raise ValueError(f"'{rest[0]}' in '{text}' is not a device index") from None
            if index < 0:
                raise ValueError(f"device index {index} in '{text}' is negative")
        scope = rest[1] if len(rest) > 1 else DEFAULT_SCOPE
        if not scope:
            raise ValueError(f"'{text}' has an empty memory scope")
        return VDeviceRef(kind, index, scope)

    def __str__(self) -> str:
        return f"{self.kind}:{self.index}:{self.scope}"


@irdl_attr_definition
class VDeviceRefAttr(Data[VDeviceRef]):
    """A reference to a declared virtual device, the parameter of a tensor type
    (``#relax.vdevice_ref<"llvm:0:global">`` on its own)."""

    name = "relax.vdevice_ref"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> VDeviceRef:
        with parser.in_angle_brackets():
            return parse_reference(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f'<"{self.data}">')


def parse_reference(parser: AttrParser) -> VDeviceRef:
    """A reference written as a string, ``"llvm:0:global"``."""
    start = parser.pos
    text = parser.parse_str_literal()
    try:
        return VDeviceRef.parse(text)
    except ValueError as error:
        parser.raise_error(f"bad virtual device: {error}", start, parser.pos)


@irdl_attr_definition
class VDeviceAttr(ParametrizedAttribute):
    """A declared virtual device, ``#relax.vdevice<TARGET, ID, "SCOPE">``: a target
    (TVM's target string, ``"llvm"``, or its configuration, ``{kind = "cuda", arch =
    "sm_80"}``), the ``vdevice_id`` and the memory scope (default 0, ``"global"``)."""

    name = "relax.vdevice"

    target: StringAttr | DictionaryAttr
    vdevice_id: IntAttr
    memory_scope: StringAttr

    def __init__(
        self, target: str | Mapping[str, TargetValue], vdevice_id: int = 0, scope: str = "global"
    ):
        config = StringAttr(target) if isinstance(target, str) else target_attr(target)
        super().__init__(config, IntAttr(vdevice_id), StringAttr(scope))

    @property
    def kind(self) -> str:
        """The target's kind: the first word of a target string, a configuration's ``kind``."""
        if isinstance(self.target, StringAttr):
            return self.target.data.split(maxsplit=1)[0] if self.target.data.strip() else ""
        kind = self.target.data.get("kind")
        return kind.data if isinstance(kind, StringAttr) else ""

    @property
    def scope(self) -> str:
        return self.memory_scope.data

    @property
    def target_value(self) -> TargetValue:
        """The target as TVM's Python API takes it (a string or a dictionary)."""
        return target_value(self.target)

    def verify(self) -> None:
        if not self.kind:
            raise VerifyException("a virtual device's target needs a kind")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            start = parser.pos
            if (text := parser.parse_optional_str_literal()) is not None:
                target: Attribute = StringAttr(text)
            else:
                target = parser.parse_attribute()
                if not isinstance(target, DictionaryAttr):
                    parser.raise_error("expected a target string or dictionary", start, parser.pos)
            vdevice_id, scope = 0, DEFAULT_SCOPE
            if parser.parse_optional_punctuation(",") is not None:
                vdevice_id = parser.parse_integer(allow_boolean=False)
                if parser.parse_optional_punctuation(",") is not None:
                    scope = parser.parse_str_literal()
        return (target, IntAttr(vdevice_id), StringAttr(scope))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.target)
        printer.print_string(f", {self.vdevice_id.data}, ")
        printer.print_string_literal(self.scope)
        printer.print_string(">")


def target_attr(value: TargetValue) -> Attribute:
    """A target configuration (TVM's JSON-like dictionary) as an attribute."""
    if isinstance(value, bool):
        return BoolAttr.from_bool(value)
    if isinstance(value, int):
        return IntegerAttr(value, 64)
    if isinstance(value, str):
        return StringAttr(value)
    if isinstance(value, list):
        return ArrayAttr(target_attr(v) for v in value)
    return DictionaryAttr({k: target_attr(v) for k, v in value.items()})


def target_value(attr: Attribute) -> TargetValue:
    """The inverse of ``target_attr``."""
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        return bool(value) if attr.type == i1 else value
    if isinstance(attr, ArrayAttr):
        return [target_value(a) for a in attr.data]
    if isinstance(attr, DictionaryAttr):
        return {k: target_value(v) for k, v in attr.data.items()}
    raise VerifyException(f"a target configuration cannot hold {attr}")


def declared_vdevices(module: Operation) -> tuple[VDeviceAttr, ...]:
    """The virtual devices a module declares, in order (checked by ``global_infos_problem``)."""
    infos = module.attributes.get(GLOBAL_INFOS)
    if not isinstance(infos, DictionaryAttr):
        return ()
    listed = infos.data.get("vdevice")
    if not isinstance(listed, ArrayAttr):
        return ()
    return tuple(d for d in listed.data if isinstance(d, VDeviceAttr))


def global_infos_problem(module: Operation) -> str | None:
    """What is wrong with a module's ``relax.global_infos``, if anything."""
    infos = module.attributes.get(GLOBAL_INFOS)
    if infos is None:
        return None
    if not isinstance(infos, DictionaryAttr):
        return f"{GLOBAL_INFOS} must be a dictionary {{vdevice = [...]}}"
    for key, value in infos.data.items():
        if key != "vdevice":
            return f"{GLOBAL_INFOS} holds unknown global info '{key}' (known: vdevice)"
        if not isinstance(value, ArrayAttr) or not all(
            isinstance(d, VDeviceAttr) for d in value.data
        ):
            return f"{GLOBAL_INFOS}: vdevice must be a list of #relax.vdevice<...>"
    return None


def with_vdevices(module: Operation, vdevices: Sequence[VDeviceAttr]) -> None:
    """Declare ``vdevices`` as the module's virtual devices (none: no global infos)."""
    if vdevices:
        module.attributes[GLOBAL_INFOS] = DictionaryAttr({"vdevice": ArrayAttr(vdevices)})
    else:
        module.attributes.pop(GLOBAL_INFOS, None)


def lookup(vdevices: Sequence[VDeviceAttr], kind: str, index: int) -> VDeviceAttr | None:
    """TVM's ``LookupVDevice``: the ``index``-th declared device of target ``kind``;
    for the kind ``vdevice``, the ``index``-th declared device."""
    if kind == "vdevice":
        return vdevices[index] if 0 <= index < len(vdevices) else None
    of_kind = [d for d in vdevices if d.kind == kind]
    return of_kind[index] if 0 <= index < len(of_kind) else None


def reference_to(vdevices: Sequence[VDeviceAttr], vdevice: VDeviceAttr) -> VDeviceRef:
    """How a type refers to the declared ``vdevice`` (TVM's printed ``kind:index:scope``)."""
    of_kind = [d for d in vdevices if d.kind == vdevice.kind]
    return VDeviceRef(vdevice.kind, of_kind.index(vdevice), vdevice.scope)


def resolve(vdevices: Sequence[VDeviceAttr], ref: VDeviceRef) -> VDeviceAttr | None:
    """The declared device ``ref`` names, with its memory scope (None if there is none)."""
    found = lookup(vdevices, ref.kind, ref.index)
    return found if found is not None and found.scope == ref.scope else None


def undeclared_message(vdevices: Sequence[VDeviceAttr], ref: VDeviceRef) -> str:
    """Why ``ref`` names no declared device (well-formedness rule EN 24)."""
    found = lookup(vdevices, ref.kind, ref.index)
    if found is not None:
        return (
            f"virtual device '{ref}' has memory scope '{ref.scope}', but the declared "
            f"{ref.kind} device {ref.index} has '{found.scope}' (well-formedness rule EN 24)"
        )
    declared = ", ".join(str(reference_to(vdevices, d)) for d in vdevices) or "none"
    return (
        f"virtual device '{ref}' is not declared in the module's {GLOBAL_INFOS} "
        f"(declared: {declared}; well-formedness rule EN 24)"
    )

"""How the dialect's operations are spelled in TVMScript, for the printer and the frontend.

Operators. ``relax.<name>`` is written ``R.<name>(operands..., keyword=value,
...)`` (``relax.nn.conv2d`` is ``R.nn.conv2d``, ``relax.nn.attention_bias`` is
``R.nn.attention_bias``): its operands positionally, in the dialect's order,
which is TVM's argument order; then its attributes as keywords named as in
the dialect, in the order of its definition. Attribute values are Python
literals: ``True``, ``3``, ``0.5``, ``"NCHW"``, a data type as a string
(``"float32"``), a list as a list (``[0, 1]``). The printer writes every
attribute with its effective value (its declared default when unset) and
leaves out an optional attribute without a value. ``OPERATORS`` lists what
differs from that rule for some operators (checked against TVM 0.25, which
prints and parses these spellings):

* ``attributes``: TVM's keyword order, where it differs from the dialect's
  (transposed convolutions, pooling, padding, sorting, quantization);
* ``prim_values``: operands TVM requires to be ``R.prim_value(...)``
  expressions rather than variables (``clip``'s bounds, ``arange``, ``eye``,
  ``one_hot``'s values, ``slice_scatter``'s bounds, ``unique``'s flags);
* ``strings``: attributes TVM passes as Relax strings, ``format=R.str("...")``;
* ``integers``: list attributes written as an integer when they hold one
  element (TVM repeats it per spatial axis);
* ``list_from``: operands from that position on are one list argument
  (``R.assert_op(cond, [a, b], format=...)``);
* ``device``: attributes written together as one positional ``R.device(...)``
  argument (``R.hint_on_device(x, R.device(device_type=2, index=0), ...)``);
* ``index_maps``: affine-map attributes written as
  ``T.index_map(lambda i0, i1: (i0 // 4, i1, i0 % 4))`` (``layout_transform``);
* ``prim_value_attributes``: attributes written ``R.prim_value(...)`` in the data
  type of the first operand, ``None`` when unset (``layout_transform``'s
  ``pad_value``).

Operand slots that are shapes (``reshape``'s ``shape``, ``R.shape([...])``) or
tuples of prim values (``strided_slice``'s ``axes``, ``(R.prim_value(0),)``)
need no entry: they are ordinary Relax values, written inline.

Calls. ``CALLS`` spells the calls of functions, closures, kernels and packed
functions: ``cls.f(x)``, ``f(x)``, ``R.call_tir(cls.f, (x,), out_sinfo=T,
tir_vars=R.shape([n]))``, ``R.call_packed("f", x, sinfo_args=(T,))``, ...

Values. ``VALUES`` names the callee of the values written as calls:
``R.const(1.5, "float32")``, ``R.shape([n, 4])``, ``R.prim_value(n + 1)``,
``R.str("s")``, ``R.dtype("float32")``, ``R.ExternFunc("f")``, ``R.tuple()``
(the empty tuple; others are ``(a, b)``), ``R.match_cast(x, T)``. A tuple item
is ``t[0]``, a module function ``cls.f``, an operator reference the
operator's callee (``R.add``, called as the operator).
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass

CONSTANTS = "relax.expr.Constant"
"""The metadata section of constants: constant ``i`` is ``metadata[CONSTANTS][i]``."""

DPS_KERNELS = "relax_xdsl.dps_kernels"
"""The module attribute carrying the MLIR text of the ``call_tir`` targets."""

RESERVED = frozenset({"R", "T", "I", "cls", "metadata", "Module", "float", *keyword.kwlist})
"""Names a printed program never gives to its own values (``float`` spells
``float("nan")``)."""


@dataclass(frozen=True)
class OperatorSpelling:
    """The TVMScript spelling of one operator (see the module docstring)."""

    callee: str
    attributes: tuple[str, ...] | None = None
    prim_values: tuple[str, ...] = ()
    strings: tuple[str, ...] = ()
    integers: tuple[str, ...] = ()
    list_from: int | None = None
    device: tuple[str, ...] = ()
    index_maps: tuple[str, ...] = ()
    prim_value_attributes: tuple[str, ...] = ()


_CONV_TRANSPOSE = (
    "strides",
    "padding",
    "output_padding",
    "dilation",
    "groups",
    "data_layout",
    "kernel_layout",
    "out_layout",
    "out_dtype",
)
_POOL = (
    "pool_size",
    "strides",
    "dilation",
    "padding",
    "ceil_mode",
    "count_include_pad",
    "layout",
    "out_layout",
)

OPERATORS: dict[str, OperatorSpelling] = {
    **{
        f"relax.nn.conv{n}d_transpose": OperatorSpelling(
            f"R.nn.conv{n}d_transpose", attributes=_CONV_TRANSPOSE
        )
        for n in (1, 2, 3)
    },
    **{
        f"relax.nn.{kind}_pool{n}d": OperatorSpelling(f"R.nn.{kind}_pool{n}d", attributes=_POOL)
        for kind in ("max", "avg")
        for n in (1, 2, 3)
    },
    **{
        f"relax.nn.adaptive_avg_pool{n}d": OperatorSpelling(
            f"R.nn.adaptive_avg_pool{n}d", integers=("output_size",)
        )
        for n in (1, 2, 3)
    },
    "relax.nn.pad": OperatorSpelling("R.nn.pad", attributes=("pad_width", "pad_value", "pad_mode")),
    "relax.sort": OperatorSpelling("R.sort", attributes=("axis", "descending")),
    "relax.argsort": OperatorSpelling("R.argsort", attributes=("axis", "descending", "dtype")),
    "relax.topk": OperatorSpelling(
        "R.topk", attributes=("k", "axis", "ret_type", "largest", "dtype")
    ),
    "relax.clip": OperatorSpelling("R.clip", prim_values=("min", "max")),
    "relax.eye": OperatorSpelling("R.eye", prim_values=("n", "m", "k")),
    "relax.eye_like": OperatorSpelling("R.eye_like", prim_values=("k",)),
    "relax.arange": OperatorSpelling("R.arange", prim_values=("start", "end", "step")),
    "relax.one_hot": OperatorSpelling("R.one_hot", prim_values=("on_value", "off_value")),
    "relax.slice_scatter": OperatorSpelling(
        "R.slice_scatter", prim_values=("start", "end", "step")
    ),
    "relax.quantize": OperatorSpelling("R.quantize", attributes=("out_dtype", "axis")),
    "relax.dequantize": OperatorSpelling("R.dequantize", attributes=("out_dtype", "axis")),
    "relax.unique": OperatorSpelling(
        "R.unique",
        prim_values=("sorted", "return_index", "return_inverse", "return_counts", "axis"),
    ),
    "relax.layout_transform": OperatorSpelling(
        "R.layout_transform", index_maps=("index_map",), prim_value_attributes=("pad_value",)
    ),
    "relax.print": OperatorSpelling("R.print", strings=("format",)),
    "relax.assert_op": OperatorSpelling("R.assert_op", strings=("format",), list_from=1),
    "relax.hint_on_device": OperatorSpelling("R.hint_on_device", device=("device_type", "index")),
}


def operator_spelling(name: str) -> OperatorSpelling:
    """The spelling of the operator ``name`` (``relax.add`` is ``R.add``)."""
    found = OPERATORS.get(name)
    return found if found is not None else OperatorSpelling("R." + name.removeprefix("relax."))


@dataclass(frozen=True)
class CallSpelling:
    """``callee(target, arguments..., keyword=...)``, a call operation in TVMScript."""

    callee: str | None
    """The function called, ``R.call_tir``; None when the target itself is called
    (``cls.f(x)``, ``f(x)``)."""
    target: str
    """The field naming what is called: a symbol is a module function (``cls.f``),
    a string a packed function (``"f"``), an operand a Relax value."""
    arguments: str = "args"
    """The operands passed on."""
    as_tuple: bool = False
    """Whether the arguments are one tuple argument (``(x, y)``) or positional."""
    keywords: tuple[str, ...] = ()
    """Keyword arguments, in order: ``out_sinfo`` (the result type: a StructInfo, a
    list of them for a tuple), ``sinfo_args`` (the result type, ``(T,)``), and
    properties (``inplace_indices=[0]``) or optional operands (``tir_vars``) of
    the same name, left out when absent."""


CALLS: dict[str, CallSpelling] = {
    "relax.call": CallSpelling(None, "callee"),
    "relax.invoke": CallSpelling(None, "callee"),
    "relax.call_tir": CallSpelling(
        "R.call_tir", "callee", as_tuple=True, keywords=("out_sinfo", "tir_vars")
    ),
    "relax.call_tir_inplace": CallSpelling(
        "R.call_tir_inplace",
        "callee",
        as_tuple=True,
        keywords=("out_sinfo", "inplace_indices", "tir_vars"),
    ),
    "relax.call_packed": CallSpelling("R.call_packed", "callee", keywords=("sinfo_args",)),
    "relax.call_pure_packed": CallSpelling(
        "R.call_pure_packed", "callee", keywords=("sinfo_args",)
    ),
    "relax.call_inplace_packed": CallSpelling(
        "R.call_inplace_packed", "callee", keywords=("inplace_indices", "sinfo_args")
    ),
    "relax.call_dps_packed": CallSpelling(
        "R.call_dps_packed", "callee", as_tuple=True, keywords=("out_sinfo",)
    ),
    "relax.make_closure": CallSpelling(
        "R.make_closure", "function", arguments="captured", as_tuple=True
    ),
    "relax.invoke_closure": CallSpelling(
        "R.invoke_closure", "closure", as_tuple=True, keywords=("sinfo_args",)
    ),
    "relax.invoke_pure_closure": CallSpelling(
        "R.invoke_pure_closure", "closure", as_tuple=True, keywords=("sinfo_args",)
    ),
}

VALUES: dict[str, str] = {
    "relax.constant": "R.const",
    "relax.shape": "R.shape",
    "relax.prim_value": "R.prim_value",
    "relax.str": "R.str",
    "relax.dtype": "R.dtype",
    "relax.extern_func": "R.ExternFunc",
    "relax.tuple": "R.tuple",
    "relax.match_cast": "R.match_cast",
}
"""The callees of the values written as calls (see the module docstring)."""

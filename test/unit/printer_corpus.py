"""The modules the TVMScript printer is tested on: every module of the positive
lit tests of the dialect and its operators (split on ``// -----``) and of the
examples, named ``file@first-function``, and ``PRINTER_MODULES``: the modules
of the golden tests, and one with the operators that the lit tests use only in
modules TVM does not read."""

from __future__ import annotations

import re
from pathlib import Path

from operator_harness import load
from xdsl.dialects.builtin import ModuleOp

ROOT = Path(__file__).parents[2]
FILES = [
    ROOT / "test/filecheck/dialect/ops.mlir",
    *sorted((ROOT / "test/filecheck/ops").glob("*.mlir")),
    *sorted((ROOT / "examples").glob("*.mlir")),
]
FUNCTION = re.compile(r"relax\.function (?:private )?(?:impure )?@(\w+)")


def _lit_modules() -> dict[str, str]:
    modules = {}
    for path in FILES:
        text = path.read_text()
        if "verify-diagnostics" in text:
            continue
        for chunk in text.split("// -----"):
            first = FUNCTION.search(chunk)
            assert first is not None, f"{path}: a module without a relax.function"
            modules[f"{path.name}@{first.group(1)}"] = chunk
    return modules


PRINTER_MODULES = {
    "printer@functions": """
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %c: !relax.tensor<[], bool>, %o: !relax.object) -> !relax.tuple<tensor<[n * 4], f32>, tensor<ndim = 1, f32>> {
  %0 = relax.shape [n * 4]
  %r = relax.reshape %x, %0
  %1 = relax.prim_value 0.0 : !relax.prim<f32, 0.0>
  %2 = relax.prim_value 6.0 : !relax.prim<f32, 6.0>
  %y = relax.dataflow {
    %lv = relax.clip %r, %1, %2
    %gv = relax.call @square(%lv) : !relax.tensor<[n * 4], f32>
    relax.output %gv
  }
  %m = relax.match_cast %o : !relax.tensor<[m], f32>
  %z = relax.if %c {
    %d = relax.add %m, %m
    relax.yield %d
  } else {
    relax.yield %m
  }
  %scale = relax.lambda (%v: !relax.tensor<[m], f32>) -> !relax.tensor<[m], f32> {
    %3 = relax.constant dense<[], f32, 0.5>
    %w = relax.multiply %v, %3
    relax.return %w
  }
  %s = relax.invoke %scale(%z)
  %total = relax.sum %s {axis = [0], keepdims = true}
  %t = relax.tuple(%y, %s)
  %first = relax.tuple_get_item %t[0]
  relax.return %t
}

relax.function private @square(%a: !relax.tensor<[k], f32>) -> !relax.tensor<[k], f32> {
  %b = relax.multiply %a, %a
  relax.return %b
}
""",
    "printer@calls": """
relax.function impure @calls(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], bool>) -> !relax.tensor<[n], f32> {
  %ext = relax.extern_func "my.packed" : !relax.func<derive "default_derive", impure>
  %e = relax.invoke %ext(%x) : !relax.tensor<[n], f32>
  %p = relax.call_packed "my.print"(%x) : !relax.object
  %q = relax.call_pure_packed "my.exp"(%x) : !relax.tensor<[n], f32>
  %d = relax.call_dps_packed "my.copy"(%x) : !relax.tuple<tensor<[n], f32>, tensor<[2], i64>>
  %0 = relax.shape [n]
  %t = relax.call_tir @double(%x) tir_vars %0 : !relax.tensor<[n], f32>
  %i = relax.call_tir_inplace @accumulate(%x, %t) {inplace_indices = [0]} : !relax.tensor<[n], f32>
  %op = relax.op_ref "relax.nn.softmax" : !relax.object
  %s = relax.invoke %op(%x) : !relax.tensor<[n], f32>
  %pr = relax.print %x, %c {format = "x = {}"}
  %a = relax.assert_op %c, %x, %s {format = "{} {}"}
  relax.return %i
}
func.func @double(%a: tensor<?xf32>, %n: index, %out: tensor<?xf32>) -> tensor<?xf32> {
  func.return %out : tensor<?xf32>
}
func.func @accumulate(%a: tensor<?xf32>, %b: tensor<4xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  func.return %out : tensor<?xf32>
}
""",
    "printer@constants": """
relax.function @main(%x: !relax.tensor<[2, 2], i32>) -> !relax.tuple<tensor<[2, 2], i32>, tensor<[3], f16>> {
  %0 = relax.constant dense<[2, 2], i32, [1, 2, 3, 4]>
  %y = relax.add %x, %0
  %1 = relax.constant dense<[3], f16, [0.5, -1.0, 2.0]>
  %2 = relax.constant dense<[], bool, true>
  %z = relax.multiply %y, %2
  %t = relax.tuple(%z, %1)
  relax.return %t
}
""",
    "printer@operators": """
relax.function impure @operators(%x: !relax.tensor<[n, 3], f32>, %y: !relax.tensor<[2, 3], f32>, %image: !relax.tensor<[1, 8, 2, 2], f32>, %q: !relax.tensor<[b, s, 8, 64], f16>, %k: !relax.tensor<[b, t, 2, 64], f16>, %v: !relax.tensor<[b, t, 2, 32], f16>, %bias: !relax.tensor<[1, 8, 1, t], f16>) -> !relax.object {
  %lo = relax.prim_value 0.0 : !relax.prim<f32, 0.0>
  %hi = relax.prim_value 6.0 : !relax.prim<f32, 6.0>
  %clip = relax.clip %x, %lo, %hi
  %zero = relax.prim_value 0
  %one = relax.prim_value 1
  %three = relax.prim_value 3
  %eye = relax.eye %three, %three, %one {dtype = f16}
  %eye_like = relax.eye_like %x, %one
  %arange = relax.arange %zero, %three, %one {dtype = i64}
  %cumsum = relax.cumsum %x {axis = 1}
  %cumprod = relax.cumprod %x {axis = 0, exclusive = true}
  %fma = relax.ewise_fma %y, %y, %y
  %pad = relax.nn.pad %y {pad_width = [1, 1, 0, 2]}
  %shuffled = relax.nn.pixel_shuffle %image {upscale_factor = 2}
  %permuted = relax.permute_dims %y {axes = [1, 0]}
  %pair = relax.tuple(%y, %y)
  %stacked = relax.stack %pair {axis = 0}
  %a = relax.nn.attention %q, %k, %v {scale = 0.125, causal_mask = "TopLeft"}
  %ab = relax.nn.attention_bias %q, %k, %v, %bias {causal_mask = "BottomRight", window_size = 4}
  %g = relax.global_var @scale : !relax.func<(tensor<[2, 3], f32>, tensor<[2, 3], f32>) -> tensor<[2, 3], f32>>
  %scaled = relax.invoke %g(%y, %y) : !relax.tensor<[2, 3], f32>
  %closure = relax.make_closure @scale(%y) : !relax.object
  %called = relax.invoke_closure %closure(%y) : !relax.tensor<[2, 3], f32>
  %pure = relax.invoke_pure_closure %closure(%y) : !relax.tensor<[2, 3], f32>
  %name = relax.str "name"
  %dtype = relax.dtype f32
  %packed = relax.call_pure_packed "my.f"(%name, %dtype) : !relax.object
  %all = relax.tuple(%clip, %eye, %eye_like, %arange, %cumsum, %cumprod, %fma, %pad, %shuffled, %permuted, %stacked, %a, %ab, %scaled, %called, %pure, %packed)
  relax.return %all
}

relax.function private @scale(%u: !relax.tensor<[2, 3], f32>, %w: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
  %product = relax.multiply %u, %w
  relax.return %product
}
""",
}

CORPUS = _lit_modules() | PRINTER_MODULES
"""The text of each module, by name."""


def corpus_module(name: str) -> ModuleOp:
    """The parsed, well-formed module ``name`` of the corpus."""
    return load(CORPUS[name])

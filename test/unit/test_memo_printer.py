"""``MemoPrinter`` prints exactly what xDSL's ``Printer`` prints: the modules of
the printer corpus in both forms, the benchmark's workloads lowered in the
generic form, and operations that take the lean generic path's fallbacks
(quoted and unit attributes, successors, several results, a function-typed
result, name hints, nested isolated scopes, unregistered operations, messages);
and ``MemoMLIRTarget`` emits what xDSL's ``mlir`` target emits, resources and
syntax highlighting included; ``print_module`` prints the same with the attribute texts
it keeps between calls (of every form, restarted past their bound)."""

from __future__ import annotations

import sys
from io import StringIO
from pathlib import Path

import pytest
from printer_corpus import CORPUS, corpus_module
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.targets.mlir import MLIRTarget
from xdsl.utils.diagnostic import Diagnostic

from relax_dialect import memo_printer
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.memo_printer import MemoMLIRTarget, MemoPrinter, print_module
from relax_xdsl.lowering.pipeline import lower

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import workloads


def xdsl_text(op: Operation, generic: bool, diagnostic: Diagnostic | None = None) -> str:
    stream = StringIO()
    printer = Printer(stream=stream, print_generic_format=generic)
    if diagnostic is not None:
        printer.diagnostic = diagnostic
    printer.print_op(op)
    return stream.getvalue()


@pytest.mark.parametrize("generic", [True, False], ids=["generic", "custom"])
@pytest.mark.parametrize("name", CORPUS)
def test_corpus_module_prints_as_xdsl_prints_it(name: str, generic: bool) -> None:
    module = corpus_module(name)
    assert print_module(module, generic) == xdsl_text(module, generic)


@pytest.mark.parametrize("bound", [memo_printer.SHARED_TEXTS, 1])
def test_modules_print_as_xdsl_prints_them_after_the_others(
    bound: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo_printer, "SHARED_TEXTS", bound)
    modules = [corpus_module(name) for name in CORPUS]
    for module in modules:
        for generic in (True, False):
            print_module(module, generic)
    for module in reversed(modules):
        for generic in (False, True):
            assert print_module(module, generic) == xdsl_text(module, generic)


@pytest.mark.parametrize("workload", sorted(workloads.WORKLOADS))
def test_lowered_workload_prints_as_xdsl_prints_it(workload: str) -> None:
    lowered = lower(parse_tvmscript(workloads.tvmscript(workload, 300), f"{workload}.py"))
    assert len(list(lowered.walk())) > 1000
    assert print_module(lowered, True) == xdsl_text(lowered, True)


FALLBACKS = """\
"builtin.module"() ({
  "func.func"() <{sym_name = "f", function_type = (i1, i32) -> (i32, i32)}> ({
  ^bb0(%flag: i1, %x: i32):
    %a, %b = "test.op"(%x) {"quoted name" = 1 : i32, unit, plain = "text"} : (i32) -> (i32, i32)
    %a_1 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<none>}> {fn = () -> i32} : (i32, i32) -> i32
    %g = "test.op"() : () -> ((i32) -> i32)
    "cf.cond_br"(%flag, %a_1, %b) [^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, i32, i32) -> ()
  ^bb1(%y: i32):
    "func.return"(%y, %y) : (i32, i32) -> ()
  ^bb2(%z: i32):
    %a_2 = "test.op"() ({
      "builtin.module"() ({
        %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
      }) : () -> ()
    }, {
    }) : () -> i32
    "func.return"(%z, %a_2) : (i32, i32) -> ()
  }) : () -> ()
}) : () -> ()
"""


RESOURCES = """\
"builtin.module"() ({
  %0 = "arith.constant"() <{value = dense_resource<blob> : tensor<2xi32>}> : () -> tensor<2xi32>
  %1 = "arith.constant"() <{value = dense_resource<blob> : tensor<2xi32>}> : () -> tensor<2xi32>
}) : () -> ()
{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000100000002000000"
    }
  }
#-}
"""


def context() -> Context:
    ctx = Context(allow_unregistered=True)
    for name, dialect in get_all_dialects().items():
        ctx.register_dialect(name, dialect)
    return ctx


def fallbacks() -> ModuleOp:
    return Parser(context(), FALLBACKS, "fallbacks.mlir").parse_module()


@pytest.mark.parametrize("generic", [True, False], ids=["generic", "custom"])
def test_fallbacks_print_as_xdsl_prints_them(generic: bool) -> None:
    module = fallbacks()
    text = print_module(module, generic)
    assert text == xdsl_text(module, generic)
    if generic:
        assert text == FALLBACKS.rstrip("\n")


def test_messages_print_as_xdsl_prints_them() -> None:
    module = fallbacks()
    diagnostic = Diagnostic()
    op = next(op for op in module.walk() if op.name == "arith.addi")
    diagnostic.add_message(op, "here")
    stream = StringIO()
    printer = MemoPrinter(stream=stream, print_generic_format=True)
    printer.diagnostic = diagnostic
    printer.print_op(module)
    assert "here" in stream.getvalue()
    assert stream.getvalue() == xdsl_text(module, True, diagnostic)


@pytest.mark.parametrize(
    "options",
    [{"print_generic_format": True}, {}, {"syntax_highlight": True}],
    ids=["generic", "custom", "highlighted"],
)
def test_target_emits_as_xdsl_emits(options: dict[str, bool]) -> None:
    ctx = context()
    # xDSL keeps the blobs in the builtin dialect, across contexts, and renames a
    # handle it has seen before: each case has handles of its own.
    text = RESOURCES.replace("blob", "blob_" + "_".join(options))
    module = Parser(ctx, text, "resources.mlir").parse_module()
    ours, theirs = StringIO(), StringIO()
    MemoMLIRTarget(**options).emit(ctx, module, ours)
    MLIRTarget(**options).emit(ctx, module, theirs)
    assert "0x040000000100000002000000" in ours.getvalue()
    assert ours.getvalue() == theirs.getvalue()


@pytest.mark.parametrize("generic", [True, False], ids=["generic", "custom"])
def test_large_dense_attributes_print_as_xdsl_prints_them(generic: bool) -> None:
    """Dense data of more than 100 elements (printed from its bytes): splats of
    floats, integers and booleans, and data xDSL prints in hexadecimal."""
    constants = [
        "dense<1.500000e+00> : tensor<3x50xf32>",
        "dense<-7> : tensor<101xi64>",
        "dense<true> : tensor<2x60xi1>",
        "dense<[" + ", ".join(str(i) for i in range(101)) + "]> : tensor<101xi32>",
        "dense<[" + ", ".join(f"{i}.5" for i in range(120)) + "]> : tensor<120xf16>",
    ]
    body = "\n".join(f"  %c{i} = arith.constant {c}" for i, c in enumerate(constants))
    module = Parser(context(), f"builtin.module {{\n{body}\n}}", "dense.mlir").parse_module()
    assert print_module(module, generic) == xdsl_text(module, generic)


def test_elided_elements_and_resources() -> None:
    """Elements beyond the limit print as MLIR elides them; blobs beyond the limit
    leave the resource section, their handles stay."""
    ctx = context()
    text = RESOURCES.replace("blob", "blob_elided")
    module = Parser(ctx, text, "resources.mlir").parse_module()
    stream = StringIO()
    MemoMLIRTarget(elide_resources_if_larger=8).emit(ctx, module, stream)
    assert "dense_resource<blob_elided>" in stream.getvalue()
    assert "0x0400" not in stream.getvalue()
    small = Parser(ctx, "%c = arith.constant dense<[1, 2, 3]> : tensor<3xi32>", "c.mlir")
    constant = small.parse_op()
    elided = StringIO()
    MemoPrinter(stream=elided, elide_elements_if_larger=2).print_op(constant)
    assert elided.getvalue() == "%c = arith.constant dense_resource<__elided__> : tensor<3xi32>"

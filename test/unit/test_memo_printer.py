"""``MemoPrinter`` prints exactly what xDSL's ``Printer`` prints: the modules of
the printer corpus in both forms, the benchmark's workloads lowered in the
generic form, and operations that take the lean generic path's fallbacks
(quoted and unit attributes, successors, several results, a function-typed
result, name hints, nested isolated scopes, unregistered operations, messages);
and ``MemoMLIRTarget`` emits what xDSL's ``mlir`` target emits, resources and
syntax highlighting included."""

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

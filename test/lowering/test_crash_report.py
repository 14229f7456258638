"""A toolchain tool that crashes is reported in one line naming the kernel it was compiling
(``lowering/crash_report.py``); its whole output only with ``RELAX_XDSL_TOOLCHAIN_DUMP``.

The crashing tool is a fake ``mlir-opt-22``: a script that prints what the real one printed
when the tiling schedule aborted it on ResNet-18 (the schedule's remark, the operation, the
LLVM stack dump) and kills itself with SIGABRT. The guard that keeps the real schedule off
convolutions is tested in ``test_tiling_convolution.py``."""

from __future__ import annotations

import stat
import textwrap
from dataclasses import replace

import pytest
from toolchain_harness import needs_toolchain

from relax_xdsl.lowering import toolchain
from relax_xdsl.lowering.crash_report import DUMP_VARIABLE, crash_message, kernel_of
from relax_xdsl.lowering.toolchain import ToolchainError, find_toolchain, lower_to_llvm_dialect

MODULE = """\
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "first"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "conv"}> ({
    %0 = "linalg.conv_2d_nchw_fchw"() : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
"""

MLIR_OPT_CRASH = """\
<stdin>:6:10: remark: relax-xdsl schedule: tile_0
    %0 = "linalg.conv_2d_nchw_fchw"() : () -> ()
         ^
<stdin>:6:10: note: see current operation: %2 = linalg.conv_2d_nchw_fchw {dilations = \
dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded, %arg1 : \
tensor<?x3x230x230xf32>, tensor<64x3x7x7xf32>) outs(%1 : tensor<?x64x112x112xf32>) \
-> tensor<?x64x112x112xf32>
*** stack smashing detected ***: terminated
PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/
Stack dump:
0.\tProgram arguments: mlir-opt-22 --pass-pipeline=builtin.module(transform-interpreter)
 #0 0x00007faf318b8786 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) (/lib/libLLVM.so)
 #1 0x00007faf2c4a8eec __pthread_kill_implementation ./nptl/pthread_kill.c:44:76
 #2 0x00007faf3b6e7bd1 (/usr/lib/llvm-22/bin/../lib/libMLIR.so.22.1+0x5ce7bd1)
 #3 0x00007faf3b7553aa mlir::vector::TransposeOp::create(mlir::OpBuilder&, mlir::Location)
 #4 0x00007faf3980a146 mlir::linalg::vectorize(mlir::RewriterBase&, mlir::Operation*)
"""

LLC_CRASH = """\
Stack dump:
0.\tProgram arguments: llc-22 -O3 module.bc
1.\tRunning pass 'Function Pass Manager' on module 'module.bc'.
2.\tRunning pass 'X86 DAG->DAG Instruction Selection' on function '@kernel_7'
 #0 0x00007f0000000001 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int)
 #1 0x00007f0000000002 llvm::SelectionDAGISel::CodeGenAndEmitDAG()
"""

EXPECTED = (
    "mlir-opt-22 crashed (SIGABRT in mlir::vector::TransposeOp::create) while compiling "
    "@conv: linalg.conv_2d_nchw_fchw on (tensor<?x3x230x230xf32>, tensor<64x3x7x7xf32>) "
    "(schedule tile_0)"
)


def test_crash_names_signal_frame_and_scheduled_operation():
    message = crash_message("mlir-opt-22", -6, MLIR_OPT_CRASH, MODULE)
    assert message == f"{EXPECTED}; set {DUMP_VARIABLE}=1 for its full output"


def test_crash_in_llvm_names_the_function_of_its_pass_stack():
    assert kernel_of(LLC_CRASH) == "@kernel_7"
    message = crash_message("llc-22", -11, LLC_CRASH)
    assert message.startswith(
        "llc-22 crashed (SIGSEGV in llvm::SelectionDAGISel::CodeGenAndEmitDAG) "
        "while compiling @kernel_7;"
    )


def test_crash_without_clues_still_one_line():
    assert crash_message("opt-22", -9, "") == (
        f"opt-22 crashed (SIGKILL); set {DUMP_VARIABLE}=1 for its full output"
    )


@pytest.fixture
def crashing_mlir_opt(tmp_path, monkeypatch):
    """The toolchain with a fake ``mlir-opt-22`` that aborts after printing `MLIR_OPT_CRASH`."""
    (tmp_path / "dump.txt").write_text(MLIR_OPT_CRASH)
    fake = tmp_path / "mlir-opt-22"
    fake.write_text(
        textwrap.dedent(f"""\
            #!/bin/sh
            cat > /dev/null
            cat {tmp_path / "dump.txt"} >&2
            kill -ABRT $$
            """)
    )
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    crashing = replace(find_toolchain(), mlir_opt=str(fake))
    monkeypatch.setattr(toolchain, "find_toolchain", lambda: crashing)


@needs_toolchain
def test_a_crashing_tool_is_reported_in_one_line(crashing_mlir_opt, monkeypatch):
    monkeypatch.delenv(DUMP_VARIABLE, raising=False)
    with pytest.raises(ToolchainError) as error:
        lower_to_llvm_dialect(MODULE, tile=True)
    assert str(error.value) == f"{EXPECTED}; set {DUMP_VARIABLE}=1 for its full output"


@needs_toolchain
def test_the_full_dump_on_request(crashing_mlir_opt, monkeypatch):
    monkeypatch.setenv(DUMP_VARIABLE, "1")
    with pytest.raises(ToolchainError) as error:
        lower_to_llvm_dialect(MODULE, tile=True)
    first, *rest = str(error.value).splitlines()
    assert first == EXPECTED
    assert "mlir::linalg::vectorize" in rest[-1] and "Stack dump:" in rest

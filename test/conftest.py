"""The suite runs call_tir as the tools do: on the lowered interpreter, wired once here
(a test of the tools would wire it anyway, and the wiring is global)."""

from relax_xdsl.lowering import wire_tir_executor

wire_tir_executor()

"""The dataflow of a module's Relax functions as a Graphviz graph (``relax-opt
--emit dot``, and ``--emit svg`` through Graphviz's ``dot``).

Each function is a cluster: one node per parameter and per binding (its variable,
operator and StructInfo), an edge per use of a value, the function's return as a
node. A dataflow block is a dashed cluster; an ``if`` is a diamond node whose
``then`` and ``else`` branches are clusters feeding it. A call of a fused function
(marked ``Primitive`` or ``Composite``) is drawn as a filled cluster holding the
callee's bindings, so fused groups show where they are used; a fused function
that nothing calls is drawn as a function of its own.
"""

from __future__ import annotations

import shutil
import subprocess
from collections import ChainMap
from collections.abc import Iterator

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from .analysis.call_graph import functions
from .ops.calls import CallOp
from .ops.control_flow import IfOp, YieldOp
from .ops.dataflow import DataflowOp, OutputOp
from .ops.functions import FunctionLike, FunctionOp, ReturnOp
from .rewriting.outline_groups import COMPOSITE, PRIMITIVE
from .types import struct_info_text

GRAPHVIZ_INSTALL = "apt-get install -y --no-install-recommends graphviz"

_STYLE = {
    "param": 'shape=ellipse, style=filled, fillcolor="#dbe9f6"',
    "binding": 'shape=box, style="rounded"',
    "if": "shape=diamond",
    "return": 'shape=ellipse, style=filled, fillcolor="#e8e8e8"',
}
_CLUSTER_STYLE = {
    "function": 'style="solid"; color="#555555"',
    "dataflow": 'style="dashed"; color="#2b6cb0"',
    "fused": 'style="filled,dashed"; color="#c05621"; fillcolor="#fff5eb"',
    "branch": 'style="dotted"',
    "lambda": 'style="solid"; color="#777777"',
}


def _quote(text: str) -> str:
    """A DOT string: quoted, with quotes and backslashes escaped, lines by ``\\n``."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def is_fused(function: FunctionOp) -> bool:
    """Whether a function is a fused group (``Primitive`` or ``Composite``)."""
    return PRIMITIVE in function.attributes or COMPOSITE in function.attributes


class _Writer:
    """Writes the DOT text; ``names`` maps each value to its node (scoped, as a
    fused function's body is drawn once per call). Edges are written after the
    clusters: Graphviz puts a node in every cluster that mentions it."""

    def __init__(self, module: ModuleOp):
        self.lines: list[str] = []
        self.edges: list[str] = []
        self.names: ChainMap[SSAValue, str] = ChainMap()
        self.fused = {f.sym_name.data: f for f in functions(module) if is_fused(f)}
        self._count = 0

    def fresh(self, kind: str) -> str:
        self._count += 1
        return f"{kind}{self._count}"

    def node(self, kind: str, label: str, depth: int) -> str:
        name = self.fresh("n")
        self.lines.append(f"{'  ' * depth}{name} [label={_quote(label)}, {_STYLE[kind]}];")
        return name

    def edge(self, source: SSAValue, target: str, label: str = "") -> None:
        found = self.names.get(source)
        if found is not None:
            shown = f" [label={_quote(label)}]" if label else ""
            self.edges.append(f"  {found} -> {target}{shown};")

    def cluster(self, kind: str, label: str, depth: int) -> _Cluster:
        return _Cluster(self, kind, label, depth)

    def function(self, function: FunctionLike, label: str, kind: str, depth: int) -> str | None:
        """A function's cluster; the node of its returned value (None if none)."""
        with self.cluster(kind, label, depth):
            for param in function.params:
                text = f"%{param.name_hint or '?'}\n{struct_info_text(param.type)}"
                self.names[param] = self.node("param", text, depth + 1)
            return self.block(function.body.block, depth + 1)

    def block(self, block: Block, depth: int) -> str | None:
        """The operations of a block; the node its terminator returns or yields."""
        returned = None
        for op in block.ops:
            returned = self.operation(op, depth) or returned
        return returned

    def operation(self, op: Operation, depth: int) -> str | None:
        if isinstance(op, ReturnOp):
            node = self.node("return", f"return\n{struct_info_text(op.value.type)}", depth)
            self.edge(op.value, node)
            return node
        if isinstance(op, OutputOp | YieldOp):
            return None  # the enclosing dataflow block or if reads them
        if isinstance(op, DataflowOp):
            with self.cluster("dataflow", "dataflow", depth):
                self.block(op.body.block, depth + 1)
            for result, value in zip(op.outputs, op.output_op.values, strict=True):
                if value in self.names:
                    self.names[result] = self.names[value]
            return None
        if isinstance(op, IfOp):
            return self.branches(op, depth)
        if isinstance(op, CallOp) and op.callee_name in self.fused:
            return self.fused_call(op, depth)
        node = self.node("binding", _binding_label(op), depth)
        for operand in op.operands:
            self.edge(operand, node)
        for result in op.results:
            self.names[result] = node
        if isinstance(op, FunctionLike):  # a local function, drawn beside its node
            self.names = self.names.new_child()
            self.function(op, _binding_label(op), "lambda", depth)
            self.names = self.names.parents
        return None

    def branches(self, op: IfOp, depth: int) -> None:
        """A diamond fed by the values each branch's cluster yields."""
        node = self.node("if", _binding_label(op), depth)
        self.edge(op.cond, node, "condition")
        for label, region in (("then", op.then_region), ("else", op.else_region)):
            with self.cluster("branch", label, depth):
                self.block(region.block, depth + 1)
            last = region.block.last_op
            if isinstance(last, YieldOp):
                for value in last.operands:
                    self.edge(value, node, label)
        for result in op.results:
            self.names[result] = node

    def fused_call(self, op: CallOp, depth: int) -> None:
        """The callee's bindings inside a cluster, its parameters the call's arguments."""
        callee = self.fused[op.callee_name]
        kind = PRIMITIVE if PRIMITIVE in callee.attributes else COMPOSITE
        label = f"{_variable(op)}fused @{op.callee_name} ({kind})"
        self.names = self.names.new_child()
        for param, arg in zip(callee.params, op.args, strict=True):
            if arg in self.names:
                self.names[param] = self.names[arg]
        with self.cluster("fused", label, depth):
            block = callee.body.block
            for inner in block.ops:
                if not isinstance(inner, ReturnOp):
                    self.operation(inner, depth + 1)
        returned = callee.returned
        node = self.names.get(returned) if returned is not None else None
        self.names = self.names.parents
        if node is not None:
            self.names[op.results[0]] = node


class _Cluster:
    """``subgraph cluster_N { label=...; ... }`` around what is written inside."""

    def __init__(self, writer: _Writer, kind: str, label: str, depth: int):
        self.writer, self.kind, self.label, self.depth = writer, kind, label, depth

    def __enter__(self) -> None:
        indent = "  " * self.depth
        name = self.writer.fresh("cluster_")
        self.writer.lines.append(f"{indent}subgraph {name} {{")
        style = _CLUSTER_STYLE[self.kind]
        self.writer.lines.append(f"{indent}  label={_quote(self.label)}; {style};")

    def __exit__(self, *_: object) -> None:
        self.writer.lines.append(f"{'  ' * self.depth}}}")


def _variable(op: Operation) -> str:
    names = [f"%{r.name_hint}" for r in op.results if r.name_hint]
    return f"{', '.join(names)} = " if names else ""


def _binding_label(op: Operation) -> str:
    """``%y = relax.add`` and the StructInfo of its result."""
    head = f"{_variable(op)}{op.name}"
    if isinstance(op, CallOp):
        head += f" @{op.callee_name}"
    types = "\n".join(struct_info_text(r.type) for r in op.results)
    return f"{head}\n{types}" if types else head


def _drawn_alone(module: ModuleOp, writer: _Writer) -> Iterator[FunctionOp]:
    """The functions drawn as clusters of their own: all but fused functions that
    some function calls (those are drawn at their calls)."""
    called = {
        op.callee_name for f in functions(module) for op in f.walk() if isinstance(op, CallOp)
    }
    for function in functions(module):
        if not (function.sym_name.data in writer.fused and function.sym_name.data in called):
            yield function


def module_to_dot(module: ModuleOp) -> str:
    """The DOT text of the module's Relax functions."""
    writer = _Writer(module)
    writer.lines += [
        "digraph relax {",
        '  graph [rankdir=TB, fontname="Helvetica", fontsize=11];',
        '  node [fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    for function in _drawn_alone(module, writer):
        writer.names = ChainMap()
        writer.function(function, f"@{function.sym_name.data}", "function", 1)
    writer.lines += [*writer.edges, "}"]
    return "\n".join(writer.lines) + "\n"


class GraphvizError(Exception):
    """Graphviz's ``dot`` is missing or failed."""


def render_svg(dot: str) -> str:
    """The SVG that Graphviz's ``dot`` draws of a DOT text."""
    program = shutil.which("dot")
    if program is None:
        raise GraphvizError(
            f"--emit svg needs Graphviz's 'dot' program: install it (`{GRAPHVIZ_INSTALL}`), "
            "or write DOT with --emit dot and render it elsewhere"
        )
    result = subprocess.run([program, "-Tsvg"], input=dot, capture_output=True, text=True)
    if result.returncode:
        raise GraphvizError(f"dot failed (exit {result.returncode}): {result.stderr.strip()}")
    return result.stdout

"""``relax-opt --emit dot|svg``: the dataflow graph of each function, checked by its
structure (nodes, edges per use, clusters), and drawn by Graphviz when it is here."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from relax_dialect.dataflow_graph import module_to_dot
from relax_dialect.frontends import read_module
from relax_xdsl.tools.relax_opt import main

PROGRAM = """\
relax.function private @fused_add(%a: !relax.tensor<[4], f32>, %b: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> attributes {Primitive = true} {
  %s = relax.add %a, %b
  relax.return %s
}
relax.function @main(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %y = relax.dataflow {
    %t = relax.call @fused_add(%x, %x) : !relax.tensor<[4], f32>
    %u = relax.multiply %t, %x
    relax.output %u
  }
  %r = relax.if %c {
    %p = relax.negative %y
    relax.yield %p
  } else {
    relax.yield %x
  }
  relax.return %r
}
"""


@dataclass
class Graph:
    """A DOT text read back: each node's label and enclosing cluster labels
    (outermost first), and the edges with their labels."""

    nodes: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    edges: list[tuple[str, str, str]] = field(default_factory=list)
    clusters: list[tuple[str, ...]] = field(default_factory=list)

    def node(self, label_start: str) -> str:
        (found,) = [n for n, (label, _) in self.nodes.items() if label.startswith(label_start)]
        return found

    def edge_labels(self, source: str, target: str) -> list[str]:
        return [label for s, t, label in self.edges if (s, t) == (source, target)]


def read_graph(text: str) -> Graph:
    graph = Graph()
    open_clusters: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("subgraph cluster_"):
            open_clusters.append("")
        elif line.startswith("label=") and open_clusters:
            open_clusters[-1] = re.match(r'label="(.*?)";', line)[1]  # type: ignore[index]
            graph.clusters.append(tuple(open_clusters))
        elif line == "}" and open_clusters:
            open_clusters.pop()
        elif found := re.fullmatch(r'(n\d+) \[label="(.*?)", .*\];', line):
            graph.nodes[found[1]] = (found[2].replace("\\n", "\n"), tuple(open_clusters))
        elif found := re.fullmatch(r'(n\d+) -> (n\d+)(?: \[label="(.*)"\])?;', line):
            graph.edges.append((found[1], found[2], found[3] or ""))
    return graph


def test_nodes_edges_and_clusters() -> None:
    graph = read_graph(module_to_dot(read_module(PROGRAM.encode(), name="program.mlir")))
    # one node per parameter and binding (the call of a fused function is its cluster)
    labels = sorted(label.split("\n")[0] for label, _ in graph.nodes.values())
    assert labels == sorted(
        [
            "%c",
            "%x",
            "%s = relax.add",
            "%u = relax.multiply",
            "%p = relax.negative",
            "%r = relax.if",
            "return",
        ]
    )
    assert graph.nodes[graph.node("%u")][0] == "%u = relax.multiply\ntensor<[4], f32>"
    c, x, add, multiply = (graph.node(n) for n in ("%c", "%x", "%s =", "%u ="))
    negative, branch, returned = (graph.node(n) for n in ("%p =", "%r =", "return"))
    # an edge per use: %x is both operands of the fused add, whose parameters it binds
    assert graph.edge_labels(x, add) == ["", ""]
    assert graph.edge_labels(add, multiply) == [""]  # the call's result is the callee's
    assert graph.edge_labels(x, multiply) == [""]
    assert graph.edge_labels(multiply, negative) == [""]  # the dataflow block's output
    assert graph.edge_labels(c, branch) == ["condition"]
    assert graph.edge_labels(negative, branch) == ["then"]
    assert graph.edge_labels(x, branch) == ["else"]
    assert graph.edge_labels(branch, returned) == [""]
    assert len(graph.edges) == 9
    # clusters: the function, its dataflow block holding the fused group, the branches
    fused = ("@main", "dataflow", "%t = fused @fused_add (Primitive)")
    assert sorted(graph.clusters) == sorted(
        [("@main",), ("@main", "dataflow"), fused, ("@main", "then"), ("@main", "else")]
    )
    assert graph.nodes[add][1] == fused
    assert graph.nodes[multiply][1] == ("@main", "dataflow")
    assert graph.nodes[negative][1] == ("@main", "then")
    assert graph.nodes[x][1] == ("@main",)


def test_a_fused_function_nothing_calls_is_drawn_alone() -> None:
    alone = PROGRAM.split("relax.function @main")[0]
    graph = read_graph(module_to_dot(read_module(alone.encode(), name="program.mlir")))
    assert graph.clusters == [("@fused_add",)]
    assert graph.edge_labels(graph.node("%a"), graph.node("%s =")) == [""]


def test_labels_are_quoted_for_dot() -> None:
    text = module_to_dot(read_module(PROGRAM.encode(), name="program.mlir"))
    assert text.startswith("digraph relax {\n") and text.endswith("}\n")
    assert '"' not in re.sub(r'"(?:[^"\\]|\\.)*"', "", text)  # every string closed


def test_emit_dot_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "program.mlir"
    path.write_text(PROGRAM)
    assert main([str(path), "--emit", "dot"]) == 0
    assert read_graph(capsys.readouterr().out).clusters[0] == ("@main",)
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    assert main([str(path), "--emit", "svg"]) == 0
    svg = capsys.readouterr().out
    assert "<svg" in svg and "fused @fused_add (Primitive)" in svg


def test_emit_svg_without_graphviz_says_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "program.mlir"
    path.write_text(PROGRAM)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert main([str(path), "--emit", "svg"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("relax-opt: error: --emit svg needs Graphviz's 'dot' program")
    assert "apt-get install -y --no-install-recommends graphviz" in err

"""Mutation fuzzing of the ONNX frontend (``relax-opt model.onnx``).

Mutants are derived from the models the frontend accepts among a sample of ONNX's node
suite and the small transformer and LSTM models of ``bench/onnx_models.py``, either at the
byte level (bits flipped, bytes overwritten, ranges deleted, duplicated or spliced from
another model, truncation) or structurally (a node's input dropped or renamed to nothing, a graph input or an
initializer removed, an attribute dropped or given the wrong type, input shapes made
empty, negative, huge or of another rank, element types changed, cycles, unknown
operators, domains and opsets, initializers whose data contradicts their shape, outputs
duplicated or dangling). Every mutant must be accepted (and then printed as text that the
MLIR reader reads back to the same text) or rejected with located diagnostics
(``model.onnx: error: ...``, ``model.onnx: node 'x' (Op, opset N): error: ...``) -- never
with an exception, a hang (``TIME_LIMIT``) or an allocation past ``MEMORY_LIMIT``.

``python test/fuzz/onnx_mutate.py COUNT [SEED [DIRECTORY]]`` runs an opt-in long campaign,
prints its figures and keeps the failing mutants in the directory.
"""

from __future__ import annotations

import contextlib
import random
import resource
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import onnx
from mutate import ACCEPTED, REJECTED, Campaign
from onnx import AttributeProto, TensorProto, helper

from relax_dialect import frontends
from relax_xdsl.tools.relax_opt import RelaxOptMain

ROOT = Path(__file__).resolve().parents[2]
TIME_LIMIT = 20
"""Seconds a mutant may take."""
MEMORY_LIMIT = 3 << 30
"""Bytes of address space a mutant may add to the process's."""
SUITE_SAMPLE = 7
"""Every how-many-th node-suite case is a seed."""
SEED_ARCHITECTURES = ("bert", "bert_ln", "gpt2", "vit", "lstm")
INTERESTING_BYTES = (0x00, 0x01, 0x7F, 0x80, 0xFF)
ODD_DIMS = (0, -1, -7, 1 << 40, 3)
ODD_OPSETS = (1, 6, 7, 12, 29, 1000)
ODD_TYPES = (
    TensorProto.UNDEFINED,
    TensorProto.STRING,
    TensorProto.BFLOAT16,
    TensorProto.FLOAT8E4M3FN,
    TensorProto.COMPLEX64,
    TensorProto.INT4,
    TensorProto.BOOL,
    TensorProto.DOUBLE,
    TensorProto.INT8,
    99,
)


def seeds() -> list[bytes]:
    """The serialized models the mutants start from."""
    sys.path.insert(0, str(ROOT / "test" / "onnx"))
    sys.path.insert(0, str(ROOT / "bench"))
    from node_suite import suite
    from onnx_models import ARCHITECTURES

    models = [case.model for case in suite().cases[::SUITE_SAMPLE]]
    models += [ARCHITECTURES[name].model() for name in SEED_ARCHITECTURES]
    return [model.SerializeToString() for model in models]


# --- byte-level mutations ----------------------------------------------------------------


def _flip_bits(data: bytearray, rng: random.Random, _: list[bytes]) -> None:
    for _ in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)


def _overwrite_bytes(data: bytearray, rng: random.Random, _: list[bytes]) -> None:
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.choice(INTERESTING_BYTES)


def _truncate(data: bytearray, rng: random.Random, _: list[bytes]) -> None:
    del data[rng.randrange(len(data)) :]


def _delete_range(data: bytearray, rng: random.Random, _: list[bytes]) -> None:
    start = rng.randrange(len(data))
    del data[start : start + rng.randint(1, 16)]


def _duplicate_range(data: bytearray, rng: random.Random, _: list[bytes]) -> None:
    start = rng.randrange(len(data))
    piece = data[start : start + rng.randint(1, 64)]
    at = rng.randrange(len(data) + 1)
    data[at:at] = piece


def _splice(data: bytearray, rng: random.Random, pool: list[bytes]) -> None:
    other = rng.choice(pool)
    start = rng.randrange(len(other))
    at = rng.randrange(len(data) + 1)
    data[at : at + rng.randint(0, 32)] = other[start : start + rng.randint(1, 64)]


BYTE_MUTATIONS: list[Callable[[bytearray, random.Random, list[bytes]], None]] = [
    _flip_bits,
    _overwrite_bytes,
    _truncate,
    _delete_range,
    _duplicate_range,
    _splice,
]


# --- structured mutations ----------------------------------------------------------------


def _graphs(graph: onnx.GraphProto) -> Iterator[onnx.GraphProto]:
    """The graph and its subgraphs (If branches, Loop and Scan bodies), depth first."""
    yield graph
    for node in graph.node:
        for attribute in node.attribute:
            if attribute.type == AttributeProto.GRAPH:
                yield from _graphs(attribute.g)
            for subgraph in attribute.graphs:
                yield from _graphs(subgraph)


def _some_node(model: onnx.ModelProto, rng: random.Random) -> onnx.NodeProto | None:
    nodes = [node for graph in _graphs(model.graph) for node in graph.node]
    return rng.choice(nodes) if nodes else None


def _drop_node_input(model: onnx.ModelProto, rng: random.Random) -> None:
    node = _some_node(model, rng)
    if node is not None and node.input:
        del node.input[rng.randrange(len(node.input))]


def _dangling_node_input(model: onnx.ModelProto, rng: random.Random) -> None:
    node = _some_node(model, rng)
    if node is not None and node.input:
        node.input[rng.randrange(len(node.input))] = rng.choice(["nowhere", "", "x y"])


def _drop_graph_input(model: onnx.ModelProto, rng: random.Random) -> None:
    if model.graph.input:
        del model.graph.input[rng.randrange(len(model.graph.input))]


def _drop_initializer(model: onnx.ModelProto, rng: random.Random) -> None:
    if model.graph.initializer:
        del model.graph.initializer[rng.randrange(len(model.graph.initializer))]


def _drop_attribute(model: onnx.ModelProto, rng: random.Random) -> None:
    node = _some_node(model, rng)
    if node is not None and node.attribute:
        del node.attribute[rng.randrange(len(node.attribute))]


def _retype_attribute(model: onnx.ModelProto, rng: random.Random) -> None:
    """Give an attribute a value of another type (an int where a list of floats is
    expected, a string, a tensor, a graph...)."""
    node = _some_node(model, rng)
    if node is None or not node.attribute:
        return
    index = rng.randrange(len(node.attribute))
    name = node.attribute[index].name
    value = rng.choice(
        [
            7,
            -3,
            2.5,
            "bogus",
            [1, 2, 3],
            [0.5, -1.0],
            ["a", "b"],
            (),
            helper.make_tensor("t", TensorProto.FLOAT, [2], [1.0, 2.0]),
            helper.make_graph([], "empty", [], []),
        ]
    )
    if value == ():  # an empty list, of integers
        node.attribute[index].CopyFrom(
            helper.make_attribute(name, [], attr_type=AttributeProto.INTS)
        )
        return
    node.attribute[index].CopyFrom(helper.make_attribute(name, value))


def _odd_attribute(model: onnx.ModelProto, rng: random.Random) -> None:
    """Add an attribute: an unknown one, or a known name with an extreme value."""
    node = _some_node(model, rng)
    if node is None:
        return
    name = rng.choice(["unknown_attribute", "axis", "axes", "perm", "to", "group", "alpha"])
    value = rng.choice([1 << 40, -1 << 40, 999, [999, -999], float("nan"), "x"])
    kept = [a for a in node.attribute if a.name != name]
    del node.attribute[:]
    node.attribute.extend([*kept, helper.make_attribute(name, value)])


def _reshape_graph_input(model: onnx.ModelProto, rng: random.Random) -> None:
    """An input dimension made odd (empty, negative, huge, symbolic) or a rank changed."""
    if not model.graph.input:
        return
    tensor = rng.choice(model.graph.input).type.tensor_type
    dims = tensor.shape.dim
    choice = rng.randrange(3)
    if choice == 0 and dims:
        dim = rng.choice(dims)
        value = rng.choice([*ODD_DIMS, "n"])
        if isinstance(value, str):
            dim.dim_param = value
        else:
            dim.dim_value = value
    elif choice == 1 and dims:
        del dims[rng.randrange(len(dims))]
    else:
        dims.add().dim_value = rng.choice([1, 2, 5])


def _retype_value(model: onnx.ModelProto, rng: random.Random) -> None:
    values = [*model.graph.input, *model.graph.output]
    if values:
        rng.choice(values).type.tensor_type.elem_type = rng.choice(ODD_TYPES)


def _cycle(model: onnx.ModelProto, rng: random.Random) -> None:
    """A node takes its own output or a later node's as an input."""
    nodes = model.graph.node
    if not nodes:
        return
    first = rng.randrange(len(nodes))
    later = nodes[rng.randrange(first, len(nodes))]
    if nodes[first].input and later.output:
        nodes[first].input[rng.randrange(len(nodes[first].input))] = later.output[0]


def _rename_op(model: onnx.ModelProto, rng: random.Random) -> None:
    node = _some_node(model, rng)
    if node is not None:
        pool = [n.op_type for graph in _graphs(model.graph) for n in graph.node]
        node.op_type = rng.choice([*pool, "Conv", "Loop", "Reshape", "NoSuchOp", ""])


def _odd_domain(model: onnx.ModelProto, rng: random.Random) -> None:
    node = _some_node(model, rng)
    if node is not None:
        node.domain = rng.choice(["com.example", "ai.onnx.ml", "ai.onnx", "ai.onnx.preview"])


def _odd_opset(model: onnx.ModelProto, rng: random.Random) -> None:
    if rng.random() < 0.2:
        del model.opset_import[:]
    elif model.opset_import:
        rng.choice(model.opset_import).version = rng.choice(ODD_OPSETS)


def _corrupt_initializer(model: onnx.ModelProto, rng: random.Random) -> None:
    """An initializer whose dims, data type or data contradict each other."""
    if not model.graph.initializer:
        return
    tensor = rng.choice(model.graph.initializer)
    choice = rng.randrange(4)
    if choice == 0 and tensor.dims:
        tensor.dims[rng.randrange(len(tensor.dims))] = rng.choice([0, 3, 1 << 20, -2])
    elif choice == 1:
        tensor.data_type = rng.choice(ODD_TYPES)
    elif choice == 2 and tensor.raw_data:
        tensor.raw_data = tensor.raw_data[: rng.randrange(len(tensor.raw_data))]
    else:
        tensor.dims.append(rng.choice([2, 0]))


def _duplicate_output(model: onnx.ModelProto, rng: random.Random) -> None:
    nodes = [node for node in model.graph.node if node.output]
    if len(nodes) >= 2:
        first, second = rng.sample(nodes, 2)
        second.output[0] = first.output[0]


def _dangling_output(model: onnx.ModelProto, rng: random.Random) -> None:
    if model.graph.output:
        output = rng.choice(model.graph.output)
        if rng.random() < 0.5:
            output.name = "nowhere"
        else:
            model.graph.output.remove(output)


STRUCTURED_MUTATIONS: list[Callable[[onnx.ModelProto, random.Random], None]] = [
    _drop_node_input,
    _dangling_node_input,
    _drop_graph_input,
    _drop_initializer,
    _drop_attribute,
    _retype_attribute,
    _odd_attribute,
    _reshape_graph_input,
    _retype_value,
    _cycle,
    _rename_op,
    _odd_domain,
    _odd_opset,
    _corrupt_initializer,
    _duplicate_output,
    _dangling_output,
]


def mutate(data: bytes, rng: random.Random, pool: list[bytes]) -> bytes:
    """One to three mutations of one kind, byte-level or structured."""
    if rng.random() < 0.4:
        mutant = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            if mutant:
                rng.choice(BYTE_MUTATIONS)(mutant, rng, pool)
        return bytes(mutant)
    model = onnx.ModelProto.FromString(data)
    for _ in range(rng.randint(1, 3)):
        rng.choice(STRUCTURED_MUTATIONS)(model, rng)
    return model.SerializeToString()


# --- the campaign ------------------------------------------------------------------------


class TookTooLong(Exception):
    pass


@contextlib.contextmanager
def limits() -> Iterator[None]:
    """At most ``TIME_LIMIT`` seconds (``TookTooLong``) and ``MEMORY_LIMIT`` more bytes of
    address space (``MemoryError``) inside; both restored after."""

    def alarm(*_: object) -> None:
        raise TookTooLong(f"took longer than {TIME_LIMIT} s")

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    size = _address_space()
    wanted = size + MEMORY_LIMIT
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    previous = signal.signal(signal.SIGALRM, alarm)
    resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    signal.alarm(TIME_LIMIT)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _address_space() -> int:
    """The process's address space now, in bytes (``VmSize``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


def check_one(tool: RelaxOptMain, data: bytes) -> str:
    """``accepted`` (and printed text the MLIR reader reads back unchanged), ``rejected``
    (with located errors), or what went wrong."""
    try:
        with limits():
            output, diagnostics = tool.process(data, "fuzz.onnx", 0)
    except Exception as error:  # the contract: never an unexpected exception
        return f"{type(error).__name__}: {error}"
    if diagnostics:
        unlocated = [d for d in diagnostics if d.location is None]
        return f"unlocated diagnostic: {unlocated[0]}" if unlocated else REJECTED
    reader = RelaxOptMain([])
    reader.frontend = frontends.lookup("mlir")
    try:
        again, problems = reader.process(output, "printed.mlir", 0)
    except Exception as error:
        return f"printed output breaks the reader: {type(error).__name__}: {error}"
    if problems:
        return f"printed output is rejected: {problems[0]}"
    return ACCEPTED if again == output else "printed output does not read back the same"


def run(count: int, seed: int = 0) -> Campaign:
    """``count`` mutants of the seeds the frontend accepts."""
    rng = random.Random(seed)
    tool = RelaxOptMain([])
    tool.frontend = frontends.lookup("onnx")
    pool = [data for data in seeds() if check_one(tool, data) == ACCEPTED]
    campaign = Campaign()
    for _ in range(count):
        data = mutate(rng.choice(pool), rng, pool)
        verdict = check_one(tool, data)
        if verdict == ACCEPTED:
            campaign.accepted += 1
        elif verdict == REJECTED:
            campaign.rejected += 1
        else:
            campaign.failures.append((data, verdict))
    return campaign


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    start = time.perf_counter()
    campaign = run(count, seed)
    elapsed = time.perf_counter() - start
    print(
        f"{campaign.total} ONNX mutants (seed {seed}) in {elapsed:.1f} s: "
        f"{campaign.accepted} accepted, {campaign.rejected} rejected with located errors, "
        f"{len(campaign.failures)} contract failures"
    )
    for index, (data, problem) in enumerate(campaign.failures):
        if index < 10:
            print(f"--- {problem}")
        if len(sys.argv) > 3:  # a directory to keep the failing mutants in
            Path(sys.argv[3], f"mutant{index}.onnx").write_bytes(data)
    return 1 if campaign.failures else 0


if __name__ == "__main__":
    sys.exit(main())

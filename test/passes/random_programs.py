"""Random well-formed Relax programs, for the differential tests of the passes.

``generate(seed)`` builds a module with the Python builder from
``random.Random(seed)`` alone and returns it with NumPy inputs for its entry
function ``@main``::

    program = generate(7)
    result = run(program.module, program.entry, *program.inputs)

The programs hold what the passes transform: symbolic shapes (several
variables, arithmetic dimensions), dataflow and plain blocks, tuples,
``match_cast`` (binding new variables, re-stating known shapes, aliases to the
same type), ``relax.alias`` (``y = x``, of the same or a weaker type),
``if``/``else`` on data-dependent conditions, private helpers (some called
twice, some never, some returning tuples or ignoring a parameter), closures
capturing values, constants and constant-only
computations, shape chains, duplicate computations and dead bindings, over
the operator families (element-wise, broadcasting, reductions, matmul,
manipulation, neural network, indexing, creation, data type). Every value
carries bounds on its elements, so that an operator is applied only where its
result is finite (no NaN, no overflow), and, in ``@main``, its shape at run
time, so that every ``match_cast`` succeeds on the inputs.

``python test/passes/random_programs.py SEED`` prints one program.
"""

from __future__ import annotations

import math
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue

from relax_dialect.analysis.walk import walk_ops
from relax_dialect.builder import Builder, Shape
from relax_dialect.dtype import DataType
from relax_dialect.ops.alias import AliasOp
from relax_dialect.ops.dataflow import DataflowOp
from relax_dialect.prim_expr import Apply, IntImm, PrimExpr, Var, evaluate, free_vars
from relax_dialect.prim_expr_simplify import prove_equal, simplify
from relax_dialect.types import ObjectType, ShapeType, TensorType

SIZES = (1, 5)
"""The range of the values chosen for the entry's symbolic variables."""
SIZE_BOUND = 64
"""An upper bound for a dimension whose size is unknown while generating."""
MAGNITUDE = 1e4
"""No element may exceed this magnitude: operators that could are not applied."""
ARG_BOUND = 3.0
"""Arguments of helpers and closures lie in ``[-ARG_BOUND, ARG_BOUND]``."""

Bounds = tuple[float, float]


@dataclass(frozen=True)
class Program:
    """A generated module, its entry function and inputs for it."""

    seed: int
    module: ModuleOp
    entry: str
    inputs: list[np.ndarray]
    param_names: list[str]
    sizes: dict[str, int]
    """The values of the entry's symbolic variables in ``inputs``."""
    features: Counter[str]
    """How often each construct (by the generator's intent) and each operation
    (by name, counted in the module) occurs."""

    @property
    def params(self) -> dict[str, np.ndarray]:
        """The inputs by parameter name."""
        return dict(zip(self.param_names, self.inputs, strict=True))


@dataclass(frozen=True)
class Tensor:
    """A tensor value in scope: bounds on its elements and, when known, its
    shape at run time."""

    value: SSAValue
    lo: float
    hi: float
    shape: tuple[int, ...] | None

    @property
    def type(self) -> TensorType:
        assert isinstance(self.value.type, TensorType)
        return self.value.type

    @property
    def dims(self) -> tuple[PrimExpr, ...] | None:
        return self.type.dims

    @property
    def dtype(self) -> str:
        """The NumPy name of the data type (``float32``)."""
        return np.dtype(self.type.data_type.to_numpy()).name

    @property
    def magnitude(self) -> float:
        return max(abs(self.lo), abs(self.hi))


@dataclass(frozen=True)
class Callee:
    """A helper function (by name) or a closure (by value) that may be called."""

    target: str | SSAValue
    params: tuple[TensorType, ...]
    results: tuple[Bounds, ...]
    """Bounds of each result; more than one when the callee returns a tuple."""


@dataclass
class Scope:
    """What a block under construction sees: its tensors, the bindings that may
    be emitted again (duplicates) and its closures."""

    dataflow: bool
    tensors: list[Tensor] = field(default_factory=list)
    recipes: list[Callable[[], Tensor]] = field(default_factory=list)
    closures: list[Callee] = field(default_factory=list)


def _monotone(f: Callable[[float], float]) -> Callable[[float, float], Bounds]:
    return lambda lo, hi: (f(lo), f(hi))


def _sigmoid(v: float) -> float:
    return 0.5 * (1.0 + math.tanh(v / 2))


def _square(lo: float, hi: float) -> Bounds:
    low = 0.0 if lo <= 0 <= hi else min(lo * lo, hi * hi)
    return low, max(lo * lo, hi * hi)


UNARY: dict[str, tuple[Callable[[float, float], Bounds | None], bool]] = {
    "relax.negative": (lambda lo, hi: (-hi, -lo), True),
    "relax.abs": (lambda lo, hi: (_square(lo, hi)[0] ** 0.5, max(-lo, hi)), True),
    "relax.square": (lambda lo, hi: _square(lo, hi) if max(-lo, hi) <= 100 else None, True),
    "relax.floor": (lambda lo, hi: (math.floor(lo), math.floor(hi)), True),
    "relax.ceil": (lambda lo, hi: (math.ceil(lo), math.ceil(hi)), True),
    "relax.round": (lambda lo, hi: (math.floor(lo), math.ceil(hi)), True),
    "relax.sign": (lambda lo, hi: (-1.0, 1.0), True),
    "relax.nn.relu": (lambda lo, hi: (max(lo, 0.0), max(hi, 0.0)), True),
    "relax.tanh": (_monotone(math.tanh), False),
    "relax.sigmoid": (_monotone(_sigmoid), False),
    "relax.erf": (_monotone(math.erf), False),
    "relax.atan": (_monotone(math.atan), False),
    "relax.sin": (lambda lo, hi: (-1.0, 1.0), False),
    "relax.cos": (lambda lo, hi: (-1.0, 1.0), False),
    "relax.exp": (lambda lo, hi: (math.exp(lo), math.exp(hi)) if hi <= 8 else None, False),
    "relax.sqrt": (lambda lo, hi: (math.sqrt(lo), math.sqrt(hi)) if lo >= 0 else None, False),
    "relax.log": (lambda lo, hi: (math.log(lo), math.log(hi)) if lo >= 1e-3 else None, False),
    "relax.rsqrt": (lambda lo, hi: (hi**-0.5, lo**-0.5) if lo >= 1e-3 else None, False),
    "relax.nn.gelu": (lambda lo, hi: (-0.2, max(hi, 0.0)), False),
    "relax.nn.silu": (lambda lo, hi: (-0.3, max(hi, 0.0)), False),
}
"""Element-wise operators: bounds of the result from those of the operand
(None: not applicable), and whether integers are accepted."""


def _products(a: Bounds, b: Bounds) -> Bounds:
    corners = [x * y for x in a for y in b]
    return min(corners), max(corners)


def _divide(a: Bounds, b: Bounds) -> Bounds | None:
    if b[0] >= 0.5 or b[1] <= -0.5:
        return _products(a, (1 / b[1], 1 / b[0]))
    return None


def _power(a: Bounds, b: Bounds) -> Bounds | None:
    if a[0] >= 0.1 and a[1] <= 10 and max(-b[0], b[1]) <= 2:
        corners = [x**y for x in a for y in b]
        return min(corners), max(corners)
    return None


BINARY: dict[str, tuple[Callable[[Bounds, Bounds], Bounds | None], bool]] = {
    "relax.add": (lambda a, b: (a[0] + b[0], a[1] + b[1]), True),
    "relax.subtract": (lambda a, b: (a[0] - b[1], a[1] - b[0]), True),
    "relax.multiply": (_products, True),
    "relax.maximum": (lambda a, b: (max(a[0], b[0]), max(a[1], b[1])), True),
    "relax.minimum": (lambda a, b: (min(a[0], b[0]), min(a[1], b[1])), True),
    "relax.divide": (_divide, False),
    "relax.power": (_power, False),
}
"""Element-wise binary operators, as ``UNARY``."""

COMPARISONS = ("relax.greater", "relax.less", "relax.greater_equal", "relax.less_equal")
REDUCTIONS = ("relax.sum", "relax.mean", "relax.max", "relax.min", "relax.variance", "relax.std")
F32, I32, I64 = (DataType.parse(name) for name in ("f32", "i32", "i64"))


def _is_one(dim: PrimExpr) -> bool:
    return isinstance(dim, IntImm) and dim.value == 1


def _static(dim: PrimExpr) -> int | None:
    return dim.value if isinstance(dim, IntImm) else None


def _same_dims(a: Sequence[PrimExpr], b: Sequence[PrimExpr]) -> bool:
    return len(a) == len(b) and all(prove_equal(x, y) for x, y in zip(a, b, strict=True))


def _broadcastable(a: Sequence[PrimExpr], b: Sequence[PrimExpr]) -> bool:
    """Whether the shapes provably broadcast together."""
    pairs = zip(reversed(a), reversed(b), strict=False)
    return all(_is_one(x) or _is_one(y) or prove_equal(x, y) for x, y in pairs)


def _divisible(dim: PrimExpr, by: int) -> bool:
    return simplify(dim % by) == IntImm(0)


def _product(dims: Sequence[PrimExpr]) -> PrimExpr:
    total: PrimExpr = IntImm(1)
    for dim in dims:
        total = total * dim
    return simplify(total)


def _union(*bounds: Bounds) -> Bounds:
    return min(b[0] for b in bounds), max(b[1] for b in bounds)


def _sum_bounds(lo: float, hi: float, count: int) -> Bounds:
    return min(lo, count * lo), max(hi, count * hi)


class _Generator:
    """The state of one generation: random source, builder, scopes."""

    def __init__(self, seed: int):
        self.seed = seed
        self.rng = random.Random(seed)
        self.bb = Builder()
        self.scopes: list[Scope] = []
        self.env: dict[str, int] | None = None
        """Values of the symbolic variables at run time (known in ``@main``)."""
        self.helpers: list[Callee] = []
        self.calls: Counter[str] = Counter()
        self.used: set[SSAValue] = set()
        self.features: Counter[str] = Counter()
        self.fresh = 0
        self.depth = 0
        self.generators: list[tuple[int, Callable[[], bool]]] = [
            (9, self.unary),
            (9, self.binary),
            (4, self.broadcast),
            (4, self.reduce),
            (4, self.matmul),
            (4, self.nn),
            (3, self.reshape),
            (3, self.layout),
            (3, self.concat_split),
            (2, self.tuple),
            (2, self.where),
            (2, self.astype),
            (2, self.integer),
            (3, self.constants),
            (2, self.create),
            (2, self.index),
            (4, self.duplicate),
            (2, self.dead),
            (4, self.match_cast),
            (2, self.alias),
            (5, self.call),
            (2, self.invoke),
            (3, self.cross),
        ]

    # --- scopes and values -----------------------------------------------------------

    @property
    def scope(self) -> Scope:
        return self.scopes[-1]

    @property
    def in_dataflow(self) -> bool:
        return self.scope.dataflow

    @contextmanager
    def nested(self, dataflow: bool) -> Iterator[Scope]:
        self.scopes.append(Scope(dataflow))
        try:
            yield self.scope
        finally:
            self.scopes.pop()

    @contextmanager
    def function(self, env: dict[str, int] | None) -> Iterator[None]:
        """Scopes of a new global function (nothing outside is visible)."""
        saved = self.scopes, self.env
        self.scopes, self.env = [], env
        try:
            with self.nested(dataflow=False):
                yield
        finally:
            self.scopes, self.env = saved

    def visible(self) -> list[Tensor]:
        return [t for scope in self.scopes for t in scope.tensors]

    def pick(self, accept: Callable[[Tensor], bool]) -> Tensor | None:
        """A visible tensor accepted by ``accept``, most often a recent one."""
        candidates = [t for t in self.visible() if accept(t)]
        if not candidates:
            return None
        if self.rng.random() < 0.5:
            candidates = candidates[-4:]
        return self.rng.choice(candidates)

    def concrete(self, sinfo: TensorType) -> tuple[int, ...] | None:
        dims = sinfo.dims
        if self.env is None or dims is None:
            return None
        if any(free_vars(d) - self.env.keys() for d in dims):
            return None
        return tuple(int(evaluate(d, self.env)) for d in dims)

    def track(self, value: SSAValue, lo: float, hi: float, shape: tuple[int, ...] | None) -> Tensor:
        """Add ``value`` to the scope (``shape``: its run-time shape if its type
        does not tell)."""
        assert isinstance(value.type, TensorType)
        known = self.concrete(value.type)
        tensor = Tensor(value, float(lo), float(hi), known if known is not None else shape)
        self.scope.tensors.append(tensor)
        return tensor

    def operands(self, values: Sequence[Tensor | SSAValue]) -> list[SSAValue]:
        bound = [v.value if isinstance(v, Tensor) else v for v in values]
        self.used.update(bound)
        return bound

    def op(
        self,
        name: str,
        operands: Sequence[Tensor | SSAValue],
        bounds: Bounds,
        shape: tuple[int, ...] | None = None,
        **attrs: object,
    ) -> Tensor:
        """Emit operator ``name``, remembered so that it may be emitted again."""

        def emit() -> Tensor:
            result = self.bb.emit_operator(name, self.operands(operands), **attrs)  # pyright: ignore[reportArgumentType]
            return self.track(result, *bounds, shape)

        tensor = emit()
        self.scope.recipes.append(emit)
        return tensor

    def value(self, expr: object) -> SSAValue:
        """Bind a non-tensor expression (shape, tuple of prim values...)."""
        return self.bb.emit(expr)  # pyright: ignore[reportArgumentType]

    def constant(
        self, shape: Sequence[int], dtype: str = "float32", bounds: Bounds = (-1.0, 1.0)
    ) -> Tensor:
        if dtype == "float32":
            data = np.asarray(self.np_rng().uniform(*bounds, shape), dtype)
        else:
            data = np.asarray(self.np_rng().integers(-4, 5, shape), dtype)
        self.features["constant"] += 1
        value = self.value(data)
        lo, hi = (float(data.min()), float(data.max())) if data.size else (0.0, 0.0)
        return self.track(value, lo, hi, tuple(shape))

    def np_rng(self) -> np.random.Generator:
        return np.random.default_rng(self.rng.getrandbits(32))

    def new_var(self) -> Var:
        self.fresh += 1
        return Var(f"p{self.fresh}")

    def squash(self, tensor: Tensor, bound: float) -> Tensor:
        """``tensor``, or its ``tanh`` when it may exceed ``bound``."""
        if tensor.magnitude <= bound:
            return tensor
        return self.op("relax.tanh", [tensor], (math.tanh(tensor.lo), math.tanh(tensor.hi)))

    def size(self, tensor: Tensor, axes: Sequence[int]) -> int:
        """The number of elements along ``axes`` (an upper bound when unknown)."""
        if tensor.shape is None:
            dims = tensor.dims
            static = [_static(dims[a]) for a in axes] if dims is not None else [None]
            if any(s is None for s in static):
                return SIZE_BOUND ** len(axes)
            return math.prod(static)  # pyright: ignore[reportArgumentType]
        return math.prod(tensor.shape[a] for a in axes)

    # --- blocks ----------------------------------------------------------------------

    def body(self, budget: int) -> None:
        """Bindings, dataflow blocks, branches and closures for about ``budget``
        bindings, in the current (non-dataflow) scope."""
        while budget > 0:
            kinds = ["plain"] * 3 + ["dataflow"] * 3
            if self.depth < 2:
                kinds += ["if", "closure"] if self.depth == 0 else ["if"]
            kind = self.rng.choice(kinds)
            if kind == "dataflow" and isinstance(self.bb.block.last_op, DataflowOp):
                kind = "plain"  # adjacent dataflow blocks are not in normal form
            count = self.rng.randint(1, 6)
            if kind == "dataflow":
                self.dataflow(count)
            elif kind == "if":
                self.branch()
            elif kind == "closure":
                self.closure()
            else:
                for _ in range(count):
                    self.binding()
                self.features["plain bindings"] += count
            budget -= count

    def binding(self) -> None:
        """One random binding (a few when operands must be made first)."""
        weights = [w for w, _ in self.generators]
        for _ in range(20):
            (generate,) = self.rng.choices([g for _, g in self.generators], weights)
            if generate():
                return
        self.constants()

    def dataflow(self, count: int) -> None:
        self.features["dataflow block"] += 1
        with self.bb.dataflow():
            with self.nested(dataflow=True) as inner:
                for _ in range(count):
                    self.binding()
                if not inner.tensors:
                    self.constants()
                leaves = [t for t in inner.tensors if t.value not in self.used]
                chosen = leaves[-self.rng.randint(1, 2) :] if leaves else inner.tensors[-1:]
                if self.rng.random() < 0.3:
                    chosen.append(self.rng.choice(inner.tensors))
                outputs = list(dict.fromkeys(chosen))
                for tensor in outputs:
                    self.bb.emit_output(tensor.value)
            self.scope.tensors.extend(outputs)
            self.used.difference_update(t.value for t in outputs)

    def branch(self) -> None:
        """``if`` on a data-dependent condition, both branches of one type."""
        source = self.pick(lambda t: t.dtype == "float32" and t.lo < 0 < t.hi)
        target = self.pick(lambda t: t.dtype == "float32" and t.dims is not None)
        if source is None or target is None:
            return
        reduce = self.rng.choice(("relax.sum", "relax.mean", "relax.max"))
        total = self.op(reduce, [source], _sum_bounds(source.lo, source.hi, 1))
        threshold = (
            self.constant([], bounds=(0.0, 1.0)) if reduce == "relax.max" else self.constant([])
        )
        if reduce == "relax.max":
            threshold = self.op("relax.multiply", [threshold, total], (0.0, 0.0))
        comparison = self.rng.choice(("relax.greater", "relax.less"))
        condition = self.op(comparison, [total, threshold], (0.0, 1.0))
        self.features["if"] += 1
        if self.depth:
            self.features["nested if"] += 1
        bounds: list[Bounds] = []

        def arm() -> SSAValue:
            self.depth += 1
            with self.nested(dataflow=False) as scope:
                self.body(self.rng.randint(0, 4))
                same = [t for t in scope.tensors if t.type == target.type]
                result = self.rng.choice(same) if same else self.rng.choice((target, None))
                if result is None:
                    result = self.op("relax.sin", [target], (-1.0, 1.0))
            self.depth -= 1
            bounds.append((result.lo, result.hi))
            return self.operands([result])[0]

        value = self.bb.emit_if(condition.value, arm, arm)
        self.used.add(condition.value)
        self.track(value, *_union(*bounds), target.shape)

    def closure(self) -> None:
        """A closure over visible values, invoked once or twice (or never)."""
        first = self.pick(lambda t: t.dtype == "float32" and t.dims is not None)
        if first is None:
            return
        params = [first.type]
        second = self.pick(lambda t: t.dtype == "float32" and t.dims is not None)
        if second is not None and self.rng.random() < 0.4:
            params.append(second.type)
        self.features["closure"] += 1
        self.depth += 1
        names = {f"a{i}": sinfo for i, sinfo in enumerate(params)}
        with self.bb.closure(names) as frame, self.nested(dataflow=False) as scope:
            for param, sinfo in zip(frame.params, params, strict=True):
                self.track(param, -ARG_BOUND, ARG_BOUND, self.concrete(sinfo))
            self.body(self.rng.randint(1, 4))
            result = self.rng.choice(scope.tensors[len(params) :] or scope.tensors)
            self.bb.emit_func_output(self.operands([result])[0])
        self.depth -= 1
        assert frame.value is not None
        callee = Callee(frame.value, tuple(params), ((result.lo, result.hi),))
        self.scope.closures.append(callee)
        for _ in range(self.rng.choice((0, 1, 1, 2))):
            self.call_with(callee)

    # --- functions -------------------------------------------------------------------

    def helper(self, name: str) -> None:
        """A private function; later functions may call it."""
        r, c = Var("r"), Var("c")
        signatures: list[list[list[PrimExpr | int]]] = [
            [[r, 4]],
            [[r, 4], [r, 4]],
            [[r, 4], [4, 4]],
            [[r, c]],
            [[r, c], [c]],
        ]
        params = [TensorType(dims, "f32") for dims in self.rng.choice(signatures)]
        unused = self.rng.random() < 0.25
        if unused:
            params.append(TensorType([4], "f32"))
            self.features["helper with an unused parameter"] += 1
        names = {f"a{i}": sinfo for i, sinfo in enumerate(params)}
        with self.function(env=None), self.bb.function(name, names, private=True) as frame:
            for param in frame.params[: len(params) - unused]:
                self.track(param, -ARG_BOUND, ARG_BOUND, None)
            self.body(self.rng.randint(2, 10))
            shaped = [t for t in self.scope.tensors if t.dims is not None]
            results = self.rng.sample(shaped, min(len(shaped), self.rng.choice((1, 1, 2))))
            if len(results) == 1:
                self.bb.emit_func_output(results[0].value)
            else:
                self.bb.emit_func_output([t.value for t in results])
                self.features["helper returning a tuple"] += 1
        self.features["private function"] += 1
        bounds = tuple((t.lo, t.hi) for t in results)
        self.helpers.append(Callee(name, tuple(params), bounds))

    def arguments(self, params: Sequence[TensorType], generic: bool) -> list[Tensor] | None:
        """Visible tensors that fit the signature ``params``; its symbolic
        variables are bound by the arguments when ``generic`` (a global
        function), else they are those in scope (a closure)."""
        binding: dict[str, PrimExpr] = {}
        args = []
        for sinfo in params:
            wanted = sinfo.dims
            assert wanted is not None

            def fits(t: Tensor, wanted: tuple[PrimExpr, ...] = wanted) -> bool:
                dims = t.dims
                if t.dtype != "float32" or dims is None or len(dims) != len(wanted):
                    return False
                for have, want in zip(dims, wanted, strict=True):
                    if generic and isinstance(want, Var):
                        if want.name not in binding:
                            continue
                        want = binding[want.name]
                    if not prove_equal(have, want):
                        return False
                return True

            arg = self.pick(fits)
            if arg is None:
                return None
            for have, want in zip(arg.dims or (), wanted, strict=True):
                if generic and isinstance(want, Var):
                    binding.setdefault(want.name, have)
            args.append(arg)
        return args

    def call_with(self, callee: Callee) -> bool:
        target = callee.target
        args = self.arguments(callee.params, generic=isinstance(target, str))
        if args is None:
            return False
        args = [self.squash(a, ARG_BOUND) for a in args]

        def emit() -> list[Tensor]:
            if isinstance(target, str):
                result = self.bb.call_function(target, self.operands(args))
                self.calls[target] += 1
                self.features["call"] += 1
            else:
                result = self.bb.invoke(target, self.operands(args))
                self.features["invoke"] += 1
            if len(callee.results) == 1:
                return [self.track(result, *callee.results[0], None)]
            self.used.add(result)
            indices = self.rng.sample(range(len(callee.results)), self.rng.randint(1, 2))
            return [
                self.track(self.bb.tuple_get_item(result, i), *callee.results[i], None)
                for i in indices
            ]

        results = emit()
        if len(results) == 1:
            self.scope.recipes.append(lambda: emit()[0])
        return True

    def call(self) -> bool:
        if not self.helpers:
            return False
        return self.call_with(self.rng.choice(self.helpers))

    def invoke(self) -> bool:
        closures = [c for scope in self.scopes for c in scope.closures]
        return bool(closures) and self.call_with(self.rng.choice(closures))

    # --- operators -------------------------------------------------------------------

    def float_tensor(self, shaped: bool = True) -> Tensor | None:
        return self.pick(lambda t: t.dtype == "float32" and (not shaped or t.dims is not None))

    def unary(self) -> bool:
        tensor = None
        if self.rng.random() < 0.2:
            tensor = self.pick(lambda t: t.dtype == "float32" and t.lo >= 1e-3)
        tensor = tensor or self.pick(lambda t: t.dtype in ("float32", "int32"))
        if tensor is None:
            return False
        options = []
        for name, (rule, ints) in UNARY.items():
            bounds = rule(tensor.lo, tensor.hi)
            if (
                (ints or tensor.dtype == "float32")
                and bounds
                and max(map(abs, bounds)) <= MAGNITUDE
            ):
                options.append((name, bounds))
        if tensor.magnitude > 100:
            options = [o for o in options if o[1][1] - o[1][0] <= 2] or options
        name, bounds = self.rng.choice(options)
        self.op(name, [tensor], bounds, tensor.shape)
        return True

    def apply_binary(self, a: Tensor, b: Tensor, shape: tuple[int, ...] | None = None) -> bool:
        options = []
        for name, (rule, ints) in BINARY.items():
            bounds = rule((a.lo, a.hi), (b.lo, b.hi))
            if (ints or a.dtype == "float32") and bounds and max(map(abs, bounds)) <= MAGNITUDE:
                options.append((name, bounds))
        if not options:
            return False
        name, bounds = self.rng.choice(options)
        if self.rng.random() < 0.5:
            a, b = b, a
            rule = BINARY[name][0]
            reordered = rule((a.lo, a.hi), (b.lo, b.hi))
            if reordered is None or max(map(abs, reordered)) > MAGNITUDE:
                a, b = b, a
            else:
                bounds = reordered
        self.op(name, [a, b], bounds, shape)
        return True

    def binary(self) -> bool:
        a = self.pick(lambda t: t.dtype in ("float32", "int32") and t.dims is not None)
        if a is None:
            return False
        dims = a.dims
        assert dims is not None
        b = self.pick(
            lambda t: t.dtype == a.dtype and t.dims is not None and _broadcastable(dims, t.dims)
        )
        return b is not None and self.apply_binary(a, b)

    def broadcast(self) -> bool:
        """A binary operator against a smaller operand: a constant vector or a
        reduction with ``keepdims``."""
        a = self.float_tensor()
        if a is None or not a.dims:
            return False
        last = _static(a.dims[-1])
        if last is not None and self.rng.random() < 0.6:
            b = self.constant(self.rng.choice(([last], [1, last], [])))
        else:
            reduce = self.rng.choice(("relax.mean", "relax.max", "relax.min"))
            b = self.op(reduce, [a], (a.lo, a.hi), axis=[-1], keepdims=True)
        self.features["broadcast"] += 1
        return self.apply_binary(a, b)

    def reduce(self) -> bool:
        tensor = self.pick(lambda t: t.dtype in ("float32", "int32") and t.type.rank >= 1)
        if tensor is None:
            return False
        rank = tensor.type.rank
        axes = sorted(self.rng.sample(range(rank), self.rng.randint(1, rank)))
        keepdims = self.rng.random() < 0.4
        lo, hi = tensor.lo, tensor.hi
        if self.rng.random() < 0.15:
            axis = self.rng.randrange(rank)
            name = self.rng.choice(("relax.argmax", "relax.argmin"))
            count = self.size(tensor, [axis])
            self.op(name, [tensor], (0, count - 1), axis=axis, keepdims=keepdims)
            return True
        names = REDUCTIONS if tensor.dtype == "float32" else REDUCTIONS[:4]
        name = self.rng.choice(names)
        count = self.size(tensor, axes)
        bounds = {
            "relax.sum": _sum_bounds(lo, hi, count),
            "relax.variance": (0.0, (hi - lo) ** 2),
            "relax.std": (0.0, hi - lo),
        }.get(name, (lo, hi))
        if max(map(abs, bounds)) > MAGNITUDE:
            return False
        attrs = {"keepdims": keepdims} | ({"axis": axes} if self.rng.random() < 0.8 else {})
        self.op(name, [tensor], bounds, **attrs)
        return True

    def matmul(self) -> bool:
        a = self.float_tensor()
        if a is None or not a.dims:
            return False
        inner = a.dims[-1]
        b = self.pick(
            lambda t: (
                t.dtype == "float32"
                and t.dims is not None
                and len(t.dims) == 2
                and prove_equal(t.dims[0], inner)
            )
        )
        if b is None:
            size = _static(inner)
            if size is None or size > 16:
                return False
            b = self.constant([size, self.rng.choice((2, 3, 4))])
        count = self.size(a, [len(a.dims) - 1])
        bound = count * _products((a.lo, a.hi), (b.lo, b.hi))[1]
        low = count * _products((a.lo, a.hi), (b.lo, b.hi))[0]
        if max(abs(bound), abs(low)) > MAGNITUDE:
            return False
        self.op("relax.matmul", [a, b], (min(low, 0.0), max(bound, 0.0)))
        return True

    def nn(self) -> bool:
        tensor = self.float_tensor()
        if tensor is None or not tensor.dims:
            return False
        dims = tensor.dims
        axis = self.rng.randrange(-len(dims), 0)
        count = self.size(tensor, [len(dims) + axis])
        spread = tensor.hi - tensor.lo
        last = _static(dims[-1])
        choice = self.rng.choice(("softmax", "log_softmax", "layer_norm", "rms_norm", "dropout"))
        if choice == "softmax":
            self.op("relax.nn.softmax", [tensor], (math.exp(-spread) / count, 1.0), axis=axis)
        elif choice == "log_softmax":
            self.op("relax.nn.log_softmax", [tensor], (-spread - math.log(count), 0.0), axis=axis)
        elif choice in ("layer_norm", "rms_norm") and last is not None:
            gamma = self.constant([last], bounds=(0.5, 1.5))
            bound = 1.5 * math.sqrt(last) + 0.5
            if choice == "layer_norm":
                beta = self.constant([last])
                self.op("relax.nn.layer_norm", [tensor, gamma, beta], (-bound, bound), axes=[-1])
            else:
                self.op("relax.nn.rms_norm", [tensor, gamma], (-bound, bound), axes=[-1])
        elif choice == "dropout":
            pair = self.bb.emit_operator("relax.nn.dropout", self.operands([tensor]))
            item = self.bb.tuple_get_item(pair, 0)
            self.track(item, tensor.lo, tensor.hi, tensor.shape)
        else:
            return False
        return True

    def reshape(self) -> bool:
        """``flatten``, ``reshape`` to computed shapes, ``shape_of`` chains."""
        tensor = self.pick(lambda t: t.dims is not None and t.type.rank >= 1)
        if tensor is None:
            return False
        dims = tensor.dims
        assert dims is not None
        bounds = tensor.lo, tensor.hi
        choice = self.rng.randrange(5)
        if choice == 0:
            self.op("relax.flatten", [tensor], bounds)
        elif choice == 1:
            self.op("relax.reshape", [tensor, self.value(Shape((_product(dims),)))], bounds)
        elif choice == 2:
            same = self.pick(lambda t: t.dims is not None and _same_dims(t.dims, dims))
            assert same is not None
            shape = self.bb.emit_operator("relax.shape_of", self.operands([same]))
            flat = self.op("relax.flatten", [tensor], bounds)
            self.op("relax.reshape", [flat, shape], bounds)
            self.features["shape_of chain"] += 1
        elif choice == 3 and _static(dims[-1]) is not None and _static(dims[-1]) % 2 == 0:  # pyright: ignore[reportOptionalOperand]
            last = _static(dims[-1])
            assert last is not None
            target = Shape((*dims[:-1], 2, last // 2))
            self.op("relax.reshape", [tensor, self.value(target)], bounds)
        elif choice == 4 and len(dims) >= 2 and _static(dims[-1]) is not None:
            target = Shape((-1, dims[-1]))
            self.op("relax.reshape", [tensor, self.value(target)], bounds)
        else:
            return False
        self.features["reshape"] += 1
        return True

    def layout(self) -> bool:
        """``permute_dims``, ``expand_dims``, ``squeeze``, ``flip``, ``broadcast_to``,
        ``tile``, ``repeat``."""
        tensor = self.pick(lambda t: t.dims is not None and t.type.rank >= 1)
        if tensor is None:
            return False
        dims = tensor.dims
        assert dims is not None
        rank = len(dims)
        bounds = tensor.lo, tensor.hi
        choice = self.rng.randrange(7)
        ones = [i for i, d in enumerate(dims) if _is_one(d)]
        if choice == 0 and rank >= 2:
            axes = self.rng.sample(range(rank), rank)
            self.op("relax.permute_dims", [tensor], bounds, axes=axes)
        elif choice == 1 and rank <= 3:
            self.op("relax.expand_dims", [tensor], bounds, axis=[self.rng.randint(-rank - 1, rank)])
        elif choice == 2:
            if not ones:
                axis = self.rng.randint(0, rank)
                tensor = self.op("relax.expand_dims", [tensor], bounds, axis=[axis])
                ones = [axis]
            self.op("relax.squeeze", [tensor], bounds, axis=[self.rng.choice(ones)])
        elif choice == 3:
            self.op("relax.flip", [tensor], bounds, axis=self.rng.randrange(rank))
        elif choice == 4:
            target = self.pick(
                lambda t: (
                    t.dims is not None
                    and len(t.dims) >= rank
                    and t.type != tensor.type
                    and all(
                        _is_one(a) or prove_equal(a, b)
                        for a, b in zip(dims[::-1], t.dims[::-1], strict=False)
                    )
                )
            )
            if target is None:
                return False
            shape = self.bb.emit_operator("relax.shape_of", self.operands([target]))
            self.op("relax.broadcast_to", [tensor, shape], bounds)
        elif choice == 5:
            repeats = [1] * rank
            repeats[self.rng.randrange(rank)] = 2
            self.op("relax.tile", [tensor], bounds, repeats=repeats)
        elif choice == 6:
            self.op("relax.repeat", [tensor], bounds, repeats=2, axis=self.rng.randrange(rank))
        else:
            return False
        self.features["manipulation"] += 1
        return True

    def concat_split(self) -> bool:
        tensor = self.pick(lambda t: t.dims is not None and t.type.rank >= 1)
        if tensor is None:
            return False
        dims = tensor.dims
        assert dims is not None
        axis = self.rng.randrange(len(dims))
        if self.rng.random() < 0.5:
            others = [d for i, d in enumerate(dims) if i != axis]
            partner = self.pick(
                lambda t: (
                    t.dtype == tensor.dtype
                    and t.dims is not None
                    and len(t.dims) == len(dims)
                    and _same_dims([d for i, d in enumerate(t.dims) if i != axis], others)
                )
            )
            assert partner is not None
            parts = [tensor, partner] + ([tensor] if self.rng.random() < 0.2 else [])
            name = (
                "relax.stack" if self.rng.random() < 0.2 and partner.type == tensor.type else None
            )
            pieces = self.value(self.operands(parts))
            bounds = _union(*((p.lo, p.hi) for p in parts))
            self.op(name or "relax.concat", [pieces], bounds, axis=axis)
            self.features["tuple"] += 1
            return True
        sections: int | list[int]
        if _divisible(dims[axis], 2):
            sections = 2
        elif (size := _static(dims[axis])) is not None and size >= 2:
            sections = sorted(self.rng.sample(range(1, size), 1))
        else:
            return False
        pieces = self.bb.emit_operator(
            "relax.split", self.operands([tensor]), indices_or_sections=sections, axis=axis
        )
        for index in self.rng.sample(range(2), self.rng.randint(1, 2)):
            item = self.bb.tuple_get_item(pieces, index)
            self.track(item, tensor.lo, tensor.hi, None)
            self.features["tuple_get_item"] += 1
        return True

    def tuple(self) -> bool:
        """A tuple (sometimes nested) and an element read back from it."""
        members = [self.pick(lambda t: True) for _ in range(self.rng.randint(1, 3))]
        chosen = [m for m in members if m is not None]
        if not chosen:
            return False
        index = self.rng.randrange(len(chosen))
        value = self.value(self.operands(chosen))
        self.features["tuple"] += 1
        if self.rng.random() < 0.3:
            value = self.bb.tuple_get_item(self.value([value]), 0)
            self.features["nested tuple"] += 1
        item = self.bb.tuple_get_item(value, index)
        self.features["tuple_get_item"] += 1
        self.track(item, chosen[index].lo, chosen[index].hi, chosen[index].shape)
        return True

    def where(self) -> bool:
        a = self.pick(lambda t: t.dtype in ("float32", "int32") and t.dims is not None)
        if a is None:
            return False
        b = self.pick(lambda t: t.type == a.type)
        c = self.pick(lambda t: t.type == a.type)
        assert b is not None and c is not None
        condition = self.op(self.rng.choice(COMPARISONS), [a, c], (0, 1))
        self.op("relax.where", [condition, a, b], _union((a.lo, a.hi), (b.lo, b.hi)))
        return True

    def astype(self) -> bool:
        tensor = self.pick(lambda t: t.dtype in ("float32", "int32", "int64", "bool"))
        if tensor is None:
            return False
        if tensor.dtype == "float32":
            scaled = self.squash(tensor, 2.0)
            scale = self.constant([], bounds=(2.0, 4.0))
            big = self.op("relax.multiply", [scaled, scale], (-2.0 * scale.hi, 2.0 * scale.hi))
            self.op("relax.astype", [big], (math.floor(big.lo), math.ceil(big.hi)), dtype=I32)
        else:
            self.op("relax.astype", [tensor], (tensor.lo, tensor.hi), dtype=F32)
        return True

    def integer(self) -> bool:
        """Integer-only operators: floor division and remainder, bitwise and."""
        tensor = self.pick(lambda t: t.dtype == "int32" and t.dims is not None)
        if tensor is None:
            return self.astype()
        choice = self.rng.choice(("relax.floor_divide", "relax.floor_mod", "relax.bitwise_and"))
        divisor = self.value(np.array(self.rng.randint(2, 4), "int32"))
        bounds = {
            "relax.floor_divide": (math.floor(tensor.lo / 2), math.ceil(tensor.hi / 2)),
            "relax.floor_mod": (0.0, 3.0),
            "relax.bitwise_and": (0.0, 3.0),
        }[choice]
        self.op(choice, [tensor, divisor], bounds)
        return True

    def constants(self) -> bool:
        """A constant, sometimes computed from others (work for constant folding)."""
        shape = self.rng.choice(([4], [1, 4], [4, 4], [2, 4], [3], []))
        first = self.constant(shape)
        self.features["constant-only computation"] += 1
        for _ in range(self.rng.randint(0, 2)):
            if self.rng.random() < 0.5:
                first = self.op("relax.tanh", [first], (-1.0, 1.0), first.shape)
            else:
                self.apply_binary(first, self.constant(shape))
                first = self.scope.tensors[-1]
        return True

    def create(self) -> bool:
        tensor = self.pick(lambda t: t.dims is not None)
        if tensor is None:
            return False
        choice = self.rng.randrange(4)
        fill = round(self.rng.uniform(-1, 1), 2)
        if choice == 0:
            self.op("relax.zeros_like", [tensor], (0, 0))
        elif choice == 1:
            self.op("relax.ones_like", [tensor], (1, 1), dtype=F32)
        elif choice == 2:
            value = self.value(np.array(fill, "float32"))
            self.op("relax.full_like", [tensor, value], (fill, fill), dtype=F32)
        else:
            shape = self.bb.emit_operator("relax.shape_of", self.operands([tensor]))
            self.op("relax.ones", [shape], (1, 1), dtype=F32)
        self.features["creation"] += 1
        return True

    def index(self) -> bool:
        """``take``, ``strided_slice`` and ``cumsum`` along one axis."""
        tensor = self.pick(lambda t: t.dims is not None and t.type.rank >= 1)
        if tensor is None:
            return False
        dims = tensor.dims
        assert dims is not None
        axis = self.rng.randrange(len(dims))
        size = _static(dims[axis])
        bounds = tensor.lo, tensor.hi
        choice = self.rng.randrange(3)
        if choice == 0:
            count = self.rng.randint(1, 3)
            picks = np.array([self.rng.randrange(size or 1) for _ in range(count)], "int64")
            indices = self.value(picks)
            self.op("relax.take", [tensor, indices], bounds, axis=axis)
        elif choice == 1 and size is not None and size >= 2:
            begin = self.rng.randrange(size - 1)
            end = self.rng.randint(begin + 1, size)
            operands = [tensor, self.value([axis]), self.value([begin]), self.value([end])]
            self.op("relax.strided_slice", operands, bounds)
        elif choice == 2 and tensor.dtype == "float32":
            count = self.size(tensor, [axis])
            total = _sum_bounds(tensor.lo, tensor.hi, count)
            if max(map(abs, total)) > MAGNITUDE:
                return False
            self.op("relax.cumsum", [tensor], total, axis=axis)
        else:
            return False
        self.features["indexing"] += 1
        return True

    def duplicate(self) -> bool:
        """A binding emitted again with the same operands (work for CSE)."""
        recipes = [r for scope in self.scopes for r in scope.recipes]
        if not recipes:
            return False
        self.rng.choice(recipes)()
        self.features["duplicate binding"] += 1
        return True

    def dead(self) -> bool:
        """A binding nothing uses (work for dead-code elimination)."""
        before = len(self.scope.tensors)
        if not (self.unary() if self.rng.random() < 0.5 else self.binary()):
            return False
        del self.scope.tensors[before:]
        self.features["dead binding"] += 1
        return True

    def match_cast(self) -> bool:
        tensor = self.pick(lambda t: t.shape is not None or t.dims is not None)
        if tensor is None:
            return False
        sinfo = tensor.type
        choice = self.rng.randrange(4)
        bounds = tensor.lo, tensor.hi
        if choice == 0 or (sinfo.dims is None and self.env is None):
            cast = self.bb.match_cast(self.operands([tensor])[0], sinfo)
            self.features["match_cast to the same type"] += 1
        elif choice == 1 and sinfo.dims is not None:
            weaker = self.rng.choice(
                (ObjectType(), TensorType(dtype=sinfo.data_type, ndim=sinfo.rank))
            )
            erased = self.bb.match_cast(self.operands([tensor])[0], weaker)
            cast = self.bb.match_cast(erased, sinfo)
            self.features["match_cast re-stating a known shape"] += 1
        elif choice == 2 and sinfo.dims is not None and sinfo.rank >= 1:
            shape = self.bb.emit_operator("relax.shape_of", self.operands([tensor]))
            fresh = [self.new_var() for _ in sinfo.dims]
            self.bb.match_cast(shape, ShapeType(fresh))
            self.bind(fresh, tensor.shape)
            target = self.value(Shape(tuple(fresh)))
            self.op("relax.reshape", [tensor, target], bounds)
            self.features["match_cast binding new variables (shape)"] += 1
            return True
        else:
            dims = list(sinfo.dims or [self.new_var() for _ in range(sinfo.rank)])
            fresh = []
            for i, dim in enumerate(dims):
                if sinfo.dims is None or (not isinstance(dim, IntImm) and self.rng.random() < 0.7):
                    dims[i] = self.new_var()
                    fresh.append(dims[i])
            if not fresh:
                return False
            cast = self.bb.match_cast(self.operands([tensor])[0], TensorType(dims, sinfo.data_type))
            if tensor.shape is not None:
                self.bind(dims, tensor.shape)
            self.features["match_cast binding new variables"] += 1
        self.track(cast, *bounds, tensor.shape)
        return True

    def alias(self) -> bool:
        """``y = x``: a second name for a tensor, of its type, or of a weaker one
        (``R.Object``, only the rank) then cast back."""
        tensor = self.pick(lambda t: True)
        if tensor is None:
            return False
        value = self.operands([tensor])[0]
        sinfo = tensor.type
        if self.rng.random() < 0.5:
            alias = self.bb.alias(value, "alias")
            self.features["alias"] += 1
        else:
            weaker = self.rng.choice(
                (ObjectType(), TensorType(dtype=sinfo.data_type, ndim=sinfo.rank))
            )
            bound = self.bb.normalize(value)  # outside its dataflow block: the output
            erased = self.bb.add_binding(lambda t: AliasOp(bound, t), None, weaker)
            alias = self.bb.match_cast(erased, sinfo)
            self.features["alias of a weaker type"] += 1
        self.track(alias, tensor.lo, tensor.hi, tensor.shape)
        return True

    def bind(self, dims: Sequence[PrimExpr], shape: tuple[int, ...] | None) -> None:
        if self.env is not None and shape is not None:
            for dim, size in zip(dims, shape, strict=True):
                if isinstance(dim, Var):
                    self.env[dim.name] = size

    def cross(self) -> bool:
        """A binary operator on tensors whose shapes are equal at run time but not
        provably (so the result has only a rank), then a ``match_cast`` back."""
        a = self.pick(lambda t: t.shape is not None and t.dims is not None)
        if a is None:
            return False
        b = self.pick(
            lambda t: (
                t.shape == a.shape
                and t.dtype == a.dtype
                and t.dims is not None
                and not _same_dims(t.dims, a.dims)
            )  # pyright: ignore[reportArgumentType]
        )
        if b is None or not self.apply_binary(a, b, a.shape):
            return False
        mixed = self.scope.tensors[-1]
        self.features["operands of unprovably equal shapes"] += 1
        if self.rng.random() < 0.7:
            cast = self.bb.match_cast(self.operands([mixed])[0], a.type)
            self.track(cast, mixed.lo, mixed.hi, a.shape)
            self.features["match_cast re-stating a known shape"] += 1
        return True

    # --- the program -----------------------------------------------------------------

    def entry_params(self) -> dict[str, tuple[TensorType, Bounds]]:
        n, m, d = Var("n"), Var("m"), Var("d")
        params: dict[str, tuple[TensorType, Bounds]] = {"x": (TensorType([n, 4], "f32"), (-1, 1))}
        optional: dict[str, tuple[TensorType, Bounds]] = {
            "y": (TensorType([n, m], "f32"), (-1, 1)),
            "w": (TensorType([4, 4], "f32"), (-1, 1)),
            "v": (TensorType([4, m], "f32"), (-1, 1)),
            "b": (TensorType([m], "f32"), (0.5, 2)),
            "z": (TensorType([n * 2, 4], "f32"), (-1, 1)),
            "k": (TensorType([n, 4], "i32"), (-5, 5)),
            "t": (TensorType([2, n + 1, 4], "f32"), (-1, 1)),
            "e": (TensorType([d, 4], "f32"), (-1, 1)),
        }
        for name, spec in optional.items():
            if self.rng.random() < 0.4:
                params[name] = spec
        names = list(params)
        self.rng.shuffle(names)
        used = {v for name in names for dim in params[name][0].dims or () for v in free_vars(dim)}
        for var in ("n", "m", "d"):
            if var in used:
                self.features[f"symbolic variable {var}"] += 1
        if any(isinstance(dim, Apply) for _, (s, _) in params.items() for dim in s.dims or ()):
            self.features["arithmetic dimension in a signature"] += 1
        return {name: params[name] for name in names}

    def program(self) -> Program:
        for i in range(self.rng.choice((0, 1, 2, 2, 3))):
            self.helper(f"helper{i}")
        sizes = {name: self.rng.randint(*SIZES) for name in ("n", "m", "d")}
        params = self.entry_params()
        types = {name: sinfo for name, (sinfo, _) in params.items()}
        with self.function(env=dict(sizes)), self.bb.function("main", types) as main:
            inputs = []
            for param, (sinfo, (lo, hi)) in zip(main.params, params.values(), strict=True):
                tensor = self.track(param, lo, hi, None)
                assert tensor.shape is not None
                inputs.append(self.input(tensor.shape, sinfo, (lo, hi)))
            self.body(self.rng.randint(12, 40))
            self.bb.emit_func_output(self.results())
        for helper in self.helpers:
            assert isinstance(helper.target, str)
            calls = self.calls[helper.target]
            if calls == 0:
                self.features["unused private function"] += 1
            elif calls > 1:
                self.features["helper called more than once"] += 1
        module = self.bb.module
        self.features.update(op.name for op in walk_ops(module.body))
        return Program(self.seed, module, "main", inputs, list(params), sizes, +self.features)

    def input(self, shape: tuple[int, ...], sinfo: TensorType, bounds: Bounds) -> np.ndarray:
        rng = self.np_rng()
        if sinfo.data_type.is_int:
            return rng.integers(int(bounds[0]), int(bounds[1]) + 1, shape).astype("int32")
        return rng.uniform(*bounds, shape).astype("float32")

    def results(self) -> object:
        """What ``@main`` returns: recent unused tensors, as one value or a tuple."""
        tensors = self.scope.tensors
        leaves = [t for t in tensors if t.value not in self.used] or tensors
        chosen = [t.value for t in leaves[-self.rng.randint(1, 3) :]]
        shape = self.rng.random()
        if shape < 0.3:
            return chosen[-1]
        if shape < 0.8 or len(chosen) < 2:
            self.features["tuple"] += 1
            return chosen
        self.features["nested tuple"] += 1
        return [chosen[:-1], chosen[-1]]


def generate(seed: int) -> Program:
    """The program of ``seed`` (the same one on every run)."""
    return _Generator(seed).program()


if __name__ == "__main__":
    program = generate(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    print(program.module)
    print(f"// sizes {program.sizes}; inputs {[a.shape for a in program.inputs]}")

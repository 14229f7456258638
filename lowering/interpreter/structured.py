"""The iteration space of linalg structured operations, vectorised with NumPy.

A structured operation (``linalg.generic`` and every named operation) iterates over a
space of loops; each operand is read through an affine indexing map. The engine reads
every operand as a *space view*: an array with one axis per loop, of the loop's size
where the operand varies along it and of size 1 elsewhere, so that NumPy broadcasting
lines the operands up (projected permutations are transposes and reshapes of the
operand, strided maps such as ``d0 * 2 + d3`` are strided slices, other maps fancy
indexing). The body then runs ONCE on whole arrays.

Reduction loops:

* a *recognised combiner* (the body yields ``combine(x, out)`` where ``out``, the output
  element, is used nowhere else and ``combine`` is an associative arith operation): the
  body runs with ``out`` set to the combiner's identity, which yields ``x`` over the
  whole space, and a NumPy reduction (``np.add.reduce``, ...) folds it into the init;
* a *contraction* (``out + a * b``, with casts of a and b): a batched ``np.matmul``;
* anything else runs the reduction loops one index at a time, vectorised over the
  parallel loops.

Reduction loops that index an operand together with another loop (the kernel loops of a
convolution: ``oh * s + kh * d``) are iterated (*window* loops), so that each operand
stays a strided view: a convolution is a sum of matmuls over its kernel window.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import ShapedType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from .core import Kernel, LoweredExecutionError, Runner
from .values import dtype_of


@dataclass(frozen=True)
class LinearForm:
    """An affine expression ``constant + sum(coefficient * loop)``."""

    constant: int
    coefficients: tuple[tuple[int, int], ...]


def linear_form(expr: AffineExpr) -> LinearForm | None:
    """expr as a linear form, if it is one (no mod, division or symbol)."""
    match expr:
        case AffineConstantExpr():
            return LinearForm(expr.value, ())
        case AffineDimExpr():
            return LinearForm(0, ((expr.position, 1),))
        case AffineBinaryOpExpr(kind=AffineBinaryOpKind.Add):
            lhs, rhs = linear_form(expr.lhs), linear_form(expr.rhs)
            if lhs is None or rhs is None:
                return None
            terms = dict(lhs.coefficients)
            for loop, coefficient in rhs.coefficients:
                terms[loop] = terms.get(loop, 0) + coefficient
            return LinearForm(
                lhs.constant + rhs.constant, tuple((d, c) for d, c in terms.items() if c)
            )
        case AffineBinaryOpExpr(kind=AffineBinaryOpKind.Mul):
            lhs, rhs = linear_form(expr.lhs), linear_form(expr.rhs)
            if lhs is None or rhs is None:
                return None
            if rhs.coefficients:
                lhs, rhs = rhs, lhs
            if rhs.coefficients:
                return None
            factor = rhs.constant
            return LinearForm(
                lhs.constant * factor,
                tuple((d, c * factor) for d, c in lhs.coefficients if c * factor),
            )
        case _:
            return None


def _arange(loop: int, size: int, loops: int) -> np.ndarray:
    """The indices of a loop as a space view."""
    shape = [1] * loops
    shape[loop] = size
    return np.arange(size, dtype=np.int64).reshape(shape)


class Access:
    """How one operand is read over the iteration space."""

    def __init__(self, indexing_map: AffineMap, shaped: bool):
        self.map = indexing_map
        self.loops = indexing_map.num_dims
        self.shaped = shaped
        self.linear = [linear_form(expr) for expr in indexing_map.results]
        self.identity = indexing_map == AffineMap.identity(self.loops)
        self.pure = [
            expr.position if isinstance(expr, AffineDimExpr) else None
            for expr in indexing_map.results
        ]

    def multi_loop(self) -> set[int]:
        """The loops that share a result of the map with another loop."""
        loops: set[int] = set()
        for form, expr in zip(self.linear, self.map.results, strict=True):
            if form is None or len(form.coefficients) > 1:
                loops |= _loops_of(expr)
        return loops

    def strided(self, fixed: dict[int, int]) -> bool:
        """Whether the operand is a strided view once the fixed loops are fixed."""
        seen: set[int] = set()
        for form in self.linear:
            if form is None:
                return False
            free = [(d, c) for d, c in form.coefficients if d not in fixed]
            if len(free) > 1 or (free and (free[0][1] <= 0 or free[0][0] in seen)):
                return False
            seen.update(d for d, _ in free)
        return True

    def view(self, value: Any, ranges: Sequence[int], fixed: dict[int, int]) -> Any:
        """The space view of value (a scalar stays a scalar)."""
        if not self.shaped:
            return value
        if self.identity and not fixed:
            return value
        if self.strided(fixed):
            return self._strided_view(value, ranges, fixed)
        return self._gathered_view(value, ranges, fixed)

    def _strided_view(self, value: Any, ranges: Sequence[int], fixed: dict[int, int]) -> Any:
        index: list[int | slice] = []
        labels: list[int] = []
        for form in self.linear:
            assert form is not None
            constant = form.constant + sum(c * fixed[d] for d, c in form.coefficients if d in fixed)
            free = [(d, c) for d, c in form.coefficients if d not in fixed]
            if not free:
                index.append(constant)
                continue
            ((loop, step),) = free
            size = ranges[loop]
            index.append(
                slice(constant, constant + step * (size - 1) + 1 if size else constant, step)
            )
            labels.append(loop)
        array = value[tuple(index)]
        if labels != sorted(labels):
            array = array.transpose(np.argsort(labels))
        shape = [1] * self.loops
        for loop in labels:
            shape[loop] = ranges[loop]
        return array.reshape(shape)

    def _gathered_view(self, value: Any, ranges: Sequence[int], fixed: dict[int, int]) -> Any:
        loops = [
            fixed[d] if d in fixed else _arange(d, ranges[d], self.loops) for d in range(self.loops)
        ]
        index = tuple(expr.eval(loops, []) for expr in self.map.results)
        return np.reshape(
            value[index], np.broadcast_shapes(*(np.shape(i) for i in index), (1,) * self.loops)
        )

    def write(
        self, value: Any, ranges: Sequence[int], shape: Sequence[int], dtype: np.dtype[Any]
    ) -> np.ndarray:
        """The output array (of shape and dtype) holding the space view value; where
        several iterations write one element (a loop not in the map), the last wins."""
        if (
            self.identity
            and isinstance(value, np.ndarray)
            and value.shape == tuple(shape)
            and value.dtype == dtype
        ):
            return value
        array = np.asarray(value)
        array = array.reshape((1,) * (self.loops - array.ndim) + array.shape)
        labels = [loop for loop in self.pure if loop is not None]
        index = tuple(slice(None) if loop in labels else -1 for loop in range(self.loops))
        array = array[index]
        order = sorted(labels)
        if labels != order:
            array = array.transpose([order.index(loop) for loop in labels])
        result = np.empty(shape, dtype)
        result[...] = array
        return result


@cache
def access_of(indexing_map: AffineMap, shaped: bool) -> Access:
    """The (shared) access of an operand through indexing_map."""
    return Access(indexing_map, shaped)


def _loops_of(expr: AffineExpr) -> set[int]:
    match expr:
        case AffineDimExpr():
            return {expr.position}
        case AffineBinaryOpExpr():
            return _loops_of(expr.lhs) | _loops_of(expr.rhs)
        case _:
            return set()


# --- Combiners --------------------------------------------------------------------------


@dataclass(frozen=True)
class Combiner:
    """An associative operation folding elements into an output."""

    ufunc: np.ufunc
    identity: Callable[[np.dtype[Any]], Any]


def _integer_bound(which: str) -> Callable[[np.dtype[Any]], Any]:
    return lambda dtype: getattr(np.iinfo(dtype), which)


MAXIMUM = Combiner(np.maximum, lambda dtype: -np.inf if dtype.kind == "f" else np.iinfo(dtype).min)
"""maximumf on floats (NaN wins), maxsi on integers."""

_COMBINERS: dict[type[Operation], Combiner] = {
    arith.AddfOp: Combiner(np.add, lambda dtype: -0.0),
    arith.AddiOp: Combiner(np.add, lambda dtype: 0),
    arith.MulfOp: Combiner(np.multiply, lambda dtype: 1),
    arith.MuliOp: Combiner(np.multiply, lambda dtype: 1),
    arith.MaximumfOp: Combiner(np.maximum, lambda dtype: -np.inf),
    arith.MinimumfOp: Combiner(np.minimum, lambda dtype: np.inf),
    arith.MaxnumfOp: Combiner(np.fmax, lambda dtype: np.nan),
    arith.MinnumfOp: Combiner(np.fmin, lambda dtype: np.nan),
    arith.MaxSIOp: Combiner(np.maximum, _integer_bound("min")),
    arith.MinSIOp: Combiner(np.minimum, _integer_bound("max")),
    arith.AndIOp: Combiner(np.bitwise_and, lambda dtype: -1),
    arith.OrIOp: Combiner(np.bitwise_or, lambda dtype: 0),
    arith.XOrIOp: Combiner(np.bitwise_xor, lambda dtype: 0),
}
"""Combiners on non-i1 values (on i1, add is xor and max is and: left to the loop)."""

_CASTS = (
    arith.ExtFOp,
    arith.TruncFOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.TruncIOp,
    arith.SIToFPOp,
    arith.UIToFPOp,
    arith.FPToSIOp,
    arith.FPToUIOp,
)


def _combiner(block: Block, output: int, inputs: int) -> tuple[Combiner, Operation | None] | None:
    """The combiner folding into output, if the body's yield of it is one."""
    out = block.args[inputs + output]
    terminator = block.last_op
    assert terminator is not None
    yielded = terminator.operands[output]
    op = yielded.owner
    if not isinstance(op, Operation) or op.parent_block() is not block:
        return None
    combiner = _COMBINERS.get(type(op))
    if combiner is None or dtype_of(out.type) == np.bool_:
        return None
    if len(op.operands) != 2 or out not in op.operands or op.operands[0] is op.operands[1]:
        return None
    if not out.has_one_use() or not yielded.has_one_use():
        return None
    return combiner, op


def _cast_chain(value: SSAValue, block: Block, inputs: int) -> tuple[int, list[Operation]] | None:
    """The input a value is, through casts: (input number, casts from the input on)."""
    casts: list[Operation] = []
    while not isinstance(value, BlockArgument):
        op = value.owner
        if not isinstance(op, _CASTS) or op.parent_block() is not block or not value.has_one_use():
            return None
        casts.append(op)
        value = op.operands[0]
    if value.block is not block or value.index >= inputs:
        return None
    return value.index, casts[::-1]


@dataclass
class _Contraction:
    """``out + cast(a) * cast(b)``: the inputs read and their cast kernels."""

    operands: tuple[int, int]
    casts: tuple[list[Kernel], list[Kernel]]


def _contraction(
    block: Block, inputs: int, add: Operation, cast_kernel: Callable[[Operation], Kernel]
) -> _Contraction | None:
    if not isinstance(add, arith.AddfOp | arith.AddiOp):
        return None
    out = block.args[inputs]
    product = add.operands[1] if add.operands[0] is out else add.operands[0]
    multiply = product.owner
    if not isinstance(multiply, arith.MulfOp | arith.MuliOp) or not product.has_one_use():
        return None
    chains = [_cast_chain(operand, block, inputs) for operand in multiply.operands]
    if chains[0] is None or chains[1] is None:
        return None
    used = {add, multiply, block.last_op, *chains[0][1], *chains[1][1]}
    if any(op not in used for op in block.ops):
        return None
    return _Contraction(
        (chains[0][0], chains[1][0]),
        ([cast_kernel(op) for op in chains[0][1]], [cast_kernel(op) for op in chains[1][1]]),
    )


# --- The engine -------------------------------------------------------------------------


def _space(value: Any, loops: int) -> np.ndarray:
    array = np.asarray(value)
    return array.reshape((1,) * (loops - array.ndim) + array.shape)


def _matmul_contraction(
    a: np.ndarray,
    b: np.ndarray,
    parallel: Sequence[int],
    reduced: Sequence[int],
    sizes: Sequence[int],
) -> np.ndarray:
    """sum over the reduced loops of a * b, as a space view, by a batched matmul."""
    loops = len(sizes)
    count = 1
    for loop in reduced:
        in_a, in_b = a.shape[loop] > 1, b.shape[loop] > 1
        if in_a and not in_b:
            a = a.sum(axis=loop, keepdims=True)
        elif in_b and not in_a:
            b = b.sum(axis=loop, keepdims=True)
        elif not in_a:
            count *= sizes[loop]
    contracted = [loop for loop in reduced if a.shape[loop] > 1]
    batch = [loop for loop in parallel if a.shape[loop] > 1 and b.shape[loop] > 1]
    rows = [loop for loop in parallel if a.shape[loop] > 1 and b.shape[loop] == 1]
    columns = [loop for loop in parallel if b.shape[loop] > 1 and a.shape[loop] == 1]
    kept = batch + rows + columns
    rest_a = [loop for loop in range(loops) if loop not in batch + rows + contracted]
    rest_b = [loop for loop in range(loops) if loop not in batch + contracted + columns]

    def size(group: list[int]) -> int:
        return int(np.prod([sizes[loop] for loop in group], dtype=np.int64))

    left = a.transpose(batch + rows + contracted + rest_a).reshape(
        size(batch), size(rows), size(contracted)
    )
    right = b.transpose(batch + contracted + columns + rest_b).reshape(
        size(batch), size(contracted), size(columns)
    )
    product = np.matmul(left, right)
    if count != 1:
        product = product * product.dtype.type(count)
    rest = [loop for loop in range(loops) if loop not in kept]
    product = product.reshape([sizes[loop] for loop in kept] + [1] * len(rest))
    return product.transpose(np.argsort(kept + rest))


class StructuredKernel:
    """Runs one structured operation: operands through maps, a body, iterator types."""

    def __init__(
        self,
        op: Operation,
        maps: Sequence[AffineMap],
        reductions: Sequence[bool],
        inputs: int,
        body: Block,
        runner: Runner,
        index_loops: Sequence[int],
        cast_kernel: Callable[[Operation], Kernel],
        fold: Combiner | None = None,
    ):
        """``fold``: the operation folds its first input into its one output with this
        combiner (its body is not run)."""
        self.op = op
        self.loops = len(reductions)
        self.inputs = inputs
        self.runner = runner
        self.index_loops = list(index_loops)
        operands = list(op.operands)
        self.accesses = [
            access_of(indexing_map, isinstance(operand.type, ShapedType))
            for indexing_map, operand in zip(maps, operands, strict=True)
        ]
        self.outputs = self.accesses[inputs:]
        self.dtypes = [dtype_of(operand.type) for operand in operands[inputs:]]
        self.reduced = [loop for loop in range(self.loops) if reductions[loop]]
        self.parallel = [loop for loop in range(self.loops) if not reductions[loop]]
        self.sources = self._loop_sources(op)
        self.in_place = not op.results
        for access in self.outputs:
            labels = [loop for loop in access.pure if loop is not None]
            if len(labels) != len(access.pure) or set(labels) & set(self.reduced):
                raise LoweredExecutionError(
                    f"{op.name}: an output indexed by {access.map} is not supported", op
                )
        if fold is None:
            combiners = [_combiner(body, k, inputs) for k in range(len(self.outputs))]
        else:
            combiners = [(fold, None)]
            self.runner = lambda context, args: (args[0],)
        self.combiners: list[Combiner] | None = None
        self.contraction: _Contraction | None = None
        self.windows: list[int] = []
        self.elementwise = (
            not self.reduced
            and not index_loops
            and all(access.identity or not access.shaped for access in self.accesses)
        )
        if not self.reduced:
            self.mode = self._parallel
            return
        if any(found is None for found in combiners) or index_loops:
            self.mode = self._sequential
            self.windows = self.reduced
            return
        self.combiners = [found[0] for found in combiners if found is not None]
        multi = set().union(*(access.multi_loop() for access in self.accesses[:inputs]))
        self.windows = [loop for loop in self.reduced if loop in multi]
        fixed = dict.fromkeys(self.windows, 0)
        strided = all(access.strided(fixed) for access in self.accesses[:inputs])
        if len(self.outputs) == 1 and strided and fold is None:
            assert combiners[0] is not None and combiners[0][1] is not None
            self.contraction = _contraction(body, inputs, combiners[0][1], cast_kernel)
        self.mode = self._contracted if self.contraction else self._combined

    def _loop_sources(self, op: Operation) -> list[tuple[int, int]]:
        sources: dict[int, tuple[int, int]] = {}
        for operand, access in enumerate(self.accesses):
            for position, loop in enumerate(access.pure):
                if loop is not None and access.shaped:
                    sources.setdefault(loop, (operand, position))
        if len(sources) != self.loops:
            raise LoweredExecutionError(
                f"{op.name}: the size of every loop must be that of an operand dimension", op
            )
        return [sources[loop] for loop in range(self.loops)]

    def __call__(self, context: Any, *operands: Any) -> Any:
        outputs = operands[self.inputs :]
        if self.elementwise:
            results = self._elementwise(context, operands)
        else:
            ranges = [operands[operand].shape[axis] for operand, axis in self.sources]
            if 0 in ranges:
                results = [np.asarray(output) for output in outputs]
            else:
                results = self.mode(context, operands, ranges)
        if self.in_place:
            for output, result in zip(outputs, results, strict=True):
                if output is not result:
                    output[...] = result
            return ()
        return results

    def _elementwise(self, context: Any, operands: Sequence[Any]) -> list[Any]:
        """The parallel loops over operands of one shape: the body on the operands."""
        results = list(self.runner(context, operands))
        for k, dtype in enumerate(self.dtypes):
            value, output = results[k], operands[self.inputs + k]
            if type(value) is not np.ndarray or value.shape != output.shape or value.dtype != dtype:
                results[k] = np.empty(output.shape, dtype)
                results[k][...] = value
        return results

    def _indices(self, ranges: Sequence[int], fixed: dict[int, int]) -> list[Any]:
        return [
            np.int64(fixed[loop]) if loop in fixed else _arange(loop, ranges[loop], self.loops)
            for loop in self.index_loops
        ]

    def _views(
        self, operands: Sequence[Any], ranges: Sequence[int], fixed: dict[int, int]
    ) -> list[Any]:
        return [
            access.view(value, ranges, fixed)
            for access, value in zip(self.accesses[: self.inputs], operands, strict=False)
        ]

    def _write(
        self, values: Sequence[Any], operands: Sequence[Any], ranges: Sequence[int]
    ) -> list[Any]:
        return [
            access.write(value, ranges, output.shape, dtype)
            for access, value, output, dtype in zip(
                self.outputs, values, operands[self.inputs :], self.dtypes, strict=True
            )
        ]

    def _window_assignments(self, ranges: Sequence[int]) -> Any:
        windows = self.windows
        for values in itertools.product(*(range(ranges[loop]) for loop in windows)):
            yield dict(zip(windows, values, strict=True))

    def _parallel(self, context: Any, operands: Sequence[Any], ranges: Sequence[int]) -> list[Any]:
        outputs = [
            access.view(value, ranges, {})
            for access, value in zip(self.outputs, operands[self.inputs :], strict=True)
        ]
        values = self.runner(
            context, [*self._views(operands, ranges, {}), *outputs, *self._indices(ranges, {})]
        )
        return self._write(values, operands, ranges)

    def _combined(self, context: Any, operands: Sequence[Any], ranges: Sequence[int]) -> list[Any]:
        assert self.combiners is not None
        identities = [
            dtype.type(combiner.identity(dtype))
            for combiner, dtype in zip(self.combiners, self.dtypes, strict=True)
        ]
        axes = tuple(loop for loop in self.reduced if loop not in self.windows)
        totals: list[Any] = [None] * len(self.combiners)
        for fixed in self._window_assignments(ranges):
            values = self.runner(context, [*self._views(operands, ranges, fixed), *identities])
            for k, (combiner, value, dtype) in enumerate(
                zip(self.combiners, values, self.dtypes, strict=True)
            ):
                part = _space(value, self.loops)
                if axes:
                    shape = list(part.shape)
                    for loop in axes:
                        shape[loop] = ranges[loop]
                    part = combiner.ufunc.reduce(
                        np.broadcast_to(part, shape), axis=axes, keepdims=True, dtype=dtype
                    )
                totals[k] = part if totals[k] is None else combiner.ufunc(totals[k], part)
        return self._finish(totals, operands, ranges)

    def _contracted(
        self, context: Any, operands: Sequence[Any], ranges: Sequence[int]
    ) -> list[Any]:
        contraction = self.contraction
        assert contraction is not None
        dtype = self.dtypes[0]
        axes = [loop for loop in self.reduced if loop not in self.windows]
        total: Any = None
        for fixed in self._window_assignments(ranges):
            views = self._views(operands, ranges, fixed)
            a, b = (
                _space(_cast(views[operand], casts), self.loops).astype(dtype, copy=False)
                for operand, casts in zip(contraction.operands, contraction.casts, strict=True)
            )
            sizes = [1 if loop in fixed else size for loop, size in enumerate(ranges)]
            part = _matmul_contraction(a, b, self.parallel, axes, sizes)
            total = part if total is None else total + part
        return self._finish([total], operands, ranges)

    def _finish(
        self, totals: Sequence[Any], operands: Sequence[Any], ranges: Sequence[int]
    ) -> list[Any]:
        """The outputs: the inits combined with the folded values."""
        assert self.combiners is not None
        folded = [
            combiner.ufunc(access.view(init, ranges, {}), total)
            for combiner, access, init, total in zip(
                self.combiners, self.outputs, operands[self.inputs :], totals, strict=True
            )
        ]
        return self._write(folded, operands, ranges)

    def _sequential(
        self, context: Any, operands: Sequence[Any], ranges: Sequence[int]
    ) -> list[Any]:
        totals = [
            access.view(value, ranges, {})
            for access, value in zip(self.outputs, operands[self.inputs :], strict=True)
        ]
        for fixed in self._window_assignments(ranges):
            totals = list(
                self.runner(
                    context,
                    [*self._views(operands, ranges, fixed), *totals, *self._indices(ranges, fixed)],
                )
            )
        return self._write(totals, operands, ranges)


def _cast(value: Any, casts: Sequence[Kernel]) -> Any:
    for cast in casts:
        value = cast(value)
    return value

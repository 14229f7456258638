"""Operators the importer refuses, each with the reason: values Relax has no type
for (sequences, optionals, maps, strings), training, random numbers.

Each registers a converter that reports the node as not supported, so that the
error says why rather than that the operator is unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from ..context import NodeContext
from .registry import converter

SEQUENCES = "ONNX sequences have no Relax type (a tuple has a fixed length)"
OPTIONALS = "ONNX optionals have no Relax type"
MAPS = "ONNX maps have no Relax type"
STRINGS = "string tensors have no Relax data type"
TRAINING = "training operators (gradients and optimizer updates) are not supported"
RANDOM = "random numbers are not supported: Relax has no random number generator"

REFUSED: dict[tuple[str, str], str] = {
    **{
        ("", op): SEQUENCES
        for op in (
            "SequenceAt",
            "SequenceConstruct",
            "SequenceEmpty",
            "SequenceErase",
            "SequenceInsert",
            "SequenceLength",
            "SequenceMap",
            "SplitToSequence",
            "ConcatFromSequence",
        )
    },
    **{("", op): OPTIONALS for op in ("Optional", "OptionalGetElement", "OptionalHasElement")},
    **{("ai.onnx.ml", op): MAPS for op in ("ZipMap", "DictVectorizer", "CastMap")},
    **{
        ("", op): STRINGS
        for op in ("StringNormalizer", "StringConcat", "StringSplit", "RegexFullMatch")
    },
    **{
        ("ai.onnx.preview.training", op): TRAINING
        for op in ("Adagrad", "Adam", "Momentum", "Gradient")
    },
    **{
        ("", op): RANDOM
        for op in (
            "RandomNormal",
            "RandomNormalLike",
            "RandomUniform",
            "RandomUniformLike",
            "Multinomial",
            "Bernoulli",
        )
    },
}
"""Each refused (domain, op type) and why."""


def _refusal(reason: str) -> Callable[[NodeContext], NoReturn]:
    def refuse(ctx: NodeContext) -> NoReturn:
        ctx.unsupported(reason)

    return refuse


for (_domain, _op), _reason in REFUSED.items():
    converter(_op, domain=_domain)(_refusal(_reason))

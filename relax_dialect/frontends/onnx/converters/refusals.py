"""Operators the importer refuses, each with the reason: values Relax has no type
for (sequences, optionals, maps, strings), training, random numbers, pooling
regions of interest by their maximum, decoding images. The error names the
reason rather than saying that the operator is unknown."""

from __future__ import annotations

from .registry import refuse

refuse(
    "SequenceAt",
    "SequenceConstruct",
    "SequenceEmpty",
    "SequenceErase",
    "SequenceInsert",
    "SequenceLength",
    "SequenceMap",
    "SplitToSequence",
    "ConcatFromSequence",
    reason="ONNX sequences are not supported: no Relax type holds them (tuples have fixed lengths)",
)
refuse(
    "Optional",
    reason="ONNX optionals are not supported: Relax has no type for them",
)
refuse(
    "ZipMap",
    "DictVectorizer",
    "CastMap",
    domain="ai.onnx.ml",
    reason="ONNX maps are not supported: Relax has no type for them",
)
refuse(
    "StringNormalizer",
    "StringConcat",
    "StringSplit",
    "RegexFullMatch",
    reason="string tensors are not supported: Relax has no string data type",
)
refuse(
    "Adagrad",
    "Adam",
    "Momentum",
    "Gradient",
    domain="ai.onnx.preview.training",
    reason="training operators (gradients and optimizer updates) are not supported",
)
refuse(
    "RandomNormal",
    "RandomNormalLike",
    "RandomUniform",
    "RandomUniformLike",
    "Multinomial",
    "Bernoulli",
    reason="random numbers are not supported: Relax has no random number generator",
)
refuse(
    "MaxRoiPool",
    reason="pooling regions of interest by their maximum is not supported: no Relax operator does",
)
refuse(
    "ImageDecoder",
    reason="decoding images is not supported: it needs an image codec (JPEG, PNG, ...), "
    "which no Relax operator provides",
)

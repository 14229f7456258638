"""Fusion patterns of ``fuse_by_pattern.mlir`` (``patterns="%S/Inputs/fuse_by_pattern.py:NAME"``),
after TVM's ``test_transform_fuse_ops_by_pattern.py``."""

from relax_dialect.patterns import (
    FusionPattern,
    is_const,
    is_op,
    is_tuple,
    is_tuple_get_item,
    wildcard,
)

conv2d = is_op("relax.nn.conv2d")(wildcard(), wildcard())
conv2d_relu = is_op("relax.nn.relu")(conv2d)

CONV2D_RELU = FusionPattern("dnnl.conv2d_relu", conv2d_relu)
CONV2D = FusionPattern("dnnl.conv2d", conv2d)
CONV2D_NHWC = FusionPattern("cutlass.conv2d", conv2d.has_attr(data_layout="NHWC"))
CONV2D_CONST = FusionPattern("cutlass.conv2d", is_op("relax.nn.conv2d")(wildcard(), is_const()))
REJECT_ALL = FusionPattern("cutlass.conv2d", conv2d, check=lambda match: False)

escaping_conv2d = conv2d.allow_escape()
CONV2D_RELU_ESCAPE = FusionPattern("dnnl.conv2d_relu", is_op("relax.nn.relu")(escaping_conv2d))
CYCLE = FusionPattern(
    "compiler_A.conv2d_relu_add",
    is_op("relax.add")(is_op("relax.nn.relu")(escaping_conv2d), wildcard()),
)

split = is_op("relax.split")(wildcard())
SPLIT = FusionPattern("x.split", split)
SPLIT_ADD = FusionPattern(
    "x.split", is_op("relax.add")(is_tuple_get_item(split, 0), is_tuple_get_item(split, 1))
)

CLIP = FusionPattern("x.clip", is_op("relax.clip")(wildcard(), wildcard(), wildcard()))

CONCAT_ABS = FusionPattern(
    "x.concat_abs_abs",
    is_op("relax.concat")(
        is_tuple([is_op("relax.abs")(wildcard()), is_op("relax.abs")(wildcard())])
    ),
)
CONCAT = FusionPattern("x.concat", is_op("relax.concat")(wildcard()))

matmul_add = is_op("relax.add")(is_op("relax.matmul")(wildcard(), wildcard()), wildcard())
ORCLIP = FusionPattern(
    "orclip", matmul_add | is_op("relax.clip")(matmul_add, wildcard(), wildcard())
)

same = wildcard()
SAME_OPERAND = FusionPattern(
    "x.square_sum", is_op("relax.sum")(is_op("relax.multiply")(same, same))
)

// PDL patterns of pdl.mlir, applied by `apply-pdl{pdl_file=...}` and by
// `relax-apply-patterns{patterns=...}`.

// relax.add %x, %x is relax.multiply %x, 2 (the constant 2 is an f32 scalar:
// PDL matches types by equality and cannot compute one, so the pattern suits f32
// operands; on others the multiply does not infer the add's type and the
// well-formedness check after the pass reports it).
pdl.pattern @add_self : benefit(1) {
  %type = pdl.type
  %x = pdl.operand
  %add = pdl.operation "relax.add"(%x, %x : !pdl.value, !pdl.value) -> (%type : !pdl.type)
  pdl.rewrite %add {
    %two = pdl.attribute = #relax.dense<[], f32, 2.0>
    %scalar = pdl.type : !relax.tensor<[], f32>
    %constant = pdl.operation "relax.constant" {"value" = %two} -> (%scalar : !pdl.type)
    %c = pdl.result 0 of %constant
    %product = pdl.operation "relax.multiply"(%x, %c : !pdl.value, !pdl.value) -> (%type : !pdl.type)
    pdl.replace %add with %product
  }
}

// Transposing a matrix twice gives the matrix (a match on a property).
pdl.pattern @transpose_twice : benefit(1) {
  %x = pdl.operand
  %axes = pdl.attribute = array<i64: 1, 0>
  %inner_type = pdl.type
  %outer_type = pdl.type
  %inner = pdl.operation "relax.permute_dims"(%x : !pdl.value) {"axes" = %axes} -> (%inner_type : !pdl.type)
  %t = pdl.result 0 of %inner
  %outer = pdl.operation "relax.permute_dims"(%t : !pdl.value) {"axes" = %axes} -> (%outer_type : !pdl.type)
  pdl.rewrite %outer {
    pdl.replace %outer with (%x : !pdl.value)
  }
}

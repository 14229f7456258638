// RUN: %verify-diagnostics %s
// One failing case (at least) per well-formedness rule of the spec and per
// normal-form rule; rule numbers follow the spec's list.

// Rule 1: a dataflow variable cannot leave its dataflow block.
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %o = relax.dataflow {
    %lv = relax.add %x, %x : !relax.tensor<[2], f32>
    relax.output %lv
  }
  // expected-error @+1 {{%lv is a dataflow variable and cannot be used outside its dataflow block; list it in relax.output (well-formedness rule 1)}}
  relax.return %lv
}

// -----

// Rule 2: a variable may occur in its own definition only for a function, and
// then through the lambda's self argument.
relax.function @main(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %t = relax.if %c : !relax.tensor<[2], f32> {
    // expected-error @+1 {{%t is used inside its own definition (well-formedness rule 2}}
    relax.yield %t
  } else {
    relax.yield %x
  }
  relax.return %t
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %f = "relax.lambda"() <{ret_type = !relax.tensor<[2], f32>}> ({
  ^bb0(%y: !relax.tensor<[2], f32>):
    // expected-error @+1 {{%f is used inside its own definition (a recursive lambda refers to itself as recursive(%self)) (well-formedness rule 2)}}
    %r = "relax.invoke"(%f, %y) : (!relax.func<(tensor<[2], f32>) -> tensor<[2], f32>>, !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32>
    "relax.return"(%r) : (!relax.tensor<[2], f32>) -> ()
  }) : () -> !relax.func<(tensor<[2], f32>) -> tensor<[2], f32>>
  relax.return %x
}

// -----

// Rule 3: no use before the binding.
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  // expected-error @+1 {{%y is used before it is defined or outside its scope (well-formedness rule 3)}}
  %z = "relax.add"(%y, %x) : (!relax.tensor<[2], f32>, !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32>
  %y = relax.add %x, %x : !relax.tensor<[2], f32>
  relax.return %z
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  // expected-error @+1 {{use of undefined value %w (well-formedness rule 3}}
  %z = relax.add %w, %x : !relax.tensor<[2], f32>
  relax.return %z
}

// -----

relax.function @main(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %t = "relax.if"(%c) ({
    %inner = relax.add %x, %x : !relax.tensor<[2], f32>
    relax.yield %inner
  }, {
    relax.yield %x
  }) : (!relax.tensor<[], bool>) -> !relax.tensor<[2], f32>
  // expected-error @+1 {{use of undefined value %inner (well-formedness rule 3}}
  relax.return %inner
}

// -----

// Rule 4: a return annotation uses only variables of the signature or outer scope.
// expected-error @+1 {{the return annotation uses symbolic variable m, which is neither bound by the parameters nor in scope (well-formedness rule 4)}}
relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[m], f32> {
  %y = relax.match_cast %x : !relax.tensor<[m], f32>
  relax.return %y
}

// -----

// Rule 5: symbolic variables are bound before use; 2 * n does not bind n.
// expected-error @+1 {{symbolic variable n in the signature is never bound: it must appear alone as a dimension of some parameter (well-formedness rule 5)}}
relax.function @main(%x: !relax.tensor<[2 * n], f32>) -> !relax.tensor<ndim = 1, f32> {
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.shape<ndim = 1> {
  // expected-error @+1 {{symbolic variable k is used before it is bound (well-formedness rule 5)}}
  %s = relax.shape [k] : !relax.shape<ndim = 1>
  relax.return %s
}

// -----

// Rule 6: no if, no recursive call, no impure call inside a dataflow block.
relax.function @main(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %o = relax.dataflow {
    // expected-error @+1 {{relax.if cannot appear in a dataflow block (well-formedness rule 6)}}
    %t = relax.if %c : !relax.tensor<[2], f32> {
      relax.yield %x
    } else {
      relax.yield %x
    }
    relax.output %t
  }
  relax.return %o
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %o = relax.dataflow {
    // expected-error @+1 {{a dataflow block cannot call @main, which is recursive with the current function (well-formedness rule 6)}}
    %r = relax.call @main(%x) : !relax.tensor<[2], f32>
    relax.output %r
  }
  relax.return %o
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %o = relax.dataflow {
    // expected-error @+1 {{a dataflow block cannot call @even, which is recursive with the current function (well-formedness rule 6)}}
    %r = relax.call @even(%x) : !relax.tensor<[2], f32>
    relax.output %r
  }
  relax.return %o
}
relax.function private @even(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %r = relax.call @main(%x) : !relax.tensor<[2], f32>
  relax.return %r
}

// -----

relax.function impure @main(%x: !relax.tensor<[2], f32>) -> !relax.object {
  %o = relax.dataflow {
    // expected-error @+1 {{impure relax.call_packed cannot appear in a dataflow block (well-formedness rule 6)}}
    %r = relax.call_packed "print"(%x) : !relax.object
    relax.output %r
  }
  relax.return %o
}

// -----

// Rule 7: recursive functions need a return annotation.
// expected-error @+1 {{@main is recursive, so it needs a return annotation (well-formedness rule 7)}}
relax.function @main(%x: !relax.tensor<[2], f32>) {
  %r = relax.call @main(%x) : !relax.object
  relax.return %r
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  // expected-error @+1 {{a recursive function needs a return annotation (well-formedness rule 7)}}
  %f = relax.lambda recursive(%self) (%y: !relax.tensor<[2], f32>) {
    relax.return %y
  }
  relax.return %x
}

// -----

// Rule 8: an operator may only be called.
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tuple<object> {
  %op = relax.op_ref "relax.add" : !relax.object
  // expected-error @+1 {{operator reference %op may only be called (well-formedness rule 8)}}
  %t = relax.tuple(%op) : !relax.tuple<object>
  relax.return %t
}

// -----

// Rule 9: ndim must match the number of dimensions.
// expected-error @+1 {{tensor ndim 3 does not match its 2 dimensions (well-formedness rule 9)}}
relax.function @main(%x: !relax.tensor<ndim = 3, [n, 4], f32>) -> !relax.object {
  relax.return %x
}

// -----

// A constant dimension is a non-negative int64 (mlir-opt would reject it after lowering).
// expected-error @+1 {{tensor dimension -3 is negative (a dimension is a non-negative int64)}}
relax.function @main(%x: !relax.tensor<[-3, 4], f32>) -> !relax.object {
  relax.return %x
}

// -----

// expected-error @+1 {{integer 18446744073709551616 does not fit in int64}}
relax.function @main(%x: !relax.tensor<[18446744073709551616, 4], f32>) -> !relax.object {
  relax.return %x
}

// -----

// Symbolic dimensions are checked when they are bound, at run time.
relax.function @main(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n - 3, 4], f32>) -> !relax.object {
  relax.return %y
}

// -----

// Rule 10: a function defined in a dataflow block cannot capture its dataflow variables.
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.object {
  %o = relax.dataflow {
    %lv = relax.add %x, %x : !relax.tensor<[2], f32>
    %f = relax.lambda () -> !relax.tensor<[2], f32> {
      // expected-error @+1 {{a function defined in a dataflow block uses %lv, a dataflow variable of that block (well-formedness rule 10)}}
      relax.return %lv
    }
    relax.output %f
  }
  relax.return %o
}

// -----

// Rule 11: some function must be externally linked.
// expected-error @+1 {{no function of the module is externally linked (global_symbol) (well-formedness rule 11)}}
relax.function private @helper(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  relax.return %x
}

// -----

// Rule 12: global_symbol equals the function's name.
// expected-error @+1 {{global_symbol "entry" differs from the function name @main (well-formedness rule 12)}}
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> attributes {global_symbol = "entry"} {
  relax.return %x
}

// -----

// Rule 12: a private function has no global_symbol (TVM refuses the attribute too).
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  relax.return %x
}
// expected-error @+1 {{@helper is private, so it may not have a global_symbol}}
relax.function private @helper(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> attributes {global_symbol = "helper"} {
  relax.return %x
}

// -----

// Rule 13: symbolic variables of a tensor shape are in scope (or bound by match_cast).
relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<ndim = 1, f32> {
  // expected-error @+1 {{symbolic variable q is used before it is bound (in a function signature or relax.match_cast) (well-formedness rule 13)}}
  %y = relax.add %x, %x : !relax.tensor<[q], f32>
  relax.return %y
}

// -----

// Rule 14: the same for the values of a shape.
relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.shape<ndim = 1> {
  // expected-error @+1 {{symbolic variable q is used before it is bound (in a function signature or relax.match_cast) (well-formedness rule 14)}}
  %s = relax.shape [n] : !relax.shape<[q]>
  relax.return %s
}

// -----

// Rule 15: a function type has parameters or a derive function, not both, and
// annotations need one of them.
// expected-error @+1 {{a function type cannot have both parameters and a derive function (well-formedness rule 15)}}
relax.function @main(%f: !relax.func<(object) -> object, derive "default_derive">) -> !relax.object {
  relax.return %f
}

// -----

// expected-error @+1 {{a function type in an annotation needs parameters or a derive function (well-formedness rule 15)}}
relax.function @main(%f: !relax.func<... -> object>) -> !relax.object {
  relax.return %f
}

// -----

// Rule 16: prim values are scalars.
relax.function @main() -> !relax.object {
  // expected-error @+1 {{relax.prim_value: value of data type i64x4 has 4 lanes; prim values are scalars (well-formedness rule 16)}}
  %p = relax.prim_value 3 : !relax.prim<i64x4, 3>
  relax.return %p
}

// -----

// Rule 17: prim types hold int, uint or float values.
// expected-error @+1 {{prim type cannot have data type handle; only int, uint and float (well-formedness rule 17)}}
relax.function @main(%p: !relax.prim<handle>) -> !relax.object {
  relax.return %p
}

// -----

// Rule 18: data types have valid bits and lanes.
// expected-error @+1 {{float data type cannot have 8 bits (allowed: 16, 32, 64) (well-formedness rule 18)}}
relax.function @main(%x: !relax.tensor<[2], f8>) -> !relax.object {
  relax.return %x
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{data type f32x4 has 4 lanes; Relax values are scalar (1 lane) (well-formedness rule 18)}}
  %y = relax.match_cast %x : !relax.tensor<[2], f32x4>
  relax.return %y
}

// -----

// TVM's later float formats are allowed (scalar only); 4-bit integers are not.
// expected-error @+1 {{int data type cannot have 4 bits (allowed: 1, 8, 16, 32, 64) (well-formedness rule 18)}}
relax.function @main(%x: !relax.tensor<[2], i4>, %y: !relax.tensor<[2], bf16>, %z: !relax.tensor<[2], f8E4M3FN>) -> !relax.object {
  relax.return %x
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{data type f8E5M2x2 has 2 lanes; Relax values are scalar (1 lane) (well-formedness rule 18)}}
  %y = relax.match_cast %x : !relax.tensor<[2], float8_e5m2x2>
  relax.return %y
}

// -----

// Purity: a pure function contains no impure call; relax.force_pure needs a pure function.
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{impure relax.call_packed cannot appear in a pure function; mark the function impure or use a pure variant (e.g. relax.call_pure_packed)}}
  %r = relax.call_packed "print"(%x) : !relax.object
  relax.return %r
}

// -----

// expected-error @+1 {{a function marked relax.force_pure must be pure}}
relax.function impure @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> attributes {relax.force_pure = true} {
  relax.return %x
}

// -----

// The body's StructInfo must not contradict the return annotation.
// expected-error @+1 {{relax.function @main: the body returns tensor<[2], f32>, which contradicts the return annotation tensor<[3], f32>}}
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[3], f32> {
  relax.return %x
}

// -----

// Normal form rule 2: bindings live in function bodies.
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  relax.return %x
}
// expected-error @+1 {{relax.str must be inside a Relax function body (normal form rule 2)}}
%s = relax.str "stray" : !relax.object

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  relax.return %x
}
// expected-error @+1 {{relax.lambda must be inside a Relax function body (normal form rule 2)}}
%f = relax.lambda (%y: !relax.object) -> !relax.object {
  relax.return %y
}

// -----

func.func @not_relax(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{relax.str must be inside a Relax function body (normal form rule 2)}}
  %s = relax.str "stray" : !relax.object
  func.return %x : tensor<2xf32>
}

// -----

// Normal form rule 4: dataflow blocks are consolidated and never empty.
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %a = relax.dataflow {
    %lv = relax.add %x, %x : !relax.tensor<[2], f32>
    relax.output %lv
  }
  // expected-error @+1 {{adjacent dataflow blocks must be merged into one (normal form rule 4)}}
  %b = relax.dataflow {
    %lv = relax.add %a, %x : !relax.tensor<[2], f32>
    relax.output %lv
  }
  relax.return %b
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  // expected-error @+1 {{an empty dataflow block must be removed (normal form rule 4)}}
  %a = relax.dataflow {
    relax.output %x
  }
  relax.return %a
}

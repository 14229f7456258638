// RUN: relax-opt %s -p 'relax-bind-symbolic-vars{bindings="k = 3"}' --split-input-file --verify-diagnostics
// Errors of relax-bind-symbolic-vars; the module is left unchanged.

// A name denoting two variables of a function (bound in both branches) is
// ambiguous (TVM: "Function contains multiple symbolic variables with name").

// expected-error @+1 {{relax-bind-symbolic-vars: @ambiguous binds 2 different symbolic variables named k (in different scopes)}}
relax.function @ambiguous(%c: !relax.tensor<[], bool>, %x: !relax.tensor<ndim = 1, f32>) -> !relax.tensor<ndim = 1, f32> {
  %r = relax.if %c : !relax.tensor<ndim = 1, f32> {
    %a = relax.match_cast %x : !relax.tensor<[k], f32>
    relax.yield %a
  } else {
    %b = relax.match_cast %x : !relax.tensor<[k], f32>
    relax.yield %b
  }
  relax.return %r
}

// -----

// A value that makes an operation invalid.

relax.function @invalid(%x: !relax.tensor<[k], f32>) -> !relax.tensor<[4], f32> {
  %s = relax.shape [4]
  // expected-error @+1 {{relax-bind-symbolic-vars @invalid with k = 3: relax.reshape}}
  %r = relax.reshape %x, %s : !relax.tensor<[4], f32>
  relax.return %r
}

// -----

// A call the specialised function no longer accepts.

relax.function @callee(%x: !relax.tensor<[k], f32>) -> !relax.tensor<[k], f32> {
  relax.return %x
}
relax.function @caller(%y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  // expected-error @+1 {{relax-bind-symbolic-vars: @callee no longer fits this use}}
  %r = relax.call @callee(%y) : !relax.tensor<[4], f32>
  relax.return %r
}

// RUN: python -c "import numpy as np; np.savez('%t.main.npz', w=np.eye(2, dtype='float32'))"
// RUN: relax-opt %s --split-input-file -p 'relax-bind-params{params="%t.main.npz"}' | filecheck %s --check-prefix=MAIN
// RUN: relax-opt %s --split-input-file -p 'relax-bind-params{params="%t.main.npz"},relax-bind-params{params="%t.main.npz"}' | filecheck %s --check-prefix=MAIN
// RUN: python -c "import numpy as np; np.savez('%t.sym.npz', w0=np.ones((6, 4), 'float32'), b0=np.ones(6, 'float32'), w1=np.ones((8, 6), 'float32'), b1=np.ones(8, 'float32'))"
// RUN: relax-opt %s --split-input-file -p 'relax-bind-params{params="%t.sym.npz" func=symbolic}' | filecheck %s --check-prefix=SYM
// RUN: python -c "import numpy as np; np.savez('%t.kinds.npz', A=np.arange(16, dtype='float32'), **{'t.0': np.zeros(2, 'int32'), 't.1': np.ones(3, 'float32')}, s=np.array([3, 4]), p=np.array(5))"
// RUN: relax-opt %s --split-input-file -p 'relax-bind-params{params="%t.kinds.npz" func=kinds}' | filecheck %s --check-prefix=KINDS

// A weight bound by parameter name becomes a constant at the start of the
// body; the function loses the parameter (TVM's test_bind_params); other
// functions are left alone.

// MAIN-LABEL: @main
// MAIN-SAME:     (%x: !relax.tensor<[2, 2], f32>) -> !relax.tensor<[2, 2], f32>
// MAIN-NEXT:     %w = relax.constant dense<[2, 2], f32, [1.0, 0.0, 0.0, 1.0]> : !relax.tensor<[2, 2], f32>
// MAIN-NEXT:     %y = relax.matmul %x, %w : !relax.tensor<[2, 2], f32>
// MAIN-NEXT:     relax.return %y
// MAIN-LABEL: @symbolic
// MAIN-SAME:     (%x: !relax.tensor<[batch, m], f32>, %w0: !relax.tensor<[n, m], f32>
relax.function @main(%x: !relax.tensor<[2, 2], f32>, %w: !relax.tensor<[2, 2], f32>) -> !relax.tensor<[2, 2], f32> {
  %y = relax.matmul %x, %w
  relax.return %y
}

// The symbolic variables the weights' shapes bind take their values in the
// whole function (TVM's test_bind_params_symbolic_vars).

// SYM-LABEL: @symbolic
// SYM-SAME:     (%x: !relax.tensor<[batch, 4], f32>) -> !relax.tensor<[batch, 8], f32>
// SYM-NEXT:     %w0 = relax.constant dense<[6, 4], f32, 1.0> : !relax.tensor<[6, 4], f32>
// SYM-NEXT:     %b0 = relax.constant dense<[6], f32, 1.0> : !relax.tensor<[6], f32>
// SYM-NEXT:     %w1 = relax.constant dense<[8, 6], f32, 1.0> : !relax.tensor<[8, 6], f32>
// SYM-NEXT:     %b1 = relax.constant dense<[8], f32, 1.0> : !relax.tensor<[8], f32>
// SYM-NEXT:     %out = relax.dataflow {
// SYM-NEXT:       %lv0 = relax.call_dps_packed "linear0"(%x, %w0, %b0) : !relax.tensor<[batch, 6], f32>
// SYM-NEXT:       %out_1 = relax.call_dps_packed "linear1"(%lv0, %w1, %b1) : !relax.tensor<[batch, 8], f32>
relax.function @symbolic(%x: !relax.tensor<[batch, m], f32>, %w0: !relax.tensor<[n, m], f32>, %b0: !relax.tensor<[n], f32>, %w1: !relax.tensor<[k, n], f32>, %b1: !relax.tensor<[k], f32>) -> !relax.tensor<[batch, k], f32> {
  %out = relax.dataflow {
    %lv0 = relax.call_dps_packed "linear0"(%x, %w0, %b0) : !relax.tensor<[batch, n], f32>
    %out = relax.call_dps_packed "linear1"(%lv0, %w1, %b1) : !relax.tensor<[batch, k], f32>
    relax.output %out
  }
  relax.return %out
}

// A tensor bound by name becomes a constant (TVM's test_bind_params_by_var_name);
// a tuple takes name.0, name.1... ; shapes and prim values become literals.

// KINDS-LABEL: @kinds
// KINDS-SAME:     () -> !relax.object
// KINDS-NEXT:     %A = relax.constant dense<[16], f32, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]>
// KINDS-NEXT:     %t0 = relax.constant dense<[2], i32, 0>
// KINDS-NEXT:     %t1 = relax.constant dense<[3], f32, 1.0>
// KINDS-NEXT:     %t = relax.tuple(%t0, %t1)
// KINDS-NEXT:     %s = relax.shape [3, 4]
// KINDS-NEXT:     %p = relax.prim_value 5 : !relax.prim<i64, 5>
// KINDS-NEXT:     %r = relax.tuple(%A, %t, %s, %p)
relax.function @kinds(%A: !relax.tensor<[16], f32>, %t: !relax.tuple<tensor<[2], i32>, tensor<ndim = 1, f32>>, %s: !relax.shape<ndim = 2>, %p: !relax.prim<i64>) -> !relax.object {
  %r = relax.tuple(%A, %t, %s, %p) : !relax.object
  relax.return %r
}

// Keys naming no parameter are ignored, so that a second run changes nothing
// (TVM rejects them).

// MAIN-LABEL: @unrelated
// MAIN-SAME:     (%x: !relax.tensor<[2, 2], f32>)
relax.function @unrelated(%x: !relax.tensor<[2, 2], f32>) -> !relax.tensor<[2, 2], f32> {
  relax.return %x
}

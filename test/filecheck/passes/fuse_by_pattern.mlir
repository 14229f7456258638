// RUN: relax-opt %s --split-input-file -p 'relax-fuse-by-pattern{patterns="builtin"}' | filecheck %s
// RUN: relax-opt %s --split-input-file -p 'relax-fuse-by-pattern{patterns="builtin"},relax-fuse-by-pattern{patterns="builtin"}' | filecheck %s
// RUN: relax-opt %s --split-input-file -p 'relax-fuse-by-pattern{patterns="builtin" bind-constants=false annotate-codegen=true}' | filecheck %s --check-prefix=CODEGEN
// RUN: relax-opt %s --split-input-file -p 'relax-fuse-by-pattern{patterns="%S/Inputs/fuse_by_pattern.py:CONV2D_RELU","%S/Inputs/fuse_by_pattern.py:REJECT_ALL"}' | filecheck %s --check-prefix=DNNL
// RUN: relax-opt %s --split-input-file -p 'relax-fuse-by-pattern{patterns="%S/Inputs/fuse_by_pattern.py:CONV2D","%S/Inputs/fuse_by_pattern.py:CONV2D_RELU"}' | filecheck %s --check-prefix=ORDER
// RUN: relax-opt %s --split-input-file -p 'relax-fuse-by-pattern{patterns="%S/Inputs/fuse_by_pattern.py:CONV2D_RELU","%S/Inputs/fuse_by_pattern.py:CONV2D" annotate-codegen=true}' | filecheck %s --check-prefix=MULTI
// RUN: relax-opt %s --split-input-file -p 'relax-fuse-by-pattern{patterns="%S/Inputs/fuse_by_pattern.py:ORCLIP","%S/Inputs/fuse_by_pattern.py:CLIP","%S/Inputs/fuse_by_pattern.py:SPLIT_ADD","%S/Inputs/fuse_by_pattern.py:CONCAT_ABS","%S/Inputs/fuse_by_pattern.py:SAME_OPERAND","%S/Inputs/fuse_by_pattern.py:CONV2D_NHWC","%S/Inputs/fuse_by_pattern.py:CONV2D_RELU_ESCAPE"}' | filecheck %s --check-prefix=TVM1
// RUN: relax-opt %s --split-input-file -p 'relax-fuse-by-pattern{patterns="%S/Inputs/fuse_by_pattern.py:SPLIT","%S/Inputs/fuse_by_pattern.py:CONCAT","%S/Inputs/fuse_by_pattern.py:CYCLE","%S/Inputs/fuse_by_pattern.py:CONV2D_CONST" bind-constants=false}' | filecheck %s --check-prefix=TVM2

// Patterns: built-in ones (CHECK, CODEGEN) and those of Inputs/fuse_by_pattern.py,
// after TVM's test_transform_fuse_ops_by_pattern.py (several per run, in
// priority order, where they do not meet).

// Built-in patterns: the longest matmul pattern wins. The constant is bound in
// (CHECK) or passed (CODEGEN, with bind-constants=false); annotate-codegen calls the
// composite function through a public wrapper with Codegen (test_annotate_codegen).

// CHECK-LABEL: builtin.module @matmul_bias_relu {
// CHECK-NEXT:    relax.function private @fused_relax_matmul_relax_add_relax_nn_relu(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 8], f32>) -> !relax.tensor<[n, 8], f32> attributes {Primitive = true, Composite = "builtin.matmul_bias_relu"} {
// CHECK-NEXT:      %y = relax.dataflow {
// CHECK-NEXT:        %bias = relax.constant dense<[8], f32, 0.5> : !relax.tensor<[8], f32>
// CHECK-NEXT:        %lv = relax.matmul %x, %w : !relax.tensor<[n, 8], f32>
// CHECK-NEXT:        %lv1 = relax.add %lv, %bias : !relax.tensor<[n, 8], f32>
// CHECK-NEXT:        %y_1 = relax.nn.relu %lv1 : !relax.tensor<[n, 8], f32>
// CHECK-NEXT:        relax.output %y_1
// CHECK-NEXT:      }
// CHECK-NEXT:      relax.return %y
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.function @main(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 8], f32>) -> !relax.tensor<[n, 8], f32> {
// CHECK-NEXT:      %y = relax.dataflow {
// CHECK-NEXT:        %y_1 = relax.call @fused_relax_matmul_relax_add_relax_nn_relu(%x, %w) : !relax.tensor<[n, 8], f32>
// CHECK-NEXT:        relax.output %y_1
// CHECK-NEXT:      }
// CHECK-NEXT:      relax.return %y
// CHECK-NEXT:    }

// CODEGEN-LABEL: builtin.module @matmul_bias_relu {
// CODEGEN-NEXT:    relax.function private @fused_relax_matmul_relax_add_relax_nn_relu(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 8], f32>, %bias: !relax.tensor<[8], f32>) -> !relax.tensor<[n, 8], f32> attributes {Primitive = true, Composite = "builtin.matmul_bias_relu"} {
// CODEGEN-NEXT:      %y = relax.dataflow {
// CODEGEN-NEXT:        %lv = relax.matmul %x, %w : !relax.tensor<[n, 8], f32>
// CODEGEN-NEXT:        %lv1 = relax.add %lv, %bias : !relax.tensor<[n, 8], f32>
// CODEGEN-NEXT:        %y_1 = relax.nn.relu %lv1 : !relax.tensor<[n, 8], f32>
// CODEGEN-NEXT:        relax.output %y_1
// CODEGEN-NEXT:      }
// CODEGEN-NEXT:      relax.return %y
// CODEGEN-NEXT:    }
// CODEGEN-NEXT:    relax.function @fused_relax_matmul_relax_add_relax_nn_relu_builtin(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 8], f32>, %bias: !relax.tensor<[8], f32>) -> !relax.tensor<[n, 8], f32> attributes {Codegen = "builtin"} {
// CODEGEN-NEXT:      %output = relax.call @fused_relax_matmul_relax_add_relax_nn_relu(%x, %w, %bias) : !relax.tensor<[n, 8], f32>
// CODEGEN-NEXT:      relax.return %output
// CODEGEN-NEXT:    }
// CODEGEN-NEXT:    relax.function @main(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 8], f32>) -> !relax.tensor<[n, 8], f32> {
// CODEGEN-NEXT:      %y = relax.dataflow {
// CODEGEN-NEXT:        %bias = relax.constant dense<[8], f32, 0.5> : !relax.tensor<[8], f32>
// CODEGEN-NEXT:        %y_1 = relax.call @fused_relax_matmul_relax_add_relax_nn_relu_builtin(%x, %w, %bias) : !relax.tensor<[n, 8], f32>
// CODEGEN-NEXT:        relax.output %y_1
// CODEGEN-NEXT:      }
// CODEGEN-NEXT:      relax.return %y
// CODEGEN-NEXT:    }

builtin.module @matmul_bias_relu {
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 8], f32>) -> !relax.tensor<[n, 8], f32> {
  %y = relax.dataflow {
    %bias = relax.constant dense<[8], f32, 0.5>
    %lv = relax.matmul %x, %w
    %lv1 = relax.add %lv, %bias
    %y = relax.nn.relu %lv1
    relax.output %y
  }
  relax.return %y
}
}

// -----

// An intermediate value used outside the match stops it (TVM's
// has_leaking_intermediate_variables): only the plain matmul is fused; two
// equal groups share one function (TVM's test_matmul_symbolic_var has two).

// CHECK-LABEL: builtin.module @leaking_intermediate {
// CHECK-NEXT:    relax.function private @fused_relax_matmul(%x: !relax.tensor<[b, 4], f32>, %w: !relax.tensor<[4, m], f32>) -> !relax.tensor<[b, m], f32> attributes {Primitive = true, Composite = "builtin.matmul"} {
// CHECK-NEXT:      %lv = relax.dataflow {
// CHECK-NEXT:        %lv_1 = relax.matmul %x, %w : !relax.tensor<[b, m], f32>
// CHECK-NEXT:        relax.output %lv_1
// CHECK-NEXT:      }
// CHECK-NEXT:      relax.return %lv
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.function @main(%x: !relax.tensor<[b, 4], f32>, %w: !relax.tensor<[4, m], f32>, %bias: !relax.tensor<[m], f32>) -> !relax.tuple<tensor<[b, m], f32>, tensor<[b, m], f32>, tensor<[b, m], f32>> {
// CHECK-NEXT:      %t = relax.dataflow {
// CHECK-NEXT:        %lv = relax.call @fused_relax_matmul(%x, %w) : !relax.tensor<[b, m], f32>
// CHECK-NEXT:        %lv1 = relax.add %lv, %bias : !relax.tensor<[b, m], f32>
// CHECK-NEXT:        %lv2 = relax.call @fused_relax_matmul(%x, %w) : !relax.tensor<[b, m], f32>
// CHECK-NEXT:        %t_1 = relax.tuple(%lv, %lv1, %lv2) : !relax.tuple<tensor<[b, m], f32>, tensor<[b, m], f32>, tensor<[b, m], f32>>
// CHECK-NEXT:        relax.output %t_1
// CHECK-NEXT:      }
// CHECK-NEXT:      relax.return %t
// CHECK-NEXT:    }

builtin.module @leaking_intermediate {
relax.function @main(%x: !relax.tensor<[b, 4], f32>, %w: !relax.tensor<[4, m], f32>, %bias: !relax.tensor<[m], f32>) -> !relax.tuple<tensor<[b, m], f32>, tensor<[b, m], f32>, tensor<[b, m], f32>> {
  %t = relax.dataflow {
    %lv = relax.matmul %x, %w
    %lv1 = relax.add %lv, %bias
    %lv2 = relax.matmul %x, %w
    %t = relax.tuple(%lv, %lv1, %lv2)
    relax.output %t
  }
  relax.return %t
}
}

// -----

// Dataflow blocks inside branches are searched (TVM's test_dataflow_inside_branch);
// bindings outside dataflow blocks are not.

// CHECK-LABEL: builtin.module @inside_branch {
// CHECK-NEXT:    relax.function private @fused_relax_permute_dims_relax_matmul(%w: !relax.tensor<[8, 8], f32>, %x: !relax.tensor<[8, 8], f32>) -> !relax.tensor<[8, 8], f32> attributes {Primitive = true, Composite = "builtin.matmul_transposed"} {
// CHECK-NEXT:      %out = relax.dataflow {
// CHECK-NEXT:        %wt = relax.permute_dims %w : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:        %out_1 = relax.matmul %x, %wt : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:        relax.output %out_1
// CHECK-NEXT:      }
// CHECK-NEXT:      relax.return %out
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.function @main(%x: !relax.tensor<[8, 8], f32>, %w: !relax.tensor<[8, 8], f32>, %c: !relax.prim<bool>) -> !relax.tensor<[8, 8], f32> {
// CHECK-NEXT:      %r = relax.if %c : !relax.tensor<[8, 8], f32> {
// CHECK-NEXT:        %out = relax.dataflow {
// CHECK-NEXT:          %out_1 = relax.call @fused_relax_permute_dims_relax_matmul(%w, %x) : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:          relax.output %out_1
// CHECK-NEXT:        }
// CHECK-NEXT:        relax.yield %out
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %out_2 = relax.matmul %x, %w : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:        relax.yield %out_2
// CHECK-NEXT:      }
// CHECK-NEXT:      relax.return %r
// CHECK-NEXT:    }

builtin.module @inside_branch {
relax.function @main(%x: !relax.tensor<[8, 8], f32>, %w: !relax.tensor<[8, 8], f32>, %c: !relax.prim<bool>) -> !relax.tensor<[8, 8], f32> {
  %r = relax.if %c {
    %out = relax.dataflow {
      %wt = relax.permute_dims %w
      %out = relax.matmul %x, %wt
      relax.output %out
    }
    relax.yield %out
  } else {
    %out = relax.matmul %x, %w
    relax.yield %out
  }
  relax.return %r
}
}

// -----

// Functions made by fusion, call_tir and matches across blocks are left alone
// (TVM's test_ignore_call_tir); a closure's dataflow block is searched.

// CHECK-LABEL: builtin.module @closure_and_call_tir {
// CHECK-NEXT:    func.func private @relu(%a: tensor<8x8xf32>, %out: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT:      func.return %a : tensor<8x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.function private @fused_relax_matmul(%x: !relax.tensor<[8, 8], f32>, %w: !relax.tensor<[8, 8], f32>) -> !relax.tensor<[8, 8], f32> attributes {Primitive = true, Composite = "builtin.matmul"} {
// CHECK-NEXT:      %a = relax.dataflow {
// CHECK-NEXT:        %a_1 = relax.matmul %x, %w : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:        relax.output %a_1
// CHECK-NEXT:      }
// CHECK-NEXT:      relax.return %a
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.function private @fused_relax_exp_relax_multiply(%y: !relax.tensor<[8, 8], f32>, %w: !relax.tensor<[8, 8], f32>) -> !relax.tensor<[8, 8], f32> attributes {Primitive = true, Composite = "builtin.unary_binary"} {
// CHECK-NEXT:      %z = relax.dataflow {
// CHECK-NEXT:        %e = relax.exp %y : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:        %z_1 = relax.multiply %e, %w : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:        relax.output %z_1
// CHECK-NEXT:      }
// CHECK-NEXT:      relax.return %z
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.function @main(%x: !relax.tensor<[8, 8], f32>, %w: !relax.tensor<[8, 8], f32>) -> !relax.tensor<[8, 8], f32> {
// CHECK-NEXT:      %a = relax.dataflow {
// CHECK-NEXT:        %a_1 = relax.call @fused_relax_matmul(%x, %w) : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:        relax.output %a_1
// CHECK-NEXT:      }
// CHECK-NEXT:      %f = relax.lambda (%y: !relax.tensor<[8, 8], f32>) -> !relax.tensor<[8, 8], f32> {
// CHECK-NEXT:        %z = relax.dataflow {
// CHECK-NEXT:          %z_1 = relax.call @fused_relax_exp_relax_multiply(%y, %w) : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:          relax.output %z_1
// CHECK-NEXT:        }
// CHECK-NEXT:        relax.return %z
// CHECK-NEXT:      }
// CHECK-NEXT:      %b = relax.dataflow {
// CHECK-NEXT:        %lv = relax.add %a, %x : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:        %b_1 = relax.call_tir @relu(%lv) : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:        relax.output %b_1
// CHECK-NEXT:      }
// CHECK-NEXT:      %r = relax.invoke %f(%b) : !relax.tensor<[8, 8], f32>
// CHECK-NEXT:      relax.return %r
// CHECK-NEXT:    }

builtin.module @closure_and_call_tir {
func.func private @relu(%a: tensor<8x8xf32>, %out: tensor<8x8xf32>) -> tensor<8x8xf32> {
  func.return %a : tensor<8x8xf32>
}
relax.function @main(%x: !relax.tensor<[8, 8], f32>, %w: !relax.tensor<[8, 8], f32>) -> !relax.tensor<[8, 8], f32> {
  %a = relax.dataflow {
    %a = relax.matmul %x, %w
    relax.output %a
  }
  %f = relax.lambda (%y: !relax.tensor<[8, 8], f32>) -> !relax.tensor<[8, 8], f32> {
    %z = relax.dataflow {
      %e = relax.exp %y
      %z = relax.multiply %e, %w
      relax.output %z
    }
    relax.return %z
  }
  %b = relax.dataflow {
    %lv = relax.add %a, %x
    %b = relax.call_tir @relu(%lv) : !relax.tensor<[8, 8], f32>
    relax.output %b
  }
  %r = relax.invoke %f(%b) : !relax.tensor<[8, 8], f32>
  relax.return %r
}
}

// -----

// The unary result of unary_binary may escape: the function returns it too.

// CHECK-LABEL: builtin.module @escaping_unary {
// CHECK-NEXT:    relax.function private @fused_relax_tanh_relax_subtract(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>) -> !relax.tuple<tensor<[4], f32>, tensor<[4], f32>> attributes {Primitive = true, Composite = "builtin.unary_binary"} {
// CHECK-NEXT:      %s, %e = relax.dataflow {
// CHECK-NEXT:        %e_1 = relax.tanh %x : !relax.tensor<[4], f32>
// CHECK-NEXT:        %s_1 = relax.subtract %y, %e_1 : !relax.tensor<[4], f32>
// CHECK-NEXT:        relax.output %s_1, %e_1
// CHECK-NEXT:      }
// CHECK-NEXT:      %0 = relax.tuple(%s, %e) : !relax.tuple<tensor<[4], f32>, tensor<[4], f32>>
// CHECK-NEXT:      relax.return %0
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.function @main(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
// CHECK-NEXT:      %r = relax.dataflow {
// CHECK-NEXT:        %0 = relax.call @fused_relax_tanh_relax_subtract(%x, %y) : !relax.tuple<tensor<[4], f32>, tensor<[4], f32>>
// CHECK-NEXT:        %s = relax.tuple_get_item %0[0] : !relax.tensor<[4], f32>
// CHECK-NEXT:        %e = relax.tuple_get_item %0[1] : !relax.tensor<[4], f32>
// CHECK-NEXT:        %r_1 = relax.multiply %s, %e : !relax.tensor<[4], f32>
// CHECK-NEXT:        relax.output %r_1
// CHECK-NEXT:      }
// CHECK-NEXT:      relax.return %r
// CHECK-NEXT:    }

builtin.module @escaping_unary {
relax.function @main(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %r = relax.dataflow {
    %e = relax.tanh %x
    %s = relax.subtract %y, %e
    %r = relax.multiply %s, %e
    relax.output %r
  }
  relax.return %r
}
}

// -----

// An unmatched dead binding stays (TVM's test_unused).

// CHECK-LABEL: builtin.module @unused {
// CHECK-NEXT:    relax.function private @fused_relax_matmul(%x: !relax.tensor<[4, 4], f32>, %w: !relax.tensor<[4, 4], f32>) -> !relax.tensor<[4, 4], f32> attributes {Primitive = true, Composite = "builtin.matmul"} {
// CHECK-NEXT:      %r = relax.dataflow {
// CHECK-NEXT:        %r_1 = relax.matmul %x, %w : !relax.tensor<[4, 4], f32>
// CHECK-NEXT:        relax.output %r_1
// CHECK-NEXT:      }
// CHECK-NEXT:      relax.return %r
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.function @main(%x: !relax.tensor<[4, 4], f32>, %w: !relax.tensor<[4, 4], f32>) -> !relax.tensor<[4, 4], f32> {
// CHECK-NEXT:      %r = relax.dataflow {
// CHECK-NEXT:        %relu = relax.nn.relu %x : !relax.tensor<[4, 4], f32>
// CHECK-NEXT:        %r_1 = relax.call @fused_relax_matmul(%x, %w) : !relax.tensor<[4, 4], f32>
// CHECK-NEXT:        relax.output %r_1
// CHECK-NEXT:      }
// CHECK-NEXT:      relax.return %r
// CHECK-NEXT:    }

builtin.module @unused {
relax.function @main(%x: !relax.tensor<[4, 4], f32>, %w: !relax.tensor<[4, 4], f32>) -> !relax.tensor<[4, 4], f32> {
  %r = relax.dataflow {
    %relu = relax.nn.relu %x
    %r = relax.matmul %x, %w
    relax.output %r
  }
  relax.return %r
}
}

// -----

// test_partition_conv2d_relu (DNNL); test_partition_order (ORDER, with conv2d
// first, each relu is left out).

// DNNL-LABEL: builtin.module @conv2d_relu_x2 {
// DNNL-NEXT:    relax.function private @fused_relax_nn_conv2d_relax_nn_relu(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 8, 8], f32> attributes {Primitive = true, Composite = "dnnl.conv2d_relu"} {
// DNNL-NEXT:      %conv1 = relax.dataflow {
// DNNL-NEXT:        %lv = relax.nn.conv2d %data, %weight1 {padding = [1, 1]} : !relax.tensor<[1, 4, 8, 8], f32>
// DNNL-NEXT:        %conv1_1 = relax.nn.relu %lv : !relax.tensor<[1, 4, 8, 8], f32>
// DNNL-NEXT:        relax.output %conv1_1
// DNNL-NEXT:      }
// DNNL-NEXT:      relax.return %conv1
// DNNL-NEXT:    }
// DNNL-NEXT:    relax.function private @fused_relax_nn_conv2d_relax_nn_relu1(%conv1: !relax.tensor<[1, 4, 8, 8], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> attributes {Primitive = true, Composite = "dnnl.conv2d_relu"} {
// DNNL-NEXT:      %conv2 = relax.dataflow {
// DNNL-NEXT:        %lv1 = relax.nn.conv2d %conv1, %weight2 {padding = [0, 0]} : !relax.tensor<[1, 4, 6, 6], f32>
// DNNL-NEXT:        %conv2_1 = relax.nn.relu %lv1 : !relax.tensor<[1, 4, 6, 6], f32>
// DNNL-NEXT:        relax.output %conv2_1
// DNNL-NEXT:      }
// DNNL-NEXT:      relax.return %conv2
// DNNL-NEXT:    }
// DNNL-NEXT:    relax.function @main(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> {
// DNNL-NEXT:      %conv2 = relax.dataflow {
// DNNL-NEXT:        %conv1 = relax.call @fused_relax_nn_conv2d_relax_nn_relu(%data, %weight1) : !relax.tensor<[1, 4, 8, 8], f32>
// DNNL-NEXT:        %conv2_1 = relax.call @fused_relax_nn_conv2d_relax_nn_relu1(%conv1, %weight2) : !relax.tensor<[1, 4, 6, 6], f32>
// DNNL-NEXT:        relax.output %conv2_1
// DNNL-NEXT:      }
// DNNL-NEXT:      relax.return %conv2
// DNNL-NEXT:    }

// ORDER-LABEL: builtin.module @conv2d_relu_x2 {
// ORDER-NEXT:    relax.function private @fused_relax_nn_conv2d(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 8, 8], f32> attributes {Primitive = true, Composite = "dnnl.conv2d"} {
// ORDER-NEXT:      %lv = relax.dataflow {
// ORDER-NEXT:        %lv_1 = relax.nn.conv2d %data, %weight1 {padding = [1, 1]} : !relax.tensor<[1, 4, 8, 8], f32>
// ORDER-NEXT:        relax.output %lv_1
// ORDER-NEXT:      }
// ORDER-NEXT:      relax.return %lv
// ORDER-NEXT:    }
// ORDER-NEXT:    relax.function private @fused_relax_nn_conv2d1(%conv1: !relax.tensor<[1, 4, 8, 8], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> attributes {Primitive = true, Composite = "dnnl.conv2d"} {
// ORDER-NEXT:      %lv1 = relax.dataflow {
// ORDER-NEXT:        %lv1_1 = relax.nn.conv2d %conv1, %weight2 {padding = [0, 0]} : !relax.tensor<[1, 4, 6, 6], f32>
// ORDER-NEXT:        relax.output %lv1_1
// ORDER-NEXT:      }
// ORDER-NEXT:      relax.return %lv1
// ORDER-NEXT:    }
// ORDER-NEXT:    relax.function @main(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> {
// ORDER-NEXT:      %conv2 = relax.dataflow {
// ORDER-NEXT:        %lv = relax.call @fused_relax_nn_conv2d(%data, %weight1) : !relax.tensor<[1, 4, 8, 8], f32>
// ORDER-NEXT:        %conv1 = relax.nn.relu %lv : !relax.tensor<[1, 4, 8, 8], f32>
// ORDER-NEXT:        %lv1 = relax.call @fused_relax_nn_conv2d1(%conv1, %weight2) : !relax.tensor<[1, 4, 6, 6], f32>
// ORDER-NEXT:        %conv2_1 = relax.nn.relu %lv1 : !relax.tensor<[1, 4, 6, 6], f32>
// ORDER-NEXT:        relax.output %conv2_1
// ORDER-NEXT:      }
// ORDER-NEXT:      relax.return %conv2
// ORDER-NEXT:    }

builtin.module @conv2d_relu_x2 {
relax.function @main(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> {
  %conv2 = relax.dataflow {
    %lv = relax.nn.conv2d %data, %weight1 {padding = [1, 1]}
    %conv1 = relax.nn.relu %lv
    %lv1 = relax.nn.conv2d %conv1, %weight2 {padding = [0, 0]}
    %conv2 = relax.nn.relu %lv1
    relax.output %conv2
  }
  relax.return %conv2
}
}

// -----

// test_partition_multiple_patterns: conv2d_relu first, then conv2d (MULTI, with
// annotate-codegen).

// MULTI-LABEL: builtin.module @conv2d_conv2d_relu {
// MULTI-NEXT:    relax.function private @fused_relax_nn_conv2d_relax_nn_relu(%conv1: !relax.tensor<[1, 4, 8, 8], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> attributes {Primitive = true, Composite = "dnnl.conv2d_relu"} {
// MULTI-NEXT:      %conv2 = relax.dataflow {
// MULTI-NEXT:        %lv = relax.nn.conv2d %conv1, %weight2 {padding = [0, 0]} : !relax.tensor<[1, 4, 6, 6], f32>
// MULTI-NEXT:        %conv2_1 = relax.nn.relu %lv : !relax.tensor<[1, 4, 6, 6], f32>
// MULTI-NEXT:        relax.output %conv2_1
// MULTI-NEXT:      }
// MULTI-NEXT:      relax.return %conv2
// MULTI-NEXT:    }
// MULTI-NEXT:    relax.function @fused_relax_nn_conv2d_relax_nn_relu_dnnl(%conv1: !relax.tensor<[1, 4, 8, 8], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> attributes {Codegen = "dnnl"} {
// MULTI-NEXT:      %output = relax.call @fused_relax_nn_conv2d_relax_nn_relu(%conv1, %weight2) : !relax.tensor<[1, 4, 6, 6], f32>
// MULTI-NEXT:      relax.return %output
// MULTI-NEXT:    }
// MULTI-NEXT:    relax.function private @fused_relax_nn_conv2d(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 8, 8], f32> attributes {Primitive = true, Composite = "dnnl.conv2d"} {
// MULTI-NEXT:      %conv1 = relax.dataflow {
// MULTI-NEXT:        %conv1_1 = relax.nn.conv2d %data, %weight1 {padding = [1, 1]} : !relax.tensor<[1, 4, 8, 8], f32>
// MULTI-NEXT:        relax.output %conv1_1
// MULTI-NEXT:      }
// MULTI-NEXT:      relax.return %conv1
// MULTI-NEXT:    }
// MULTI-NEXT:    relax.function @fused_relax_nn_conv2d_dnnl(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 8, 8], f32> attributes {Codegen = "dnnl"} {
// MULTI-NEXT:      %output = relax.call @fused_relax_nn_conv2d(%data, %weight1) : !relax.tensor<[1, 4, 8, 8], f32>
// MULTI-NEXT:      relax.return %output
// MULTI-NEXT:    }
// MULTI-NEXT:    relax.function @main(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> {
// MULTI-NEXT:      %conv2 = relax.dataflow {
// MULTI-NEXT:        %conv1 = relax.call @fused_relax_nn_conv2d_dnnl(%data, %weight1) : !relax.tensor<[1, 4, 8, 8], f32>
// MULTI-NEXT:        %conv2_1 = relax.call @fused_relax_nn_conv2d_relax_nn_relu_dnnl(%conv1, %weight2) : !relax.tensor<[1, 4, 6, 6], f32>
// MULTI-NEXT:        relax.output %conv2_1
// MULTI-NEXT:      }
// MULTI-NEXT:      relax.return %conv2
// MULTI-NEXT:    }

builtin.module @conv2d_conv2d_relu {
relax.function @main(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> {
  %conv2 = relax.dataflow {
    %conv1 = relax.nn.conv2d %data, %weight1 {padding = [1, 1]}
    %lv = relax.nn.conv2d %conv1, %weight2 {padding = [0, 0]}
    %conv2 = relax.nn.relu %lv
    relax.output %conv2
  }
  relax.return %conv2
}
}

// -----

// conv1 has another use, so the strict conv2d_relu does not match (DNNL).
// test_branch_tuple_output (TVM1): conv1 may escape, the function returns it too.
// test_cyclic_dependency (TVM2): add(relu(conv2d), _) would be fused around
// gelu(conv1), a cycle: not fused (TVM raises an error).

// DNNL-LABEL: builtin.module @branch {
// DNNL-NEXT:    relax.function @main(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> {
// DNNL-NEXT:      %out = relax.dataflow {
// DNNL-NEXT:        %conv1 = relax.nn.conv2d %data, %weight : !relax.tensor<[1, 4, 6, 6], f32>
// DNNL-NEXT:        %relu1 = relax.nn.relu %conv1 : !relax.tensor<[1, 4, 6, 6], f32>
// DNNL-NEXT:        %gelu1 = relax.nn.gelu %conv1 : !relax.tensor<[1, 4, 6, 6], f32>
// DNNL-NEXT:        %out_1 = relax.add %relu1, %gelu1 : !relax.tensor<[1, 4, 6, 6], f32>
// DNNL-NEXT:        relax.output %out_1
// DNNL-NEXT:      }
// DNNL-NEXT:      relax.return %out
// DNNL-NEXT:    }

// TVM1-LABEL: builtin.module @branch {
// TVM1-NEXT:    relax.function private @fused_relax_nn_conv2d_relax_nn_relu(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tuple<tensor<[1, 4, 6, 6], f32>, tensor<[1, 4, 6, 6], f32>> attributes {Primitive = true, Composite = "dnnl.conv2d_relu"} {
// TVM1-NEXT:      %conv1, %relu1 = relax.dataflow {
// TVM1-NEXT:        %conv1_1 = relax.nn.conv2d %data, %weight : !relax.tensor<[1, 4, 6, 6], f32>
// TVM1-NEXT:        %relu1_1 = relax.nn.relu %conv1_1 : !relax.tensor<[1, 4, 6, 6], f32>
// TVM1-NEXT:        relax.output %conv1_1, %relu1_1
// TVM1-NEXT:      }
// TVM1-NEXT:      %0 = relax.tuple(%conv1, %relu1) : !relax.tuple<tensor<[1, 4, 6, 6], f32>, tensor<[1, 4, 6, 6], f32>>
// TVM1-NEXT:      relax.return %0
// TVM1-NEXT:    }
// TVM1-NEXT:    relax.function @main(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> {
// TVM1-NEXT:      %out = relax.dataflow {
// TVM1-NEXT:        %0 = relax.call @fused_relax_nn_conv2d_relax_nn_relu(%data, %weight) : !relax.tuple<tensor<[1, 4, 6, 6], f32>, tensor<[1, 4, 6, 6], f32>>
// TVM1-NEXT:        %conv1 = relax.tuple_get_item %0[0] : !relax.tensor<[1, 4, 6, 6], f32>
// TVM1-NEXT:        %relu1 = relax.tuple_get_item %0[1] : !relax.tensor<[1, 4, 6, 6], f32>
// TVM1-NEXT:        %gelu1 = relax.nn.gelu %conv1 : !relax.tensor<[1, 4, 6, 6], f32>
// TVM1-NEXT:        %out_1 = relax.add %relu1, %gelu1 : !relax.tensor<[1, 4, 6, 6], f32>
// TVM1-NEXT:        relax.output %out_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %out
// TVM1-NEXT:    }

// TVM2-LABEL: builtin.module @branch {
// TVM2-NEXT:    relax.function @main(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> {
// TVM2-NEXT:      %out = relax.dataflow {
// TVM2-NEXT:        %conv1 = relax.nn.conv2d %data, %weight : !relax.tensor<[1, 4, 6, 6], f32>
// TVM2-NEXT:        %relu1 = relax.nn.relu %conv1 : !relax.tensor<[1, 4, 6, 6], f32>
// TVM2-NEXT:        %gelu1 = relax.nn.gelu %conv1 : !relax.tensor<[1, 4, 6, 6], f32>
// TVM2-NEXT:        %out_1 = relax.add %relu1, %gelu1 : !relax.tensor<[1, 4, 6, 6], f32>
// TVM2-NEXT:        relax.output %out_1
// TVM2-NEXT:      }
// TVM2-NEXT:      relax.return %out
// TVM2-NEXT:    }

builtin.module @branch {
relax.function @main(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> {
  %out = relax.dataflow {
    %conv1 = relax.nn.conv2d %data, %weight
    %relu1 = relax.nn.relu %conv1
    %gelu1 = relax.nn.gelu %conv1
    %out = relax.add %relu1, %gelu1
    relax.output %out
  }
  relax.return %out
}
}

// -----

// An attribute constraint takes the NHWC conv2d only (TVM1); a check callback
// rejecting every match leaves all (DNNL, test_check_pattern); is_const with
// bind-constants=false passes the constant (TVM2, test_bind_constants).

// DNNL-LABEL: builtin.module @conv2d_layouts {
// DNNL-NEXT:    relax.function @main(%data: !relax.tensor<[1, 8, 8, 4], f32>, %weight: !relax.tensor<[4, 3, 3, 4], f32>, %data2: !relax.tensor<[1, 4, 8, 8], f32>) -> !relax.tuple<tensor<[1, 6, 6, 4], f32>, tensor<[1, 4, 6, 6], f32>> {
// DNNL-NEXT:      %t = relax.dataflow {
// DNNL-NEXT:        %c = relax.constant dense<[4, 4, 3, 3], f32, 0.25> : !relax.tensor<[4, 4, 3, 3], f32>
// DNNL-NEXT:        %nhwc = relax.nn.conv2d %data, %weight {data_layout = "NHWC", kernel_layout = "OHWI"} : !relax.tensor<[1, 6, 6, 4], f32>
// DNNL-NEXT:        %nchw = relax.nn.conv2d %data2, %c : !relax.tensor<[1, 4, 6, 6], f32>
// DNNL-NEXT:        %t_1 = relax.tuple(%nhwc, %nchw) : !relax.tuple<tensor<[1, 6, 6, 4], f32>, tensor<[1, 4, 6, 6], f32>>
// DNNL-NEXT:        relax.output %t_1
// DNNL-NEXT:      }
// DNNL-NEXT:      relax.return %t
// DNNL-NEXT:    }

// TVM1-LABEL: builtin.module @conv2d_layouts {
// TVM1-NEXT:    relax.function private @fused_relax_nn_conv2d(%data: !relax.tensor<[1, 8, 8, 4], f32>, %weight: !relax.tensor<[4, 3, 3, 4], f32>) -> !relax.tensor<[1, 6, 6, 4], f32> attributes {Primitive = true, Composite = "cutlass.conv2d"} {
// TVM1-NEXT:      %nhwc = relax.dataflow {
// TVM1-NEXT:        %nhwc_1 = relax.nn.conv2d %data, %weight {data_layout = "NHWC", kernel_layout = "OHWI"} : !relax.tensor<[1, 6, 6, 4], f32>
// TVM1-NEXT:        relax.output %nhwc_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %nhwc
// TVM1-NEXT:    }
// TVM1-NEXT:    relax.function @main(%data: !relax.tensor<[1, 8, 8, 4], f32>, %weight: !relax.tensor<[4, 3, 3, 4], f32>, %data2: !relax.tensor<[1, 4, 8, 8], f32>) -> !relax.tuple<tensor<[1, 6, 6, 4], f32>, tensor<[1, 4, 6, 6], f32>> {
// TVM1-NEXT:      %t = relax.dataflow {
// TVM1-NEXT:        %c = relax.constant dense<[4, 4, 3, 3], f32, 0.25> : !relax.tensor<[4, 4, 3, 3], f32>
// TVM1-NEXT:        %nhwc = relax.call @fused_relax_nn_conv2d(%data, %weight) : !relax.tensor<[1, 6, 6, 4], f32>
// TVM1-NEXT:        %nchw = relax.nn.conv2d %data2, %c : !relax.tensor<[1, 4, 6, 6], f32>
// TVM1-NEXT:        %t_1 = relax.tuple(%nhwc, %nchw) : !relax.tuple<tensor<[1, 6, 6, 4], f32>, tensor<[1, 4, 6, 6], f32>>
// TVM1-NEXT:        relax.output %t_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %t
// TVM1-NEXT:    }

// TVM2-LABEL: builtin.module @conv2d_layouts {
// TVM2-NEXT:    relax.function private @fused_relax_nn_conv2d(%data2: !relax.tensor<[1, 4, 8, 8], f32>, %c: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 6, 6], f32> attributes {Primitive = true, Composite = "cutlass.conv2d"} {
// TVM2-NEXT:      %nchw = relax.dataflow {
// TVM2-NEXT:        %nchw_1 = relax.nn.conv2d %data2, %c : !relax.tensor<[1, 4, 6, 6], f32>
// TVM2-NEXT:        relax.output %nchw_1
// TVM2-NEXT:      }
// TVM2-NEXT:      relax.return %nchw
// TVM2-NEXT:    }
// TVM2-NEXT:    relax.function @main(%data: !relax.tensor<[1, 8, 8, 4], f32>, %weight: !relax.tensor<[4, 3, 3, 4], f32>, %data2: !relax.tensor<[1, 4, 8, 8], f32>) -> !relax.tuple<tensor<[1, 6, 6, 4], f32>, tensor<[1, 4, 6, 6], f32>> {
// TVM2-NEXT:      %t = relax.dataflow {
// TVM2-NEXT:        %c = relax.constant dense<[4, 4, 3, 3], f32, 0.25> : !relax.tensor<[4, 4, 3, 3], f32>
// TVM2-NEXT:        %nhwc = relax.nn.conv2d %data, %weight {data_layout = "NHWC", kernel_layout = "OHWI"} : !relax.tensor<[1, 6, 6, 4], f32>
// TVM2-NEXT:        %nchw = relax.call @fused_relax_nn_conv2d(%data2, %c) : !relax.tensor<[1, 4, 6, 6], f32>
// TVM2-NEXT:        %t_1 = relax.tuple(%nhwc, %nchw) : !relax.tuple<tensor<[1, 6, 6, 4], f32>, tensor<[1, 4, 6, 6], f32>>
// TVM2-NEXT:        relax.output %t_1
// TVM2-NEXT:      }
// TVM2-NEXT:      relax.return %t
// TVM2-NEXT:    }

builtin.module @conv2d_layouts {
relax.function @main(%data: !relax.tensor<[1, 8, 8, 4], f32>, %weight: !relax.tensor<[4, 3, 3, 4], f32>, %data2: !relax.tensor<[1, 4, 8, 8], f32>) -> !relax.tuple<tensor<[1, 6, 6, 4], f32>, tensor<[1, 4, 6, 6], f32>> {
  %t = relax.dataflow {
    %c = relax.constant dense<[4, 4, 3, 3], f32, 0.25>
    %nhwc = relax.nn.conv2d %data, %weight {data_layout = "NHWC", kernel_layout = "OHWI"}
    %nchw = relax.nn.conv2d %data2, %c
    %t = relax.tuple(%nhwc, %nchw)
    relax.output %t
  }
  relax.return %t
}
}

// -----

// test_split: the split with the add of its two fields (TVM1), or alone (TVM2).

// TVM1-LABEL: builtin.module @split {
// TVM1-NEXT:    relax.function private @fused_relax_split_relax_add(%inp: !relax.tensor<[16, 32], f32>) -> !relax.tensor<[16, 16], f32> attributes {Primitive = true, Composite = "x.split"} {
// TVM1-NEXT:      %out = relax.dataflow {
// TVM1-NEXT:        %tup = relax.split %inp {indices_or_sections = [16], axis = 1} : !relax.tuple<tensor<[16, 16], f32>, tensor<[16, 16], f32>>
// TVM1-NEXT:        %lv = relax.tuple_get_item %tup[0] : !relax.tensor<[16, 16], f32>
// TVM1-NEXT:        %lv1 = relax.tuple_get_item %tup[1] : !relax.tensor<[16, 16], f32>
// TVM1-NEXT:        %out_1 = relax.add %lv, %lv1 : !relax.tensor<[16, 16], f32>
// TVM1-NEXT:        relax.output %out_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %out
// TVM1-NEXT:    }
// TVM1-NEXT:    relax.function @main(%inp: !relax.tensor<[16, 32], f32>) -> !relax.tensor<[16, 16], f32> {
// TVM1-NEXT:      %out = relax.dataflow {
// TVM1-NEXT:        %out_1 = relax.call @fused_relax_split_relax_add(%inp) : !relax.tensor<[16, 16], f32>
// TVM1-NEXT:        relax.output %out_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %out
// TVM1-NEXT:    }

// TVM2-LABEL: builtin.module @split {
// TVM2-NEXT:    relax.function private @fused_relax_split(%inp: !relax.tensor<[16, 32], f32>) -> !relax.tuple<tensor<[16, 16], f32>, tensor<[16, 16], f32>> attributes {Primitive = true, Composite = "x.split"} {
// TVM2-NEXT:      %tup = relax.dataflow {
// TVM2-NEXT:        %tup_1 = relax.split %inp {indices_or_sections = [16], axis = 1} : !relax.tuple<tensor<[16, 16], f32>, tensor<[16, 16], f32>>
// TVM2-NEXT:        relax.output %tup_1
// TVM2-NEXT:      }
// TVM2-NEXT:      relax.return %tup
// TVM2-NEXT:    }
// TVM2-NEXT:    relax.function @main(%inp: !relax.tensor<[16, 32], f32>) -> !relax.tensor<[16, 16], f32> {
// TVM2-NEXT:      %out = relax.dataflow {
// TVM2-NEXT:        %tup = relax.call @fused_relax_split(%inp) : !relax.tuple<tensor<[16, 16], f32>, tensor<[16, 16], f32>>
// TVM2-NEXT:        %lv = relax.tuple_get_item %tup[0] : !relax.tensor<[16, 16], f32>
// TVM2-NEXT:        %lv1 = relax.tuple_get_item %tup[1] : !relax.tensor<[16, 16], f32>
// TVM2-NEXT:        %out_1 = relax.add %lv, %lv1 : !relax.tensor<[16, 16], f32>
// TVM2-NEXT:        relax.output %out_1
// TVM2-NEXT:      }
// TVM2-NEXT:      relax.return %out
// TVM2-NEXT:    }

builtin.module @split {
relax.function @main(%inp: !relax.tensor<[16, 32], f32>) -> !relax.tensor<[16, 16], f32> {
  %out = relax.dataflow {
    %tup = relax.split %inp {indices_or_sections = [16], axis = 1}
    %lv = relax.tuple_get_item %tup[0]
    %lv1 = relax.tuple_get_item %tup[1]
    %out = relax.add %lv, %lv1
    relax.output %out
  }
  relax.return %out
}
}

// -----

// test_clip (TVM1): prim value operands are copied in, so two clips make two
// functions.

// TVM1-LABEL: builtin.module @clip {
// TVM1-NEXT:    relax.function private @fused_relax_clip(%x: !relax.tensor<[10, 10], f32>) -> !relax.tensor<[10, 10], f32> attributes {Primitive = true, Composite = "x.clip"} {
// TVM1-NEXT:      %gv0 = relax.dataflow {
// TVM1-NEXT:        %lo = relax.prim_value 0 : !relax.prim<f32>
// TVM1-NEXT:        %hi = relax.prim_value 4 : !relax.prim<f32>
// TVM1-NEXT:        %gv0_1 = relax.clip %x, %lo, %hi : !relax.tensor<[10, 10], f32>
// TVM1-NEXT:        relax.output %gv0_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %gv0
// TVM1-NEXT:    }
// TVM1-NEXT:    relax.function private @fused_relax_clip1(%x: !relax.tensor<[10, 10], f32>) -> !relax.tensor<[10, 10], f32> attributes {Primitive = true, Composite = "x.clip"} {
// TVM1-NEXT:      %gv1 = relax.dataflow {
// TVM1-NEXT:        %lo1 = relax.prim_value 1 : !relax.prim<f32>
// TVM1-NEXT:        %hi1 = relax.prim_value 3 : !relax.prim<f32>
// TVM1-NEXT:        %gv1_1 = relax.clip %x, %lo1, %hi1 : !relax.tensor<[10, 10], f32>
// TVM1-NEXT:        relax.output %gv1_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %gv1
// TVM1-NEXT:    }
// TVM1-NEXT:    relax.function @main(%x: !relax.tensor<[10, 10], f32>) -> !relax.tuple<tensor<[10, 10], f32>, tensor<[10, 10], f32>> {
// TVM1-NEXT:      %gv0, %gv1 = relax.dataflow {
// TVM1-NEXT:        %gv0_1 = relax.call @fused_relax_clip(%x) : !relax.tensor<[10, 10], f32>
// TVM1-NEXT:        %gv1_1 = relax.call @fused_relax_clip1(%x) : !relax.tensor<[10, 10], f32>
// TVM1-NEXT:        relax.output %gv0_1, %gv1_1
// TVM1-NEXT:      }
// TVM1-NEXT:      %t = relax.tuple(%gv0, %gv1) : !relax.tuple<tensor<[10, 10], f32>, tensor<[10, 10], f32>>
// TVM1-NEXT:      relax.return %t
// TVM1-NEXT:    }

builtin.module @clip {
relax.function @main(%x: !relax.tensor<[10, 10], f32>) -> !relax.tuple<tensor<[10, 10], f32>, tensor<[10, 10], f32>> {
  %gv0, %gv1 = relax.dataflow {
    %lo = relax.prim_value 0 : !relax.prim<f32>
    %hi = relax.prim_value 4 : !relax.prim<f32>
    %gv0 = relax.clip %x, %lo, %hi
    %lo1 = relax.prim_value 1 : !relax.prim<f32>
    %hi1 = relax.prim_value 3 : !relax.prim<f32>
    %gv1 = relax.clip %x, %lo1, %hi1
    relax.output %gv0, %gv1
  }
  %t = relax.tuple(%gv0, %gv1)
  relax.return %t
}
}

// -----

// test_concat: a tuple pattern takes the tuple and its fields (TVM1); a wildcard
// operand takes the tuple only (TVM2).

// TVM1-LABEL: builtin.module @concat {
// TVM1-NEXT:    relax.function private @fused_relax_abs_relax_abs_relax_concat(%x: !relax.tensor<[10], f32>, %y: !relax.tensor<[10], f32>) -> !relax.tensor<[20], f32> attributes {Primitive = true, Composite = "x.concat_abs_abs"} {
// TVM1-NEXT:      %lv2 = relax.dataflow {
// TVM1-NEXT:        %lv = relax.abs %x : !relax.tensor<[10], f32>
// TVM1-NEXT:        %lv1 = relax.abs %y : !relax.tensor<[10], f32>
// TVM1-NEXT:        %t = relax.tuple(%lv, %lv1) : !relax.tuple<tensor<[10], f32>, tensor<[10], f32>>
// TVM1-NEXT:        %lv2_1 = relax.concat %t : !relax.tensor<[20], f32>
// TVM1-NEXT:        relax.output %lv2_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %lv2
// TVM1-NEXT:    }
// TVM1-NEXT:    relax.function @main(%x: !relax.tensor<[10], f32>, %y: !relax.tensor<[10], f32>) -> !relax.tensor<[20], f32> {
// TVM1-NEXT:      %gv = relax.dataflow {
// TVM1-NEXT:        %lv2 = relax.call @fused_relax_abs_relax_abs_relax_concat(%x, %y) : !relax.tensor<[20], f32>
// TVM1-NEXT:        %gv_1 = relax.nn.relu %lv2 : !relax.tensor<[20], f32>
// TVM1-NEXT:        relax.output %gv_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %gv
// TVM1-NEXT:    }

// TVM2-LABEL: builtin.module @concat {
// TVM2-NEXT:    relax.function private @fused_relax_concat(%lv: !relax.tensor<[10], f32>, %lv1: !relax.tensor<[10], f32>) -> !relax.tensor<[20], f32> attributes {Primitive = true, Composite = "x.concat"} {
// TVM2-NEXT:      %lv2 = relax.dataflow {
// TVM2-NEXT:        %t = relax.tuple(%lv, %lv1) : !relax.tuple<tensor<[10], f32>, tensor<[10], f32>>
// TVM2-NEXT:        %lv2_1 = relax.concat %t : !relax.tensor<[20], f32>
// TVM2-NEXT:        relax.output %lv2_1
// TVM2-NEXT:      }
// TVM2-NEXT:      relax.return %lv2
// TVM2-NEXT:    }
// TVM2-NEXT:    relax.function @main(%x: !relax.tensor<[10], f32>, %y: !relax.tensor<[10], f32>) -> !relax.tensor<[20], f32> {
// TVM2-NEXT:      %gv = relax.dataflow {
// TVM2-NEXT:        %lv = relax.abs %x : !relax.tensor<[10], f32>
// TVM2-NEXT:        %lv1 = relax.abs %y : !relax.tensor<[10], f32>
// TVM2-NEXT:        %lv2 = relax.call @fused_relax_concat(%lv, %lv1) : !relax.tensor<[20], f32>
// TVM2-NEXT:        %gv_1 = relax.nn.relu %lv2 : !relax.tensor<[20], f32>
// TVM2-NEXT:        relax.output %gv_1
// TVM2-NEXT:      }
// TVM2-NEXT:      relax.return %gv
// TVM2-NEXT:    }

builtin.module @concat {
relax.function @main(%x: !relax.tensor<[10], f32>, %y: !relax.tensor<[10], f32>) -> !relax.tensor<[20], f32> {
  %gv = relax.dataflow {
    %lv = relax.abs %x
    %lv1 = relax.abs %y
    %t = relax.tuple(%lv, %lv1)
    %lv2 = relax.concat %t
    %gv = relax.nn.relu %lv2
    relax.output %gv
  }
  relax.return %gv
}
}

// -----

// test_match_maximal_subgraph (TVM1): matmul+add matched first, then subsumed
// by the match of clip(matmul+add).

// TVM1-LABEL: builtin.module @maximal {
// TVM1-NEXT:    relax.function private @fused_relax_matmul_relax_add_relax_clip(%x: !relax.tensor<[32, 8], i32>, %y: !relax.tensor<[8, 8], i32>, %bias: !relax.tensor<[8], i32>) -> !relax.tensor<[32, 8], i32> attributes {Primitive = true, Composite = "orclip"} {
// TVM1-NEXT:      %lv2 = relax.dataflow {
// TVM1-NEXT:        %lo = relax.prim_value -128 : !relax.prim<i32>
// TVM1-NEXT:        %hi = relax.prim_value 127 : !relax.prim<i32>
// TVM1-NEXT:        %lv0 = relax.matmul %x, %y {out_dtype = i32} : !relax.tensor<[32, 8], i32>
// TVM1-NEXT:        %lv1 = relax.add %lv0, %bias : !relax.tensor<[32, 8], i32>
// TVM1-NEXT:        %lv2_1 = relax.clip %lv1, %lo, %hi : !relax.tensor<[32, 8], i32>
// TVM1-NEXT:        relax.output %lv2_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %lv2
// TVM1-NEXT:    }
// TVM1-NEXT:    relax.function @main(%x: !relax.tensor<[32, 8], i32>, %y: !relax.tensor<[8, 8], i32>, %bias: !relax.tensor<[8], i32>) -> !relax.tensor<[32, 8], i32> {
// TVM1-NEXT:      %lv2 = relax.dataflow {
// TVM1-NEXT:        %lv2_1 = relax.call @fused_relax_matmul_relax_add_relax_clip(%x, %y, %bias) : !relax.tensor<[32, 8], i32>
// TVM1-NEXT:        relax.output %lv2_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %lv2
// TVM1-NEXT:    }

builtin.module @maximal {
relax.function @main(%x: !relax.tensor<[32, 8], i32>, %y: !relax.tensor<[8, 8], i32>, %bias: !relax.tensor<[8], i32>) -> !relax.tensor<[32, 8], i32> {
  %lv2 = relax.dataflow {
    %lv0 = relax.matmul %x, %y {out_dtype = i32}
    %lv1 = relax.add %lv0, %bias
    %lo = relax.prim_value -128 : !relax.prim<i32>
    %hi = relax.prim_value 127 : !relax.prim<i32>
    %lv2 = relax.clip %lv1, %lo, %hi
    relax.output %lv2
  }
  relax.return %lv2
}
}

// -----

// A pattern used twice matches one value twice (TVM1).

// TVM1-LABEL: builtin.module @same_operand {
// TVM1-NEXT:    relax.function private @fused_relax_multiply_relax_sum(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[], f32> attributes {Primitive = true, Composite = "x.square_sum"} {
// TVM1-NEXT:      %a = relax.dataflow {
// TVM1-NEXT:        %sq = relax.multiply %x, %x : !relax.tensor<[4], f32>
// TVM1-NEXT:        %a_1 = relax.sum %sq : !relax.tensor<[], f32>
// TVM1-NEXT:        relax.output %a_1
// TVM1-NEXT:      }
// TVM1-NEXT:      relax.return %a
// TVM1-NEXT:    }
// TVM1-NEXT:    relax.function @main(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>) -> !relax.tuple<tensor<[], f32>, tensor<[], f32>> {
// TVM1-NEXT:      %a, %b = relax.dataflow {
// TVM1-NEXT:        %a_1 = relax.call @fused_relax_multiply_relax_sum(%x) : !relax.tensor<[], f32>
// TVM1-NEXT:        %xy = relax.multiply %x, %y : !relax.tensor<[4], f32>
// TVM1-NEXT:        %b_1 = relax.sum %xy : !relax.tensor<[], f32>
// TVM1-NEXT:        relax.output %a_1, %b_1
// TVM1-NEXT:      }
// TVM1-NEXT:      %t = relax.tuple(%a, %b) : !relax.tuple<tensor<[], f32>, tensor<[], f32>>
// TVM1-NEXT:      relax.return %t
// TVM1-NEXT:    }

builtin.module @same_operand {
relax.function @main(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>) -> !relax.tuple<tensor<[], f32>, tensor<[], f32>> {
  %a, %b = relax.dataflow {
    %sq = relax.multiply %x, %x
    %a = relax.sum %sq
    %xy = relax.multiply %x, %y
    %b = relax.sum %xy
    relax.output %a, %b
  }
  %t = relax.tuple(%a, %b)
  relax.return %t
}
}

// -----

// test_multiple_entries_multiple_calls_same_extern (MULTI): under
// annotate-codegen, every call goes through one wrapper with Codegen = "dnnl".

// MULTI-LABEL: builtin.module @same_extern {
// MULTI-NEXT:    relax.function private @fused_relax_nn_conv2d(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 8, 8], f32> attributes {Primitive = true, Composite = "dnnl.conv2d"} {
// MULTI-NEXT:      %conv1 = relax.dataflow {
// MULTI-NEXT:        %conv1_1 = relax.nn.conv2d %data, %weight1 {padding = [1, 1]} : !relax.tensor<[1, 4, 8, 8], f32>
// MULTI-NEXT:        relax.output %conv1_1
// MULTI-NEXT:      }
// MULTI-NEXT:      relax.return %conv1
// MULTI-NEXT:    }
// MULTI-NEXT:    relax.function @fused_relax_nn_conv2d_dnnl(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 8, 8], f32> attributes {Codegen = "dnnl"} {
// MULTI-NEXT:      %output = relax.call @fused_relax_nn_conv2d(%data, %weight1) : !relax.tensor<[1, 4, 8, 8], f32>
// MULTI-NEXT:      relax.return %output
// MULTI-NEXT:    }
// MULTI-NEXT:    relax.function @main2(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 8, 8], f32> {
// MULTI-NEXT:      %conv2 = relax.dataflow {
// MULTI-NEXT:        %conv1 = relax.call @fused_relax_nn_conv2d_dnnl(%data, %weight1) : !relax.tensor<[1, 4, 8, 8], f32>
// MULTI-NEXT:        %conv2_1 = relax.call @fused_relax_nn_conv2d_dnnl(%conv1, %weight2) : !relax.tensor<[1, 4, 8, 8], f32>
// MULTI-NEXT:        relax.output %conv2_1
// MULTI-NEXT:      }
// MULTI-NEXT:      relax.return %conv2
// MULTI-NEXT:    }
// MULTI-NEXT:    relax.function @main(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 8, 8], f32> {
// MULTI-NEXT:      %result = relax.dataflow {
// MULTI-NEXT:        %conv1 = relax.call @fused_relax_nn_conv2d_dnnl(%data, %weight1) : !relax.tensor<[1, 4, 8, 8], f32>
// MULTI-NEXT:        %conv2 = relax.call @fused_relax_nn_conv2d_dnnl(%conv1, %weight2) : !relax.tensor<[1, 4, 8, 8], f32>
// MULTI-NEXT:        %conv3 = relax.call @main2(%data, %weight1, %weight2) : !relax.tensor<[1, 4, 8, 8], f32>
// MULTI-NEXT:        %result_1 = relax.add %conv2, %conv3 : !relax.tensor<[1, 4, 8, 8], f32>
// MULTI-NEXT:        relax.output %result_1
// MULTI-NEXT:      }
// MULTI-NEXT:      relax.return %result
// MULTI-NEXT:    }

builtin.module @same_extern {
relax.function @main2(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 8, 8], f32> {
  %conv2 = relax.dataflow {
    %conv1 = relax.nn.conv2d %data, %weight1 {padding = [1, 1]}
    %conv2 = relax.nn.conv2d %conv1, %weight2 {padding = [1, 1]}
    relax.output %conv2
  }
  relax.return %conv2
}
relax.function @main(%data: !relax.tensor<[1, 4, 8, 8], f32>, %weight1: !relax.tensor<[4, 4, 3, 3], f32>, %weight2: !relax.tensor<[4, 4, 3, 3], f32>) -> !relax.tensor<[1, 4, 8, 8], f32> {
  %result = relax.dataflow {
    %conv1 = relax.nn.conv2d %data, %weight1 {padding = [1, 1]}
    %conv2 = relax.nn.conv2d %conv1, %weight2 {padding = [1, 1]}
    %conv3 = relax.call @main2(%data, %weight1, %weight2) : !relax.tensor<[1, 4, 8, 8], f32>
    %result = relax.add %conv2, %conv3
    relax.output %result
  }
  relax.return %result
}
}

// RUN: relax-opt %s -p relax-fuse-ops --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-fuse-ops,relax-fuse-ops --split-input-file | filecheck %s
// RUN: relax-opt %s -p 'relax-fuse-ops{fuse-opt-level=0}' --split-input-file | filecheck %s --check-prefix=OFF
// RUN: relax-opt %s -p 'relax-fuse-ops{max-depth=2}' --split-input-file | filecheck %s --check-prefix=DEPTH

// fuse-opt-level=0 fuses nothing (as in TVM); max-depth bounds the bindings
// of a function.
// OFF-NOT: @fused
// OFF: @done

// An element-wise chain becomes one function; the constant is passed to it
// (TVM's test_fuse_simple).

// DEPTH-LABEL: relax.function private @fused_add_exp(
// DEPTH:         %lv0 = relax.add %x, %c
// DEPTH-NEXT:    %lv1_1 = relax.exp %lv0
// DEPTH-NEXT:    relax.output %lv1_1
// DEPTH-LABEL: relax.function @simple(
// DEPTH:         %lv1 = relax.call @fused_add_exp(%x, %c)
// DEPTH-NEXT:    %gv_1 = relax.squeeze %lv1

// CHECK-LABEL: relax.function private @fused_add_exp_squeeze(%x: !relax.tensor<[10, 20], f32>, %c: !relax.tensor<[], f32>) -> !relax.tensor<[10, 20], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.add %x, %c : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     %lv1 = relax.exp %lv0 : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     %gv_1 = relax.squeeze %lv1 : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @simple(%x: !relax.tensor<[10, 20], f32>) -> !relax.tensor<[10, 20], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %c = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %gv_1 = relax.call @fused_add_exp_squeeze(%x, %c) : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @simple(%x: !relax.tensor<[10, 20], f32>) -> !relax.tensor<[10, 20], f32> {
  %gv = relax.dataflow {
    %c = relax.constant dense<[], f32, 1.0>
    %lv0 = relax.add %x, %c
    %lv1 = relax.exp %lv0
    %gv = relax.squeeze %lv1
    relax.output %gv
  }
  relax.return %gv
}

// -----

// A convolution takes its element-wise epilogue up to the next post-dominator;
// the second convolution stays alone as its path to the sink is not
// element-wise (TVM's test_conv2d_fuse).

// CHECK-LABEL: relax.function private @fused_conv2d_add_add(%lv0: !relax.tensor<[1, 16, 64, 64], f32>, %w1: !relax.tensor<[16, 16, 3, 3], f32>, %c2: !relax.tensor<[], f32>) -> !relax.tensor<[1, 16, 64, 64], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %lv3 = relax.dataflow {
// CHECK-NEXT:     %lv1 = relax.nn.conv2d %lv0, %w1 {padding = [1, 1, 1, 1]} : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %lv2 = relax.add %c2, %lv1 : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %lv3_1 = relax.add %lv1, %lv2 : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     relax.output %lv3_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %lv3
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @fused_conv2d_add(%lv3: !relax.tensor<[1, 16, 64, 64], f32>, %w2: !relax.tensor<[16, 16, 1, 1], f32>, %lv5: !relax.tensor<[1, 16, 64, 64], f32>) -> !relax.tensor<[1, 16, 64, 64], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv4 = relax.nn.conv2d %lv3, %w2 : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %gv_1 = relax.add %lv4, %lv5 : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @conv(%x: !relax.tensor<[1, 16, 64, 64], f32>, %w1: !relax.tensor<[16, 16, 3, 3], f32>, %w2: !relax.tensor<[16, 16, 1, 1], f32>, %w3: !relax.tensor<[16, 16, 3, 3], f32>) -> !relax.tensor<[1, 16, 64, 64], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %c = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %lv0 = relax.add %x, %c : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %c2 = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %lv3 = relax.call @fused_conv2d_add_add(%lv0, %w1, %c2) : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %lv5 = relax.nn.conv2d %lv3, %w3 {padding = [1, 1, 1, 1]} : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %gv_1 = relax.call @fused_conv2d_add(%lv3, %w2, %lv5) : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @conv(%x: !relax.tensor<[1, 16, 64, 64], f32>, %w1: !relax.tensor<[16, 16, 3, 3], f32>, %w2: !relax.tensor<[16, 16, 1, 1], f32>, %w3: !relax.tensor<[16, 16, 3, 3], f32>) -> !relax.tensor<[1, 16, 64, 64], f32> {
  %gv = relax.dataflow {
    %c = relax.constant dense<[], f32, 1.0>
    %lv0 = relax.add %x, %c
    %lv1 = relax.nn.conv2d %lv0, %w1 {padding = [1, 1, 1, 1]}
    %c2 = relax.constant dense<[], f32, 1.0>
    %lv2 = relax.add %c2, %lv1
    %lv3 = relax.add %lv1, %lv2
    %lv4 = relax.nn.conv2d %lv3, %w2
    %lv5 = relax.nn.conv2d %lv3, %w3 {padding = [1, 1, 1, 1]}
    %gv = relax.add %lv4, %lv5
    relax.output %gv
  }
  relax.return %gv
}

// -----

// Injective operators fuse through the tuple of a concat; the pooling is not
// fused (TVM's test_concatenate).

// CHECK-LABEL: relax.function private @fused_resize2d_concat_add(%lv0: !relax.tensor<[1, 16, 32, 32], f32>, %x: !relax.tensor<[1, 16, 64, 64], f32>, %c: !relax.tensor<[], f32>) -> !relax.tensor<[1, 32, 64, 64], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %s = relax.shape [64, 64] : !relax.shape<[64, 64]>
// CHECK-NEXT:     %lv1 = relax.image.resize2d %lv0, %s : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %t = relax.tuple(%lv1, %x) : !relax.tuple<tensor<[1, 16, 64, 64], f32>, tensor<[1, 16, 64, 64], f32>>
// CHECK-NEXT:     %lv2 = relax.concat %t {axis = 1} : !relax.tensor<[1, 32, 64, 64], f32>
// CHECK-NEXT:     %gv_1 = relax.add %lv2, %c : !relax.tensor<[1, 32, 64, 64], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @concatenate(%x: !relax.tensor<[1, 16, 64, 64], f32>) -> !relax.tensor<[1, 32, 64, 64], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 2]} : !relax.tensor<[1, 16, 32, 32], f32>
// CHECK-NEXT:     %c = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %gv_1 = relax.call @fused_resize2d_concat_add(%lv0, %x, %c) : !relax.tensor<[1, 32, 64, 64], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @concatenate(%x: !relax.tensor<[1, 16, 64, 64], f32>) -> !relax.tensor<[1, 32, 64, 64], f32> {
  %gv = relax.dataflow {
    %lv0 = relax.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 2]}
    %s = relax.shape [64, 64]
    %lv1 = relax.image.resize2d %lv0, %s
    %t = relax.tuple(%lv1, %x)
    %lv2 = relax.concat %t {axis = 1}
    %c = relax.constant dense<[], f32, 1.0>
    %gv = relax.add %lv2, %c
    relax.output %gv
  }
  relax.return %gv
}

// -----

// A tuple returned from the block is not fused (TVM's test_tuple_root).

// CHECK-LABEL: relax.function @tuple_root(%x: !relax.tensor<[1, 16, 64, 64], f32>) -> !relax.tuple<tensor<[1, 16, 64, 64], f32>, tensor<[1, 16, 64, 64], f32>> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 2]} : !relax.tensor<[1, 16, 32, 32], f32>
// CHECK-NEXT:     %s = relax.shape [64, 64] : !relax.shape<[64, 64]>
// CHECK-NEXT:     %lv1 = relax.image.resize2d %lv0, %s : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %gv_1 = relax.tuple(%lv1, %x) : !relax.tuple<tensor<[1, 16, 64, 64], f32>, tensor<[1, 16, 64, 64], f32>>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @tuple_root(%x: !relax.tensor<[1, 16, 64, 64], f32>) -> !relax.tuple<tensor<[1, 16, 64, 64], f32>, tensor<[1, 16, 64, 64], f32>> {
  %gv = relax.dataflow {
    %lv0 = relax.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 2]}
    %s = relax.shape [64, 64]
    %lv1 = relax.image.resize2d %lv0, %s
    %gv = relax.tuple(%lv1, %x)
    relax.output %gv
  }
  relax.return %gv
}

// -----

// A split, the fields read from it and their element-wise consumers
// (TVM's test_fuse_tuple_get_elemwise).

// CHECK-LABEL: relax.function private @fused_split_sigmoid_tanh_exp_multiply_add(%lv0: !relax.tensor<[1, 30], f32>) -> !relax.tensor<[1, 10], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv1 = relax.split %lv0 {indices_or_sections = 3, axis = 1} : !relax.tuple<tensor<[1, 10], f32>, tensor<[1, 10], f32>, tensor<[1, 10], f32>>
// CHECK-NEXT:     %lv2 = relax.tuple_get_item %lv1[0] : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     %lv3 = relax.sigmoid %lv2 : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     %lv4 = relax.tuple_get_item %lv1[1] : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     %lv5 = relax.tanh %lv4 : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     %lv6 = relax.tuple_get_item %lv1[2] : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     %lv7 = relax.exp %lv6 : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     %lv8 = relax.multiply %lv5, %lv7 : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     %gv_1 = relax.add %lv3, %lv8 : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @tuple_get_elemwise(%x: !relax.tensor<[1, 10], f32>, %w: !relax.tensor<[30, 10], f32>) -> !relax.tensor<[1, 10], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %wt = relax.permute_dims %w : !relax.tensor<[10, 30], f32>
// CHECK-NEXT:     %lv0 = relax.matmul %x, %wt : !relax.tensor<[1, 30], f32>
// CHECK-NEXT:     %gv_1 = relax.call @fused_split_sigmoid_tanh_exp_multiply_add(%lv0) : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @tuple_get_elemwise(%x: !relax.tensor<[1, 10], f32>, %w: !relax.tensor<[30, 10], f32>) -> !relax.tensor<[1, 10], f32> {
  %gv = relax.dataflow {
    %wt = relax.permute_dims %w
    %lv0 = relax.matmul %x, %wt
    %lv1 = relax.split %lv0 {indices_or_sections = 3, axis = 1}
    %lv2 = relax.tuple_get_item %lv1[0]
    %lv3 = relax.sigmoid %lv2
    %lv4 = relax.tuple_get_item %lv1[1]
    %lv5 = relax.tanh %lv4
    %lv6 = relax.tuple_get_item %lv1[2]
    %lv7 = relax.exp %lv6
    %lv8 = relax.multiply %lv5, %lv7
    %gv = relax.add %lv3, %lv8
    relax.output %gv
  }
  relax.return %gv
}

// -----

// A group ending in a tuple_get_item (TVM's test_tuple_get_root).

// CHECK-LABEL: relax.function private @fused_split(%x: !relax.tensor<[1, 30], f32>) -> !relax.tensor<[1, 10], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %lv1 = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.split %x {indices_or_sections = 3, axis = 1} : !relax.tuple<tensor<[1, 10], f32>, tensor<[1, 10], f32>, tensor<[1, 10], f32>>
// CHECK-NEXT:     %lv1_1 = relax.tuple_get_item %lv0[0] : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     relax.output %lv1_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %lv1
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @tuple_get_root(%x: !relax.tensor<[1, 30], f32>, %w: !relax.tensor<[10, 10], f32>) -> !relax.tensor<[1, 10], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv1 = relax.call @fused_split(%x) : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     %gv_1 = relax.matmul %lv1, %w : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @tuple_get_root(%x: !relax.tensor<[1, 30], f32>, %w: !relax.tensor<[10, 10], f32>) -> !relax.tensor<[1, 10], f32> {
  %gv = relax.dataflow {
    %lv0 = relax.split %x {indices_or_sections = 3, axis = 1}
    %lv1 = relax.tuple_get_item %lv0[0]
    %gv = relax.matmul %lv1, %w
    relax.output %gv
  }
  relax.return %gv
}

// -----

// Parallel injective branches meet in a concat (TVM's test_tuple_intermediate).

// CHECK-LABEL: relax.function private @fused_squeeze_add_squeeze_add_add_add_concat_squeeze_add(%x: !relax.tensor<[1, 16, 64, 64], f32>, %c: !relax.tensor<[], f32>) -> !relax.tensor<[16, 192, 64], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.squeeze %x {axis = [0]} : !relax.tensor<[16, 64, 64], f32>
// CHECK-NEXT:     %lv1 = relax.add %lv0, %c : !relax.tensor<[16, 64, 64], f32>
// CHECK-NEXT:     %lv2 = relax.squeeze %lv0 : !relax.tensor<[16, 64, 64], f32>
// CHECK-NEXT:     %lv3 = relax.add %lv2, %c : !relax.tensor<[16, 64, 64], f32>
// CHECK-NEXT:     %lv4 = relax.add %lv3, %c : !relax.tensor<[16, 64, 64], f32>
// CHECK-NEXT:     %lv5 = relax.add %lv0, %c : !relax.tensor<[16, 64, 64], f32>
// CHECK-NEXT:     %t = relax.tuple(%lv1, %lv4, %lv5) : !relax.tuple<tensor<[16, 64, 64], f32>, tensor<[16, 64, 64], f32>, tensor<[16, 64, 64], f32>>
// CHECK-NEXT:     %lv6 = relax.concat %t {axis = 1} : !relax.tensor<[16, 192, 64], f32>
// CHECK-NEXT:     %lv7 = relax.squeeze %lv6 : !relax.tensor<[16, 192, 64], f32>
// CHECK-NEXT:     %gv_1 = relax.add %lv7, %c : !relax.tensor<[16, 192, 64], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @tuple_intermediate(%x: !relax.tensor<[1, 16, 64, 64], f32>) -> !relax.tensor<[16, 192, 64], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %c = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %gv_1 = relax.call @fused_squeeze_add_squeeze_add_add_add_concat_squeeze_add(%x, %c) : !relax.tensor<[16, 192, 64], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @tuple_intermediate(%x: !relax.tensor<[1, 16, 64, 64], f32>) -> !relax.tensor<[16, 192, 64], f32> {
  %gv = relax.dataflow {
    %c = relax.constant dense<[], f32, 1.0>
    %lv0 = relax.squeeze %x {axis = [0]}
    %lv1 = relax.add %lv0, %c
    %lv2 = relax.squeeze %lv0
    %lv3 = relax.add %lv2, %c
    %lv4 = relax.add %lv3, %c
    %lv5 = relax.add %lv0, %c
    %t = relax.tuple(%lv1, %lv4, %lv5)
    %lv6 = relax.concat %t {axis = 1}
    %lv7 = relax.squeeze %lv6
    %gv = relax.add %lv7, %c
    relax.output %gv
  }
  relax.return %gv
}

// -----

// Equal groups share one function; a concat of two groups' results stays
// (TVM's test_inception_like).

// CHECK-LABEL: relax.function private @fused_conv2d_relu(%x: !relax.tensor<[1, 16, 64, 64], f32>, %w0: !relax.tensor<[16, 16, 3, 3], f32>) -> !relax.tensor<[1, 16, 64, 64], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %lv1 = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.nn.conv2d %x, %w0 {padding = [1, 1, 1, 1]} : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %lv1_1 = relax.nn.relu %lv0 : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     relax.output %lv1_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %lv1
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @fused_conv2d_relu1(%lv4: !relax.tensor<[1, 32, 64, 64], f32>, %w2: !relax.tensor<[16, 32, 3, 3], f32>) -> !relax.tensor<[1, 16, 64, 64], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %lv6 = relax.dataflow {
// CHECK-NEXT:     %lv5 = relax.nn.conv2d %lv4, %w2 {padding = [1, 1, 1, 1]} : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %lv6_1 = relax.nn.relu %lv5 : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     relax.output %lv6_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %lv6
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @inception(%x: !relax.tensor<[1, 16, 64, 64], f32>, %w0: !relax.tensor<[16, 16, 3, 3], f32>, %w1: !relax.tensor<[16, 16, 3, 3], f32>, %w2: !relax.tensor<[16, 32, 3, 3], f32>, %w3: !relax.tensor<[16, 32, 3, 3], f32>) -> !relax.tensor<[1, 32, 64, 64], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv1 = relax.call @fused_conv2d_relu(%x, %w0) : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %lv3 = relax.call @fused_conv2d_relu(%x, %w1) : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %t = relax.tuple(%lv1, %lv3) : !relax.tuple<tensor<[1, 16, 64, 64], f32>, tensor<[1, 16, 64, 64], f32>>
// CHECK-NEXT:     %lv4 = relax.concat %t {axis = 1} : !relax.tensor<[1, 32, 64, 64], f32>
// CHECK-NEXT:     %lv6 = relax.call @fused_conv2d_relu1(%lv4, %w2) : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %lv8 = relax.call @fused_conv2d_relu1(%lv4, %w3) : !relax.tensor<[1, 16, 64, 64], f32>
// CHECK-NEXT:     %t2 = relax.tuple(%lv6, %lv8) : !relax.tuple<tensor<[1, 16, 64, 64], f32>, tensor<[1, 16, 64, 64], f32>>
// CHECK-NEXT:     %gv_1 = relax.concat %t2 {axis = 1} : !relax.tensor<[1, 32, 64, 64], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @inception(%x: !relax.tensor<[1, 16, 64, 64], f32>, %w0: !relax.tensor<[16, 16, 3, 3], f32>, %w1: !relax.tensor<[16, 16, 3, 3], f32>, %w2: !relax.tensor<[16, 32, 3, 3], f32>, %w3: !relax.tensor<[16, 32, 3, 3], f32>) -> !relax.tensor<[1, 32, 64, 64], f32> {
  %gv = relax.dataflow {
    %lv0 = relax.nn.conv2d %x, %w0 {padding = [1, 1, 1, 1]}
    %lv1 = relax.nn.relu %lv0
    %lv2 = relax.nn.conv2d %x, %w1 {padding = [1, 1, 1, 1]}
    %lv3 = relax.nn.relu %lv2
    %t = relax.tuple(%lv1, %lv3)
    %lv4 = relax.concat %t {axis = 1}
    %lv5 = relax.nn.conv2d %lv4, %w2 {padding = [1, 1, 1, 1]}
    %lv6 = relax.nn.relu %lv5
    %lv7 = relax.nn.conv2d %lv4, %w3 {padding = [1, 1, 1, 1]}
    %lv8 = relax.nn.relu %lv7
    %t2 = relax.tuple(%lv6, %lv8)
    %gv = relax.concat %t2 {axis = 1}
    relax.output %gv
  }
  relax.return %gv
}

// -----

// Parallel injective branches (TVM's test_fuse_parallel_injective).

// CHECK-LABEL: relax.function private @fused_add_squeeze_permute_dims_permute_dims_left_shift(%x: !relax.tensor<[10, 20], i32>, %c: !relax.tensor<[], i32>) -> !relax.tensor<[10, 20], i32> attributes {Primitive = true} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.add %x, %c : !relax.tensor<[10, 20], i32>
// CHECK-NEXT:     %lv1 = relax.squeeze %lv0 : !relax.tensor<[10, 20], i32>
// CHECK-NEXT:     %lv2 = relax.permute_dims %lv0 {axes = [1, 0]} : !relax.tensor<[20, 10], i32>
// CHECK-NEXT:     %lv3 = relax.permute_dims %lv2 {axes = [1, 0]} : !relax.tensor<[10, 20], i32>
// CHECK-NEXT:     %gv_1 = relax.left_shift %lv1, %lv3 : !relax.tensor<[10, 20], i32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @parallel_injective(%x: !relax.tensor<[10, 20], i32>) -> !relax.tensor<[10, 20], i32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %c = relax.constant dense<[], i32, 1> : !relax.tensor<[], i32>
// CHECK-NEXT:     %gv_1 = relax.call @fused_add_squeeze_permute_dims_permute_dims_left_shift(%x, %c) : !relax.tensor<[10, 20], i32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @parallel_injective(%x: !relax.tensor<[10, 20], i32>) -> !relax.tensor<[10, 20], i32> {
  %gv = relax.dataflow {
    %c = relax.constant dense<[], i32, 1>
    %lv0 = relax.add %x, %c
    %lv1 = relax.squeeze %lv0
    %lv2 = relax.permute_dims %lv0 {axes = [1, 0]}
    %lv3 = relax.permute_dims %lv2 {axes = [1, 0]}
    %gv = relax.left_shift %lv1, %lv3
    relax.output %gv
  }
  relax.return %gv
}

// -----

// Softmax takes its element-wise epilogue (TVM's test_softmax).

// CHECK-LABEL: relax.function private @fused_softmax_astype(%x: !relax.tensor<[16, 16], f32>) -> !relax.tensor<[16, 16], f16> attributes {Primitive = true} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.nn.softmax %x : !relax.tensor<[16, 16], f32>
// CHECK-NEXT:     %gv_1 = relax.astype %lv0 {dtype = f16} : !relax.tensor<[16, 16], f16>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @softmax(%x: !relax.tensor<[16, 16], f32>) -> !relax.tensor<[16, 16], f16> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %gv_1 = relax.call @fused_softmax_astype(%x) : !relax.tensor<[16, 16], f16>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @softmax(%x: !relax.tensor<[16, 16], f32>) -> !relax.tensor<[16, 16], f16> {
  %gv = relax.dataflow {
    %lv0 = relax.nn.softmax %x
    %gv = relax.astype %lv0 {dtype = f16}
    relax.output %gv
  }
  relax.return %gv
}

// -----

// Every function is fused; a structurally equal group reuses the function
// (TVM's test_multiple_relax_functions).

// CHECK-LABEL: relax.function private @fused_add_exp_squeeze(%x: !relax.tensor<[10, 20], f32>, %c: !relax.tensor<[], f32>) -> !relax.tensor<[10, 20], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.add %x, %c : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     %lv1 = relax.exp %lv0 : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     %gv_1 = relax.squeeze %lv1 : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @func1(%x: !relax.tensor<[10, 20], f32>) -> !relax.tensor<[10, 20], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %c = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %gv_1 = relax.call @fused_add_exp_squeeze(%x, %c) : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @fused_add_exp_squeeze1(%x: !relax.tensor<[20, 10], f32>, %c: !relax.tensor<[], f32>) -> !relax.tensor<[20, 10], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.add %x, %c : !relax.tensor<[20, 10], f32>
// CHECK-NEXT:     %lv1 = relax.exp %lv0 : !relax.tensor<[20, 10], f32>
// CHECK-NEXT:     %gv_1 = relax.squeeze %lv1 : !relax.tensor<[20, 10], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @func2(%x: !relax.tensor<[20, 10], f32>) -> !relax.tensor<[20, 10], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %c = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %gv_1 = relax.call @fused_add_exp_squeeze1(%x, %c) : !relax.tensor<[20, 10], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @func3(%y: !relax.tensor<[10, 20], f32>) -> !relax.tensor<[10, 20], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %c = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %gv_1 = relax.call @fused_add_exp_squeeze(%y, %c) : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @func1(%x: !relax.tensor<[10, 20], f32>) -> !relax.tensor<[10, 20], f32> {
  %gv = relax.dataflow {
    %c = relax.constant dense<[], f32, 1.0>
    %lv0 = relax.add %x, %c
    %lv1 = relax.exp %lv0
    %gv = relax.squeeze %lv1
    relax.output %gv
  }
  relax.return %gv
}
relax.function @func2(%x: !relax.tensor<[20, 10], f32>) -> !relax.tensor<[20, 10], f32> {
  %gv = relax.dataflow {
    %c = relax.constant dense<[], f32, 1.0>
    %lv0 = relax.add %x, %c
    %lv1 = relax.exp %lv0
    %gv = relax.squeeze %lv1
    relax.output %gv
  }
  relax.return %gv
}
relax.function @func3(%y: !relax.tensor<[10, 20], f32>) -> !relax.tensor<[10, 20], f32> {
  %gv = relax.dataflow {
    %c = relax.constant dense<[], f32, 1.0>
    %lv0 = relax.add %y, %c
    %lv1 = relax.exp %lv0
    %gv = relax.squeeze %lv1
    relax.output %gv
  }
  relax.return %gv
}

// -----

// call_tir takes its kind from the callee's op_pattern; a value with two
// exported users has no post-dominator, call_dps_packed is opaque
// (TVM's test_skip_call_dps_packed, test_edge_with_call_dps_packed).

// CHECK-LABEL: func.func @exp(%a: tensor<2x3xf32>, %out: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {op_pattern = 0 : i64} {
// CHECK-NEXT:   func.return %a : tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @dps(%x: !relax.tensor<[2, 3], f32>) -> !relax.tuple<tensor<[2, 3], f32>, tensor<[2, 3], f32>> {
// CHECK-NEXT:   %b, %c = relax.dataflow {
// CHECK-NEXT:     %a = relax.call_tir @exp(%x) : !relax.tensor<[2, 3], f32>
// CHECK-NEXT:     %b_1 = relax.call_tir @exp(%a) : !relax.tensor<[2, 3], f32>
// CHECK-NEXT:     %c_1 = relax.call_dps_packed "packed_dps"(%a) : !relax.tensor<[2, 3], f32>
// CHECK-NEXT:     relax.output %b_1, %c_1
// CHECK-NEXT:   }
// CHECK-NEXT:   %r = relax.tuple(%b, %c) : !relax.tuple<tensor<[2, 3], f32>, tensor<[2, 3], f32>>
// CHECK-NEXT:   relax.return %r
// CHECK-NEXT: }
func.func @exp(%a: tensor<2x3xf32>, %out: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {op_pattern = 0 : i64} {
  func.return %a : tensor<2x3xf32>
}
relax.function @dps(%x: !relax.tensor<[2, 3], f32>) -> !relax.tuple<tensor<[2, 3], f32>, tensor<[2, 3], f32>> {
  %b, %c = relax.dataflow {
    %a = relax.call_tir @exp(%x) : !relax.tensor<[2, 3], f32>
    %b = relax.call_tir @exp(%a) : !relax.tensor<[2, 3], f32>
    %c = relax.call_dps_packed "packed_dps"(%a) : !relax.tensor<[2, 3], f32>
    relax.output %b, %c
  }
  %r = relax.tuple(%b, %c)
  relax.return %r
}

// -----

// Symbolic shapes (TVM's test_symbolic_shape_aware_fuse).

// CHECK-LABEL: relax.function private @fused_add_exp_squeeze(%x: !relax.tensor<[n, m], f32>, %c: !relax.tensor<[], f32>) -> !relax.tensor<[n, m], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.add %x, %c : !relax.tensor<[n, m], f32>
// CHECK-NEXT:     %lv1 = relax.exp %lv0 : !relax.tensor<[n, m], f32>
// CHECK-NEXT:     %gv_1 = relax.squeeze %lv1 {axis = []} : !relax.tensor<[n, m], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @symbolic(%x: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %c = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %gv_1 = relax.call @fused_add_exp_squeeze(%x, %c) : !relax.tensor<[n, m], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @symbolic(%x: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
  %gv = relax.dataflow {
    %c = relax.constant dense<[], f32, 1.0>
    %lv0 = relax.add %x, %c
    %lv1 = relax.exp %lv0
    %gv = relax.squeeze %lv1 {axis = []}
    relax.output %gv
  }
  relax.return %gv
}

// -----

// Shapes are copied into the function; the symbolic variables it needs are
// passed as tir_vars (TVM's test_symbolic_shape_aware_fuse_2, test_shape_expr_arg).

// CHECK-LABEL: relax.function private @fused_full_triu_broadcast_to(%zero: !relax.tensor<[], f32>, %tir_vars: !relax.shape<[n]>) -> !relax.tensor<[1, 1, n, n], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %lv2 = relax.dataflow {
// CHECK-NEXT:     %sh = relax.shape [n, n] : !relax.shape<[n, n]>
// CHECK-NEXT:     %k = relax.prim_value 1 : !relax.prim<i64, 1>
// CHECK-NEXT:     %sh2 = relax.shape [1, 1, n, n] : !relax.shape<[1, 1, n, n]>
// CHECK-NEXT:     %lv0 = relax.full %sh, %zero : !relax.tensor<[n, n], f32>
// CHECK-NEXT:     %lv1 = relax.triu %lv0, %k : !relax.tensor<[n, n], f32>
// CHECK-NEXT:     %lv2_1 = relax.broadcast_to %lv1, %sh2 : !relax.tensor<[1, 1, n, n], f32>
// CHECK-NEXT:     relax.output %lv2_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %lv2
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @shape_arg(%s: !relax.shape<[n]>, %kv: !relax.object) -> !relax.tuple<tensor<[n + 1, 32, 128], f32>, tensor<[1, 1, n, n], f32>> {
// CHECK-NEXT:   %gv, %lv2 = relax.dataflow {
// CHECK-NEXT:     %zero = relax.constant dense<[], f32, 0.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %tir_vars = relax.shape [n] : !relax.shape<[n]>
// CHECK-NEXT:     %lv2_1 = relax.call @fused_full_triu_broadcast_to(%zero, %tir_vars) : !relax.tensor<[1, 1, n, n], f32>
// CHECK-NEXT:     %sh3 = relax.shape [n + 1, 32, 128] : !relax.shape<[n + 1, 32, 128]>
// CHECK-NEXT:     %gv_1 = relax.call_pure_packed "vm.builtin.attention_kv_cache_view"(%kv, %sh3) : !relax.tensor<[n + 1, 32, 128], f32>
// CHECK-NEXT:     relax.output %gv_1, %lv2_1
// CHECK-NEXT:   }
// CHECK-NEXT:   %r = relax.tuple(%gv, %lv2) : !relax.tuple<tensor<[n + 1, 32, 128], f32>, tensor<[1, 1, n, n], f32>>
// CHECK-NEXT:   relax.return %r
// CHECK-NEXT: }
relax.function @shape_arg(%s: !relax.shape<[n]>, %kv: !relax.object) -> !relax.tuple<tensor<[n + 1, 32, 128], f32>, tensor<[1, 1, n, n], f32>> {
  %gv, %lv2 = relax.dataflow {
    %sh = relax.shape [n, n]
    %zero = relax.constant dense<[], f32, 0.0>
    %lv0 = relax.full %sh, %zero
    %k = relax.prim_value 1
    %lv1 = relax.triu %lv0, %k
    %sh2 = relax.shape [1, 1, n, n]
    %lv2 = relax.broadcast_to %lv1, %sh2
    %sh3 = relax.shape [n + 1, 32, 128]
    %gv = relax.call_pure_packed "vm.builtin.attention_kv_cache_view"(%kv, %sh3) : !relax.tensor<[n + 1, 32, 128], f32>
    relax.output %gv, %lv2
  }
  %r = relax.tuple(%gv, %lv2)
  relax.return %r
}

// -----

// match_cast is opaque (TVM's test_skipping_match_cast).

// CHECK-LABEL: relax.function @match_cast(%a: !relax.tensor<[10, 20], f32>) -> !relax.tensor<ndim = 2, f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv = relax.match_cast %a : !relax.tensor<[m, n], f32>
// CHECK-NEXT:     %gv_1 = relax.exp %lv : !relax.tensor<[m, n], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @match_cast(%a: !relax.tensor<[10, 20], f32>) -> !relax.tensor<ndim = 2, f32> {
  %gv = relax.dataflow {
    %lv = relax.match_cast %a : !relax.tensor<[m, n], f32>
    %gv = relax.exp %lv
    relax.output %gv
  }
  relax.return %gv
}

// -----

// A tuple the group only indexes is passed as the fields it reads
// (TVM's test_partially_used_tuple_param).

// CHECK-LABEL: relax.function private @fused_add_divide(%x_0: !relax.tensor<[2], f32>, %c: !relax.tensor<[], f32>) -> !relax.tensor<[2], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %y1 = relax.dataflow {
// CHECK-NEXT:     %y0 = relax.add %x_0, %c : !relax.tensor<[2], f32>
// CHECK-NEXT:     %y1_1 = relax.divide %y0, %c : !relax.tensor<[2], f32>
// CHECK-NEXT:     relax.output %y1_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %y1
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @partial_tuple(%x: !relax.tuple<tensor<[2], f32>, tensor<[2], f32>, tensor<[2], f32>>) -> !relax.tensor<[2], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %c = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %x_0 = relax.tuple_get_item %x[0] : !relax.tensor<[2], f32>
// CHECK-NEXT:     %y1 = relax.call @fused_add_divide(%x_0, %c) : !relax.tensor<[2], f32>
// CHECK-NEXT:     relax.output %y1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @partial_tuple(%x: !relax.tuple<tensor<[2], f32>, tensor<[2], f32>, tensor<[2], f32>>) -> !relax.tensor<[2], f32> {
  %gv = relax.dataflow {
    %x0 = relax.tuple_get_item %x[0]
    %c = relax.constant dense<[], f32, 1.0>
    %y0 = relax.add %x0, %c
    %y1 = relax.divide %y0, %c
    relax.output %y1
  }
  relax.return %gv
}

// -----

// Reading a field of a weight tuple (past num_input) is opaque; a cast into
// a matmul does not fuse (TVM's test_packed_params).

// CHECK-LABEL: relax.function @packed_params(%x: !relax.tensor<[16, 16], f32>, %p: !relax.tuple<tensor<[16, 16], f16>, tensor<[16, 16], f16>>) -> !relax.tensor<[16, 16], f32> attributes {num_input = 1 : i64} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv = relax.tuple_get_item %p[0] : !relax.tensor<[16, 16], f16>
// CHECK-NEXT:     %lv1 = relax.tuple_get_item %p[1] : !relax.tensor<[16, 16], f16>
// CHECK-NEXT:     %lv2 = relax.astype %lv {dtype = f32} : !relax.tensor<[16, 16], f32>
// CHECK-NEXT:     %lv3 = relax.matmul %x, %lv2 : !relax.tensor<[16, 16], f32>
// CHECK-NEXT:     %lv4 = relax.astype %lv1 {dtype = f32} : !relax.tensor<[16, 16], f32>
// CHECK-NEXT:     %lv5 = relax.matmul %lv3, %lv4 : !relax.tensor<[16, 16], f32>
// CHECK-NEXT:     relax.output %lv5
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @packed_params(%x: !relax.tensor<[16, 16], f32>, %p: !relax.tuple<tensor<[16, 16], f16>, tensor<[16, 16], f16>>) -> !relax.tensor<[16, 16], f32> attributes {num_input = 1 : i64} {
  %gv = relax.dataflow {
    %lv = relax.tuple_get_item %p[0]
    %lv1 = relax.tuple_get_item %p[1]
    %lv2 = relax.astype %lv {dtype = f32}
    %lv3 = relax.matmul %x, %lv2
    %lv4 = relax.astype %lv1 {dtype = f32}
    %lv5 = relax.matmul %lv3, %lv4
    relax.output %lv5
  }
  relax.return %gv
}

// -----

// call_tir_inplace fuses like call_tir (TVM's test_call_tir_inplace).

// CHECK-LABEL: func.func @addk(%a: tensor<10x20xf32>, %b: tensor<f32>, %out: tensor<10x20xf32>) -> tensor<10x20xf32> attributes {op_pattern = 0 : i64} {
// CHECK-NEXT:   func.return %a : tensor<10x20xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @exp_inplace(%a: tensor<10x20xf32>, %o: tensor<10x20xf32>) -> tensor<10x20xf32> attributes {op_pattern = 0 : i64} {
// CHECK-NEXT:   func.return %a : tensor<10x20xf32>
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @fused_addk_exp_inplace_exp_inplace(%x: !relax.tensor<[10, 20], f32>, %p0: !relax.tensor<[], f32>) -> !relax.tensor<[10, 20], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv = relax.call_tir @addk(%x, %p0) : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     %lv1 = relax.call_tir_inplace @exp_inplace(%lv) {inplace_indices = [0]} : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     %gv_1 = relax.call_tir_inplace @exp_inplace(%lv1) {inplace_indices = [0]} : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @inplace(%x: !relax.tensor<[10, 20], f32>, %p0: !relax.tensor<[], f32>) -> !relax.tensor<[10, 20], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %gv_1 = relax.call @fused_addk_exp_inplace_exp_inplace(%x, %p0) : !relax.tensor<[10, 20], f32>
// CHECK-NEXT:     relax.output %gv_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
func.func @addk(%a: tensor<10x20xf32>, %b: tensor<f32>, %out: tensor<10x20xf32>) -> tensor<10x20xf32> attributes {op_pattern = 0 : i64} {
  func.return %a : tensor<10x20xf32>
}
func.func @exp_inplace(%a: tensor<10x20xf32>, %o: tensor<10x20xf32>) -> tensor<10x20xf32> attributes {op_pattern = 0 : i64} {
  func.return %a : tensor<10x20xf32>
}
relax.function @inplace(%x: !relax.tensor<[10, 20], f32>, %p0: !relax.tensor<[], f32>) -> !relax.tensor<[10, 20], f32> {
  %gv = relax.dataflow {
    %lv = relax.call_tir @addk(%x, %p0) : !relax.tensor<[10, 20], f32>
    %lv1 = relax.call_tir_inplace @exp_inplace(%lv) {inplace_indices = [0]} : !relax.tensor<[10, 20], f32>
    %gv = relax.call_tir_inplace @exp_inplace(%lv1) {inplace_indices = [0]} : !relax.tensor<[10, 20], f32>
    relax.output %gv
  }
  relax.return %gv
}

// -----

// Two groups where one's result feeds the other through a reshape
// (TVM's test_multiple_paths).

// CHECK-LABEL: relax.function private @fused_matmul_add(%inp_1: !relax.tensor<[2, 1280], f32>, %lv31: !relax.tensor<[1280, 320], f32>, %b2: !relax.tensor<[320], f32>) -> !relax.tensor<[2, 320], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %lv33 = relax.dataflow {
// CHECK-NEXT:     %lv32 = relax.matmul %inp_1, %lv31 : !relax.tensor<[2, 320], f32>
// CHECK-NEXT:     %lv33_1 = relax.add %lv32, %b2 : !relax.tensor<[2, 320], f32>
// CHECK-NEXT:     relax.output %lv33_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %lv33
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @fused_conv2d_add_add(%inp_0: !relax.tensor<[2, 320, 8, 8], f32>, %w1: !relax.tensor<[320, 320, 3, 3], f32>, %lv28: !relax.tensor<[1, 320, 1, 1], f32>, %lv35: !relax.tensor<[2, 320, 1, 1], f32>) -> !relax.tensor<[2, 320, 8, 8], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %lv36 = relax.dataflow {
// CHECK-NEXT:     %lv27 = relax.nn.conv2d %inp_0, %w1 {padding = [1, 1, 1, 1]} : !relax.tensor<[2, 320, 8, 8], f32>
// CHECK-NEXT:     %lv29 = relax.add %lv27, %lv28 : !relax.tensor<[2, 320, 8, 8], f32>
// CHECK-NEXT:     %lv36_1 = relax.add %lv29, %lv35 : !relax.tensor<[2, 320, 8, 8], f32>
// CHECK-NEXT:     relax.output %lv36_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %lv36
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @multiple_paths(%inp_0: !relax.tensor<[2, 320, 8, 8], f32>, %inp_1: !relax.tensor<[2, 1280], f32>, %w1: !relax.tensor<[320, 320, 3, 3], f32>, %b1: !relax.tensor<[320], f32>, %w2: !relax.tensor<[320, 1280], f32>, %b2: !relax.tensor<[320], f32>) -> !relax.tensor<[2, 320, 8, 8], f32> attributes {num_input = 2 : i64} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %s28 = relax.shape [1, 320, 1, 1] : !relax.shape<[1, 320, 1, 1]>
// CHECK-NEXT:     %lv28 = relax.reshape %b1, %s28 : !relax.tensor<[1, 320, 1, 1], f32>
// CHECK-NEXT:     %lv31 = relax.permute_dims %w2 : !relax.tensor<[1280, 320], f32>
// CHECK-NEXT:     %lv33 = relax.call @fused_matmul_add(%inp_1, %lv31, %b2) : !relax.tensor<[2, 320], f32>
// CHECK-NEXT:     %s35 = relax.shape [2, 320, 1, 1] : !relax.shape<[2, 320, 1, 1]>
// CHECK-NEXT:     %lv35 = relax.reshape %lv33, %s35 : !relax.tensor<[2, 320, 1, 1], f32>
// CHECK-NEXT:     %lv36 = relax.call @fused_conv2d_add_add(%inp_0, %w1, %lv28, %lv35) : !relax.tensor<[2, 320, 8, 8], f32>
// CHECK-NEXT:     relax.output %lv36
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @multiple_paths(%inp_0: !relax.tensor<[2, 320, 8, 8], f32>, %inp_1: !relax.tensor<[2, 1280], f32>, %w1: !relax.tensor<[320, 320, 3, 3], f32>, %b1: !relax.tensor<[320], f32>, %w2: !relax.tensor<[320, 1280], f32>, %b2: !relax.tensor<[320], f32>) -> !relax.tensor<[2, 320, 8, 8], f32> attributes {num_input = 2 : i64} {
  %gv = relax.dataflow {
    %lv27 = relax.nn.conv2d %inp_0, %w1 {padding = [1, 1, 1, 1]}
    %s28 = relax.shape [1, 320, 1, 1]
    %lv28 = relax.reshape %b1, %s28
    %lv29 = relax.add %lv27, %lv28
    %lv31 = relax.permute_dims %w2
    %lv32 = relax.matmul %inp_1, %lv31
    %lv33 = relax.add %lv32, %b2
    %s35 = relax.shape [2, 320, 1, 1]
    %lv35 = relax.reshape %lv33, %s35
    %lv36 = relax.add %lv29, %lv35
    relax.output %lv36
  }
  relax.return %gv
}

// -----

// A group whose result is unused is left for relax-dce (TVM drops it)
// (TVM's test_dead_group).

// CHECK-LABEL: relax.function private @fused_matmul_add(%inp_1: !relax.tensor<[1, 128], f32>, %lv4: !relax.tensor<[128, 10], f32>, %b2: !relax.tensor<[10], f32>) -> !relax.tensor<[1, 10], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %lv6 = relax.dataflow {
// CHECK-NEXT:     %lv5 = relax.matmul %inp_1, %lv4 : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     %lv6_1 = relax.add %lv5, %b2 : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     relax.output %lv6_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %lv6
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @dead_group(%inp_0: !relax.tensor<[1, 784], f32>, %inp_1: !relax.tensor<[1, 128], f32>, %b1: !relax.tensor<[128], f32>, %w1: !relax.tensor<[128, 784], f32>, %b2: !relax.tensor<[10], f32>, %w2: !relax.tensor<[10, 128], f32>) -> !relax.tensor<[1, 10], f32> attributes {num_input = 1 : i64} {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %lv = relax.permute_dims %w1 : !relax.tensor<[784, 128], f32>
// CHECK-NEXT:     %lv1 = relax.matmul %inp_0, %lv : !relax.tensor<[1, 128], f32>
// CHECK-NEXT:     %lv2 = relax.add %lv1, %b1 : !relax.tensor<[1, 128], f32>
// CHECK-NEXT:     %lv3 = relax.nn.relu %lv2 : !relax.tensor<[1, 128], f32>
// CHECK-NEXT:     %lv4 = relax.permute_dims %w2 : !relax.tensor<[128, 10], f32>
// CHECK-NEXT:     %lv6 = relax.call @fused_matmul_add(%inp_1, %lv4, %b2) : !relax.tensor<[1, 10], f32>
// CHECK-NEXT:     relax.output %lv6
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @dead_group(%inp_0: !relax.tensor<[1, 784], f32>, %inp_1: !relax.tensor<[1, 128], f32>, %b1: !relax.tensor<[128], f32>, %w1: !relax.tensor<[128, 784], f32>, %b2: !relax.tensor<[10], f32>, %w2: !relax.tensor<[10, 128], f32>) -> !relax.tensor<[1, 10], f32> attributes {num_input = 1 : i64} {
  %gv = relax.dataflow {
    %lv = relax.permute_dims %w1
    %lv1 = relax.matmul %inp_0, %lv
    %lv2 = relax.add %lv1, %b1
    %lv3 = relax.nn.relu %lv2
    %lv4 = relax.permute_dims %w2
    %lv5 = relax.matmul %inp_1, %lv4
    %lv6 = relax.add %lv5, %b2
    relax.output %lv6
  }
  relax.return %gv
}

// -----

// Groups across a tuple of tuples, with two exported results
// (TVM's test_tuple_consecutive).

// CHECK-LABEL: relax.function private @fused_add_add_add_concat_add_add_add_add_concat_add_add_add_add_concat_add_concat(%x: !relax.tensor<[1, 16, 8, 8], f32>, %c: !relax.tensor<[], f32>) -> !relax.tensor<[1, 144, 8, 8], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %lv15 = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.add %x, %c : !relax.tensor<[1, 16, 8, 8], f32>
// CHECK-NEXT:     %lv1 = relax.add %x, %c : !relax.tensor<[1, 16, 8, 8], f32>
// CHECK-NEXT:     %lv2 = relax.add %x, %c : !relax.tensor<[1, 16, 8, 8], f32>
// CHECK-NEXT:     %t0 = relax.tuple(%lv0, %lv1, %lv2) : !relax.tuple<tensor<[1, 16, 8, 8], f32>, tensor<[1, 16, 8, 8], f32>, tensor<[1, 16, 8, 8], f32>>
// CHECK-NEXT:     %lv3 = relax.concat %t0 {axis = 1} : !relax.tensor<[1, 48, 8, 8], f32>
// CHECK-NEXT:     %lv4 = relax.add %lv3, %c : !relax.tensor<[1, 48, 8, 8], f32>
// CHECK-NEXT:     %lv5 = relax.add %x, %c : !relax.tensor<[1, 16, 8, 8], f32>
// CHECK-NEXT:     %lv6 = relax.add %x, %c : !relax.tensor<[1, 16, 8, 8], f32>
// CHECK-NEXT:     %lv7 = relax.add %x, %c : !relax.tensor<[1, 16, 8, 8], f32>
// CHECK-NEXT:     %t1 = relax.tuple(%lv5, %lv6, %lv7) : !relax.tuple<tensor<[1, 16, 8, 8], f32>, tensor<[1, 16, 8, 8], f32>, tensor<[1, 16, 8, 8], f32>>
// CHECK-NEXT:     %lv8 = relax.concat %t1 {axis = 1} : !relax.tensor<[1, 48, 8, 8], f32>
// CHECK-NEXT:     %lv9 = relax.add %lv8, %c : !relax.tensor<[1, 48, 8, 8], f32>
// CHECK-NEXT:     %lv10 = relax.add %x, %c : !relax.tensor<[1, 16, 8, 8], f32>
// CHECK-NEXT:     %lv11 = relax.add %x, %c : !relax.tensor<[1, 16, 8, 8], f32>
// CHECK-NEXT:     %lv12 = relax.add %x, %c : !relax.tensor<[1, 16, 8, 8], f32>
// CHECK-NEXT:     %t2 = relax.tuple(%lv10, %lv11, %lv12) : !relax.tuple<tensor<[1, 16, 8, 8], f32>, tensor<[1, 16, 8, 8], f32>, tensor<[1, 16, 8, 8], f32>>
// CHECK-NEXT:     %lv13 = relax.concat %t2 {axis = 1} : !relax.tensor<[1, 48, 8, 8], f32>
// CHECK-NEXT:     %lv14 = relax.add %lv13, %c : !relax.tensor<[1, 48, 8, 8], f32>
// CHECK-NEXT:     %t3 = relax.tuple(%lv4, %lv9, %lv14) : !relax.tuple<tensor<[1, 48, 8, 8], f32>, tensor<[1, 48, 8, 8], f32>, tensor<[1, 48, 8, 8], f32>>
// CHECK-NEXT:     %lv15_1 = relax.concat %t3 {axis = 1} : !relax.tensor<[1, 144, 8, 8], f32>
// CHECK-NEXT:     relax.output %lv15_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %lv15
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @fused_max_pool2d_add(%lv15: !relax.tensor<[1, 144, 8, 8], f32>, %c: !relax.tensor<[], f32>) -> !relax.tensor<[1, 144, 4, 4], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %lv17 = relax.dataflow {
// CHECK-NEXT:     %lv16 = relax.nn.max_pool2d %lv15 {pool_size = [2, 2], strides = [2, 2]} : !relax.tensor<[1, 144, 4, 4], f32>
// CHECK-NEXT:     %lv17_1 = relax.add %lv16, %c : !relax.tensor<[1, 144, 4, 4], f32>
// CHECK-NEXT:     relax.output %lv17_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %lv17
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @tuple_consecutive(%x: !relax.tensor<[1, 16, 8, 8], f32>) -> !relax.tuple<tensor<[1, 144, 4, 4], f32>, tensor<[1, 144, 4, 4], f32>> {
// CHECK-NEXT:   %a, %b = relax.dataflow {
// CHECK-NEXT:     %c = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %lv15 = relax.call @fused_add_add_add_concat_add_add_add_add_concat_add_add_add_add_concat_add_concat(%x, %c) : !relax.tensor<[1, 144, 8, 8], f32>
// CHECK-NEXT:     %lv17 = relax.call @fused_max_pool2d_add(%lv15, %c) : !relax.tensor<[1, 144, 4, 4], f32>
// CHECK-NEXT:     %lv18 = relax.add %lv17, %c : !relax.tensor<[1, 144, 4, 4], f32>
// CHECK-NEXT:     relax.output %lv17, %lv18
// CHECK-NEXT:   }
// CHECK-NEXT:   %r = relax.tuple(%a, %b) : !relax.tuple<tensor<[1, 144, 4, 4], f32>, tensor<[1, 144, 4, 4], f32>>
// CHECK-NEXT:   relax.return %r
// CHECK-NEXT: }
relax.function @tuple_consecutive(%x: !relax.tensor<[1, 16, 8, 8], f32>) -> !relax.tuple<tensor<[1, 144, 4, 4], f32>, tensor<[1, 144, 4, 4], f32>> {
  %a, %b = relax.dataflow {
    %c = relax.constant dense<[], f32, 1.0>
    %lv0 = relax.add %x, %c
    %lv1 = relax.add %x, %c
    %lv2 = relax.add %x, %c
    %t0 = relax.tuple(%lv0, %lv1, %lv2)
    %lv3 = relax.concat %t0 {axis = 1}
    %lv4 = relax.add %lv3, %c
    %lv5 = relax.add %x, %c
    %lv6 = relax.add %x, %c
    %lv7 = relax.add %x, %c
    %t1 = relax.tuple(%lv5, %lv6, %lv7)
    %lv8 = relax.concat %t1 {axis = 1}
    %lv9 = relax.add %lv8, %c
    %lv10 = relax.add %x, %c
    %lv11 = relax.add %x, %c
    %lv12 = relax.add %x, %c
    %t2 = relax.tuple(%lv10, %lv11, %lv12)
    %lv13 = relax.concat %t2 {axis = 1}
    %lv14 = relax.add %lv13, %c
    %t3 = relax.tuple(%lv4, %lv9, %lv14)
    %lv15 = relax.concat %t3 {axis = 1}
    %lv16 = relax.nn.max_pool2d %lv15 {pool_size = [2, 2], strides = [2, 2]}
    %lv17 = relax.add %lv16, %c
    %lv18 = relax.add %lv17, %c
    relax.output %lv17, %lv18
  }
  %r = relax.tuple(%a, %b)
  relax.return %r
}

// -----

// Packed calls and prim values are opaque (TVM's test_skipping_primvalue).

// CHECK-LABEL: relax.function @prim_value(%inp: !relax.tensor<[2, 2], f32>) -> !relax.tensor<[2, 2], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %p = relax.prim_value 0 : !relax.prim<i64, 0>
// CHECK-NEXT:     %lv = relax.call_pure_packed "my_func1"(%inp, %p) : !relax.tensor<[2, 2], f32>
// CHECK-NEXT:     %s = relax.str "str" : !relax.object
// CHECK-NEXT:     %lv1 = relax.call_pure_packed "my_func2"(%lv, %s) : !relax.tensor<[2, 2], f32>
// CHECK-NEXT:     relax.output %lv1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @prim_value(%inp: !relax.tensor<[2, 2], f32>) -> !relax.tensor<[2, 2], f32> {
  %gv = relax.dataflow {
    %p = relax.prim_value 0
    %lv = relax.call_pure_packed "my_func1"(%inp, %p) : !relax.tensor<[2, 2], f32>
    %s = relax.str "str"
    %lv1 = relax.call_pure_packed "my_func2"(%lv, %s) : !relax.tensor<[2, 2], f32>
    relax.output %lv1
  }
  relax.return %gv
}

// -----

// An out-element-wise-fusable kernel with its element-wise epilogue
// (TVM's test_layer_norm_silu).

// CHECK-LABEL: func.func @layer_norm(%a: tensor<1x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %out: tensor<1x4xf32>) -> tensor<1x4xf32> attributes {op_pattern = 4 : i64} {
// CHECK-NEXT:   func.return %a : tensor<1x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @relu(%a: tensor<1x4xf32>, %out: tensor<1x4xf32>) -> tensor<1x4xf32> attributes {op_pattern = 0 : i64} {
// CHECK-NEXT:   func.return %a : tensor<1x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @fused_layer_norm_relu(%x: !relax.tensor<[1, 4], f32>, %mean: !relax.tensor<[4], f32>, %var: !relax.tensor<[4], f32>) -> !relax.tensor<[1, 4], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %gv1 = relax.dataflow {
// CHECK-NEXT:     %gv0 = relax.call_tir @layer_norm(%x, %mean, %var) : !relax.tensor<[1, 4], f32>
// CHECK-NEXT:     %gv1_1 = relax.call_tir @relu(%gv0) : !relax.tensor<[1, 4], f32>
// CHECK-NEXT:     relax.output %gv1_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv1
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @layer_norm_relu(%x: !relax.tensor<[1, 4], f32>, %mean: !relax.tensor<[4], f32>, %var: !relax.tensor<[4], f32>) -> !relax.tensor<[1, 4], f32> {
// CHECK-NEXT:   %gv = relax.dataflow {
// CHECK-NEXT:     %gv1 = relax.call @fused_layer_norm_relu(%x, %mean, %var) : !relax.tensor<[1, 4], f32>
// CHECK-NEXT:     relax.output %gv1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
func.func @layer_norm(%a: tensor<1x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %out: tensor<1x4xf32>) -> tensor<1x4xf32> attributes {op_pattern = 4 : i64} {
  func.return %a : tensor<1x4xf32>
}
func.func @relu(%a: tensor<1x4xf32>, %out: tensor<1x4xf32>) -> tensor<1x4xf32> attributes {op_pattern = 0 : i64} {
  func.return %a : tensor<1x4xf32>
}
relax.function @layer_norm_relu(%x: !relax.tensor<[1, 4], f32>, %mean: !relax.tensor<[4], f32>, %var: !relax.tensor<[4], f32>) -> !relax.tensor<[1, 4], f32> {
  %gv = relax.dataflow {
    %gv0 = relax.call_tir @layer_norm(%x, %mean, %var) : !relax.tensor<[1, 4], f32>
    %gv1 = relax.call_tir @relu(%gv0) : !relax.tensor<[1, 4], f32>
    relax.output %gv1
  }
  relax.return %gv
}

// -----

// Dataflow blocks nested in branches are fused; functions marked Primitive
// are not.

// CHECK-LABEL: relax.function private @fused_exp_negative(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %n = relax.dataflow {
// CHECK-NEXT:     %e = relax.exp %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     %n_1 = relax.negative %e : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.output %n_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %n
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @nested(%x: !relax.tensor<[4], f32>, %b: !relax.tensor<[], bool>) -> !relax.tensor<[4], f32> {
// CHECK-NEXT:   %r = relax.if %b : !relax.tensor<[4], f32> {
// CHECK-NEXT:     %y = relax.dataflow {
// CHECK-NEXT:       %n = relax.call @fused_exp_negative(%x) : !relax.tensor<[4], f32>
// CHECK-NEXT:       relax.output %n
// CHECK-NEXT:     }
// CHECK-NEXT:     relax.yield %y
// CHECK-NEXT:   } else {
// CHECK-NEXT:     relax.yield %x
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %r
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @done(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> attributes {Primitive = true} {
// CHECK-NEXT:   %y = relax.dataflow {
// CHECK-NEXT:     %e = relax.exp %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     %n = relax.negative %e : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.output %n
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %y
// CHECK-NEXT: }
relax.function @nested(%x: !relax.tensor<[4], f32>, %b: !relax.tensor<[], bool>) -> !relax.tensor<[4], f32> {
  %r = relax.if %b : !relax.tensor<[4], f32> {
    %y = relax.dataflow {
      %e = relax.exp %x
      %n = relax.negative %e
      relax.output %n
    }
    relax.yield %y
  } else {
    relax.yield %x
  }
  relax.return %r
}
relax.function private @done(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> attributes {Primitive = true} {
  %y = relax.dataflow {
    %e = relax.exp %x
    %n = relax.negative %e
    relax.output %n
  }
  relax.return %y
}

// Every node the importer cannot convert, named with its op type and opset, at
// once (not the nodes fed by them); a file that is no model is one clean error.
// RUN: not relax-opt %S/Inputs/unsupported.onnx 2>&1 | filecheck %s -DFILE=%S/Inputs/unsupported.onnx
// RUN: not relax-opt -f onnx %s 2>&1 | filecheck %s --check-prefix=NOT-ONNX -DFILE=%s

// CHECK:      [[FILE]]: node 'coin' (Bernoulli, opset 17): error: random numbers are not supported: Relax has no random number generator
// CHECK-NEXT: [[FILE]]: node 'custom' (Custom, opset 1): error: operator Custom of domain 'com.example' is not supported
// CHECK-NOT:  error

// NOT-ONNX: [[FILE]]: error: not an ONNX model

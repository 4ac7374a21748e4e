// loom compile of tests/golden/data/bump.c
builtin.module attributes {loom.adg_max_join_fanin = 64 : i64} {
  handshake.func @bump(%arg0: memref<4xi32>, %arg1: i32, %start: none) -> (i32, none) {
    %0, %1, %2, %3 = handshake.fork [4] %start : none
    %4 = handshake.constant %0 {value = 0 : i32} : i32 loc("bump.c":5:3)
    %5, %6 = handshake.fork [2] %4 : i32 loc("bump.c":5:3)
    %7 = handshake.constant %1 {value = 4 : i32} : i32 loc("bump.c":5:3)
    %8 = handshake.constant %2 {value = 1 : i32} : i32 loc("bump.c":5:3)
    %for0_raw_index, %for0_raw_will_continue = dataflow.stream %5, %8, %7 {step_op = "+=", cont_cond = "<"} : (i32, i32, i32) -> (i32, i1) loc("bump.c":5:3)
    %9, %10, %11 = handshake.fork [3] %for0_raw_will_continue : i1 loc("bump.c":5:3)
    %for0_body_index, %for0_after_cond = dataflow.gate %for0_raw_index, %9 : i32, i1 -> i32, i1 loc("bump.c":5:3)
    %12, %13, %14 = handshake.fork [3] %for0_after_cond : i1 loc("bump.c":5:3)
    %15 = dataflow.carry %10, %6, %16 : i1, i32, i32 -> i32 loc("bump.c":5:3)
    %17, %18 = handshake.cond_br %11, %15 : i32 loc("bump.c":5:3)
    %19 = arith.index_cast %for0_body_index : i32 to index loc("bump.c":6:5)
    %20, %21, %22 = handshake.fork [3] %19 : index loc("bump.c":6:5)
    %23, %24 = handshake.load [%20] %25, %26 : index, i32 loc("bump.c":6:10)
    %27 = dataflow.invariant %12, %arg1 : i1, i32 -> i32 loc("bump.c":6:10)
    %28 = arith.addi %23, %27 : i32 loc("bump.c":6:10)
    %29, %30 = handshake.store [%21] %28, %31 : index, i32 loc("bump.c":6:10)
    %32, %33 = handshake.load [%22] %34, %35 : index, i32 loc("bump.c":7:10)
    %16 = arith.addi %17, %32 : i32 loc("bump.c":7:7)
    %25, %34, %35, %31, %36 = handshake.extmemory[ld = 2, st = 1] (%arg0 : memref<4xi32>) (%29, %30, %24, %33) {id = 0 : i32} : (i32, index, index, index) -> (i32, i32, none, none, none) loc("bump.c":6:10)
    %26 = dataflow.carry %13, %3, %37 : i1, none, none -> none loc("bump.c":5:3)
    %37, %38 = handshake.cond_br %14, %36 : none loc("bump.c":5:3)
    handshake.return %18, %38 : i32, none loc("bump.c":9:3)
  } loc("bump.c":3:0)
}

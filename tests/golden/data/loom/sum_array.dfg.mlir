// loom compile of tests/golden/data/loom/sum_array.c (LOOM's e2e app with fixed extents), run on LOOM's own sim bundle
builtin.module attributes {loom.adg_max_join_fanin = 64 : i64} {
  handshake.func @sum_array(%arg0: memref<8xi32>, %arg1: i32, %start: none) -> (i32, none) {
    %0, %1, %2 = handshake.fork [3] %start : none
    %3, %4 = handshake.fork [2] %arg1 : i32
    %5 = handshake.constant %0 {value = 0 : i32} : i32 loc("sum_array.c":4:3)
    %6 = arith.cmpi slt, %5, %3 : i32 loc("sum_array.c":4:3)
    %7, %8, %9, %10, %11 = handshake.fork [5] %6 : i1 loc("sum_array.c":4:3)
    %12, %13 = handshake.cond_br %7, %1 : none loc("sum_array.c":4:3)
    %14, %15 = handshake.fork [2] %12 : none loc("sum_array.c":4:3)
    %16 = handshake.constant %14 {value = 0 : i32} : i32 loc("sum_array.c":4:3)
    %17, %18 = handshake.fork [2] %16 : i32 loc("sum_array.c":4:3)
    %19, %20 = handshake.cond_br %8, %4 : i32 loc("sum_array.c":4:3)
    %21 = handshake.constant %15 {value = 1 : i32} : i32 loc("sum_array.c":4:3)
    %for0_raw_index, %for0_raw_will_continue = dataflow.stream %17, %21, %19 {step_op = "+=", cont_cond = "<"} : (i32, i32, i32) -> (i32, i1) loc("sum_array.c":4:3)
    %22, %23, %24 = handshake.fork [3] %for0_raw_will_continue : i1 loc("sum_array.c":4:3)
    %for0_body_index, %for0_after_cond = dataflow.gate %for0_raw_index, %22 : i32, i1 -> i32, i1 loc("sum_array.c":4:3)
    %25, %26 = handshake.fork [2] %for0_after_cond : i1 loc("sum_array.c":4:3)
    %27 = dataflow.carry %23, %18, %28 : i1, i32, i32 -> i32 loc("sum_array.c":4:3)
    %29, %30 = handshake.cond_br %24, %27 : i32 loc("sum_array.c":4:3)
    %31 = arith.index_cast %for0_body_index : i32 to index loc("sum_array.c":5:12)
    %32, %33 = handshake.load [%31] %34, %35 : index, i32 loc("sum_array.c":5:12)
    %28 = arith.addi %29, %32 : i32 loc("sum_array.c":5:9)
    %36 = handshake.constant %13 {value = 0 : i32} : i32 loc("sum_array.c":4:3)
    %37 = handshake.mux %9 [%36, %30] : i1, i32 loc("sum_array.c":4:3)
    %34, %38 = handshake.extmemory[ld = 1, st = 0] (%arg0 : memref<8xi32>) (%33) {id = 0 : i32} : (index) -> (i32, none) loc("sum_array.c":5:12)
    %39, %40 = handshake.cond_br %10, %2 : none loc("sum_array.c":4:3)
    %35 = dataflow.carry %25, %39, %41 : i1, none, none -> none loc("sum_array.c":4:3)
    %41, %42 = handshake.cond_br %26, %38 : none loc("sum_array.c":4:3)
    %43 = handshake.mux %11 [%40, %42] : i1, none loc("sum_array.c":4:3)
    handshake.return %37, %43 : i32, none loc("sum_array.c":6:3)
  } loc("sum_array.c":2:0)
}

// A hand-written DFG in the style of seed 002 (scf.for lowering) and seed 000
// (memory ctrl-done ordering), for this C kernel (n >= 1):
//
//   int vecadd_like(int a[16], int c[16], int n, int s) {
//     int acc = 0;
//     for (int i = 0; i < n; i++) { int v = a[i] + s; c[i] = v; acc += v; }
//     return acc;
//   }
//
// raw_will_continue (%cont, N+1 tokens) drives the loop-boundary carries and
// their cond_br exit splits; after_cond (%after, N tokens) drives the body
// invariant. The memory chain carries one ctrl token per iteration: the
// iteration's load and store start on it and the next iteration waits for
// both done tokens. Every value has exactly one use (forks are explicit).
module attributes {loom.adg_max_join_fanin = 4 : i64} {
  handshake.func @vecadd_like(%a: memref<16xi32>, %c: memref<16xi32>, %n: index, %s: i32, %start: none) -> (i32, none) attributes {arg_names = ["a", "c", "n", "s", "start"], res_names = ["out0", "done"]} {
    %st:4 = handshake.fork [4] %start : none
    %c0 = handshake.constant %st#0 {value = 0 : index} : index loc("vecadd_like.c":3:16)
    %c1 = handshake.constant %st#1 {value = 1 : index} : index loc("vecadd_like.c":3:31)
    %zero = handshake.constant %st#2 {value = 0 : i32} : i32 loc("vecadd_like.c":2:7)
    %idx, %cont = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1) loc("vecadd_like.c":3:3)
    %raw:5 = handshake.fork [5] %cont : i1
    %i, %after = dataflow.gate %idx, %raw#0 : index, i1 -> index, i1 loc("vecadd_like.c":3:3)
    %sv = dataflow.invariant %after, %s : i1, i32 -> i32
    %acc = dataflow.carry %raw#1, %zero, %next : i1, i32, i32 -> i32 loc("vecadd_like.c":3:50)
    %acc_body, %acc_exit = handshake.cond_br %raw#2, %acc : i32
    %mem = dataflow.carry %raw#3, %st#3, %iter_done : i1, none, none -> none
    %ctl, %done = handshake.cond_br %raw#4, %mem : none
    %ctl_f:2 = handshake.fork [2] %ctl : none
    %i_f:2 = handshake.fork [2] %i : index
    %ld_data, %ld_addr = handshake.load [%i_f#0] %a_ports#0, %ctl_f#0 : index, i32 loc("vecadd_like.c":3:40)
    %v = arith.addi %ld_data, %sv : i32 loc("vecadd_like.c":3:45)
    %v_f:2 = handshake.fork [2] %v : i32
    %next = arith.addi %acc_body, %v_f#0 : i32 loc("vecadd_like.c":3:62)
    %st_data, %st_addr = handshake.store [%i_f#1] %v_f#1, %ctl_f#1 : index, i32 loc("vecadd_like.c":3:54)
    %a_ports:2 = handshake.extmemory[ld = 1, st = 0] (%a : memref<16xi32>) (%ld_addr) {id = 0 : i32} : (index) -> (i32, none)
    %c_done = handshake.extmemory[ld = 0, st = 1] (%c : memref<16xi32>) (%st_data, %st_addr) {id = 1 : i32} : (i32, index) -> (none)
    %iter_done = handshake.join %a_ports#1, %c_done : none, none
    handshake.return %acc_exit, %done : i32, none
  }
}

// for (i = 0; i < n; i++) b[i] = a[i] * k;
// Two memory groups, each with its own ctrl-done carry on after_cond (seed 000).
module {
  handshake.func @scale(%a: memref<16xi32>, %b: memref<16xi32>, %k: i32, %n: index, %start: none) -> (none) {
    %s:4 = handshake.fork [4] %start : none
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %c1 = handshake.constant %s#1 {value = 1 : index} : index
    %raw_index, %raw_will_continue = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %body_index, %after_cond = dataflow.gate %raw_index, %raw_will_continue : index, i1 -> index, i1
    %ac:5 = handshake.fork [5] %after_cond : i1
    %k_body = dataflow.invariant %ac#0, %k : i1, i32 -> i32
    %addr:2 = handshake.fork [2] %body_index : index
    %a_ctrl = dataflow.carry %ac#1, %s#2, %a_next : i1, none, none -> none
    %x, %a_addr = handshake.load [%addr#0] %a_mem#0, %a_ctrl : index, i32
    %a_mem:2 = handshake.extmemory[ld = 1, st = 0] (%a : memref<16xi32>) (%a_addr) {id = 0 : i32} : (index) -> (i32, none)
    %a_next, %a_done = handshake.cond_br %ac#2, %a_mem#1 : none
    %y = arith.muli %x, %k_body : i32
    %b_ctrl = dataflow.carry %ac#3, %s#3, %b_next : i1, none, none -> none
    %b_data, %b_addr = handshake.store [%addr#1] %y, %b_ctrl : index, i32
    %b_mem = handshake.extmemory[ld = 0, st = 1] (%b : memref<16xi32>) (%b_data, %b_addr) {id = 1 : i32} : (i32, index) -> (none)
    %b_next, %b_done = handshake.cond_br %ac#4, %b_mem : none
    %done = handshake.join %a_done, %b_done : none, none
    handshake.return %done : none
  }
}

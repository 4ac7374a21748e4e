// sum = 0; for (i = 0; i < n; i++) sum += i;  return sum
// stream -> gate -> carry, iter_arg carry on raw_will_continue (seed 002).
module {
  handshake.func @sum_loop(%n: index, %start: none) -> (index, none) {
    %s:4 = handshake.fork [4] %start : none
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %c1 = handshake.constant %s#1 {value = 1 : index} : index
    %init = handshake.constant %s#2 {value = 0 : index} : index
    %raw_index, %raw_will_continue = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %raw:3 = handshake.fork [3] %raw_will_continue : i1
    %body_index, %after_cond = dataflow.gate %raw_index, %raw#0 : index, i1 -> index, i1
    %acc = dataflow.carry %raw#1, %init, %next : i1, index, index -> index
    %body_acc, %exit_acc = handshake.cond_br %raw#2, %acc : index
    %next = arith.addi %body_acc, %body_index : index
    handshake.sink %after_cond : i1
    handshake.return %exit_acc, %s#3 : index, none
  }
}

// 1 temporal PE of ten integer units, 4 inputs and 4 outputs, 4 slots, 2 registers: the area bench's comparison (bench/README.md)
module {
  fabric.temporal_pe @pe(%p0: !fabric.tagged<!fabric.bits<32>, i2>, %p1: !fabric.tagged<!fabric.bits<32>, i2>, %p2: !fabric.tagged<!fabric.bits<32>, i2>, %p3: !fabric.tagged<!fabric.bits<32>, i2>) -> (!fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>) [num_register = 2 : i64, num_instruction = 4 : i64, reg_fifo_depth = 2 : i64] {
    fabric.function_unit @fu_add(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.addi %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.function_unit @fu_sub(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.subi %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.function_unit @fu_mul(%a: i32, %b: i32) -> (i32) [latency = 4, interval = 1] {
      %r = arith.muli %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.function_unit @fu_and(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.andi %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.function_unit @fu_or(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.ori %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.function_unit @fu_xor(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.xori %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.function_unit @fu_shl(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.shli %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.function_unit @fu_shr(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.shrsi %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.function_unit @fu_cmp(%a: i32, %b: i32) -> (i1) [latency = 1, interval = 1] {
      %r = arith.cmpi slt, %a, %b : i32
      fabric.yield %r : i1
    }
    fabric.function_unit @fu_sel(%c: i1, %a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.select %c, %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.yield
  }
  fabric.module @temporal_s4(%i0: !fabric.tagged<!fabric.bits<32>, i2>, %i1: !fabric.tagged<!fabric.bits<32>, i2>, %i2: !fabric.tagged<!fabric.bits<32>, i2>, %i3: !fabric.tagged<!fabric.bits<32>, i2>) -> (!fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>) {
    %o0:4 = fabric.instance @pe(%i0, %i1, %i2, %i3) {sym_name = "pe_0"} : (!fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>) -> (!fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>)
    fabric.yield %o0#0, %o0#1, %o0#2, %o0#3 : !fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<!fabric.bits<32>, i2>
  }
}

// 8 spatial PEs of ten integer units, 4 inputs and 4 outputs: the area bench's comparison (bench/README.md)
module {
  fabric.spatial_pe @pe(%p0: !fabric.bits<32>, %p1: !fabric.bits<32>, %p2: !fabric.bits<32>, %p3: !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) {
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
  fabric.module @spatial_8(%i0: !fabric.bits<32>, %i1: !fabric.bits<32>, %i2: !fabric.bits<32>, %i3: !fabric.bits<32>, %i4: !fabric.bits<32>, %i5: !fabric.bits<32>, %i6: !fabric.bits<32>, %i7: !fabric.bits<32>, %i8: !fabric.bits<32>, %i9: !fabric.bits<32>, %i10: !fabric.bits<32>, %i11: !fabric.bits<32>, %i12: !fabric.bits<32>, %i13: !fabric.bits<32>, %i14: !fabric.bits<32>, %i15: !fabric.bits<32>, %i16: !fabric.bits<32>, %i17: !fabric.bits<32>, %i18: !fabric.bits<32>, %i19: !fabric.bits<32>, %i20: !fabric.bits<32>, %i21: !fabric.bits<32>, %i22: !fabric.bits<32>, %i23: !fabric.bits<32>, %i24: !fabric.bits<32>, %i25: !fabric.bits<32>, %i26: !fabric.bits<32>, %i27: !fabric.bits<32>, %i28: !fabric.bits<32>, %i29: !fabric.bits<32>, %i30: !fabric.bits<32>, %i31: !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) {
    %o0:4 = fabric.instance @pe(%i0, %i1, %i2, %i3) {sym_name = "pe_0"} : (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>)
    %o1:4 = fabric.instance @pe(%i4, %i5, %i6, %i7) {sym_name = "pe_1"} : (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>)
    %o2:4 = fabric.instance @pe(%i8, %i9, %i10, %i11) {sym_name = "pe_2"} : (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>)
    %o3:4 = fabric.instance @pe(%i12, %i13, %i14, %i15) {sym_name = "pe_3"} : (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>)
    %o4:4 = fabric.instance @pe(%i16, %i17, %i18, %i19) {sym_name = "pe_4"} : (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>)
    %o5:4 = fabric.instance @pe(%i20, %i21, %i22, %i23) {sym_name = "pe_5"} : (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>)
    %o6:4 = fabric.instance @pe(%i24, %i25, %i26, %i27) {sym_name = "pe_6"} : (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>)
    %o7:4 = fabric.instance @pe(%i28, %i29, %i30, %i31) {sym_name = "pe_7"} : (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>)
    fabric.yield %o0#0, %o0#1, %o0#2, %o0#3, %o1#0, %o1#1, %o1#2, %o1#3, %o2#0, %o2#1, %o2#2, %o2#3, %o3#0, %o3#1, %o3#2, %o3#3, %o4#0, %o4#1, %o4#2, %o4#3, %o5#0, %o5#1, %o5#2, %o5#3, %o6#0, %o6#1, %o6#2, %o6#3, %o7#0, %o7#1, %o7#2, %o7#3 : !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>
  }
}

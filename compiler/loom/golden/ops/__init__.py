"""The golden model's op classes, one module per op family: arith, the
dataflow state machines of seed 001 (stream, gate, carry, invariant), and
the handshake ops (fork, join, sync, merge, mux, cond_br, constant, buffer,
load, store, memory, return, compose/decompose).
"""

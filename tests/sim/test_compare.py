"""First-divergence blame on hand-built traces: a wrong token seen on an eager
fork's output while the fork's input never completed it was made upstream."""

from loom.golden.run import find_func
from loom.ir import parse_module
from loom.rtl.netlist import build_netlist
from loom.sim.compare import _MISSING, Divergence, RtlTrace, blame, first_divergence

# x + z, widened, forked to two results: the add is the only unit that makes
# a value; the cast and the fork pass it on
DFG = """builtin.module {
handshake.func @f(%x: i32, %z: i32, %start: none) -> (i64, i64, none) {
  %s = arith.addi %x, %z : i32
  %w = arith.extsi %s : i32 to i64
  %a, %b = handshake.fork [2] %w : i64
  handshake.return %a, %b, %start : i64, i64, none
}
}"""


def _net():
    return build_netlist(find_func(parse_module(DFG, "t.mlir"), None, "t.mlir"), "t.mlir")


def _by_driver(net):
    """Channel name by (driver family, output lane)."""
    return {(ch.driver[0].spec.family, ch.driver[2]): ch for ch in net.channels
            if ch.driver is not None and ch.copy_of is None}


def _golden_and_trace(net, extra_on_fork_input: bool):
    ch = _by_driver(net)
    add, ext = ch[("addi", None)], ch[("extsi", None)]
    fa, fb = ch[("fork", 0)], ch[("fork", 1)]
    x, z = (c for c in net.channels if c.driver is None and c.width == 32)
    golden = {x.name: [2], z.name: [3], add.name: [5], ext.name: [5], fa.name: [5], fb.name: [5]}
    trace = RtlTrace()
    for c in (x, z, add, ext, fa, fb):
        trace.transfers[c.index] = [(1, 5 if c not in (x, z) else golden[c.name][0])]
    # a second token, 9, that the golden run does not have, taken by fork output a at cycle 4
    trace.transfers[fa.index].append((4, 9))
    if not extra_on_fork_input:       # ... while the fork's input completed it too
        trace.transfers[ext.index].append((4, 9))
        trace.transfers[add.index].append((4, 9))
    return golden, trace, add, fa


def test_an_extra_token_a_fork_passed_on_early_is_blamed_where_it_was_made():
    net = _net()
    golden, trace, add, fa = _golden_and_trace(net, extra_on_fork_input=True)
    d = first_divergence(net, trace, golden)
    # up through the fork (input never took token 1) and the cast, to the add
    assert d.channel == add.name, d.describe()
    assert d.producer.startswith("arith.addi"), d.producer
    text = d.describe()
    assert "token 1: expected nothing" in text
    assert f"offered and never taken (seen as 9 on '{fa.name}')" in text


def test_a_token_the_fork_input_completed_is_blamed_on_its_maker_as_before():
    net = _net()
    golden, trace, add, fa = _golden_and_trace(net, extra_on_fork_input=False)
    d = first_divergence(net, trace, golden)
    assert d.channel == add.name and d.got == 9 and d.offered_only is None, d.describe()


def test_a_fork_output_two_tokens_ahead_of_its_input_is_the_forks_fault():
    # an eager fork output takes its copy of token k while the input still
    # offers k, never k+1: output a at 2 tokens with the input at 0 means the
    # fork made one up (a duplicate), even if the input is then stuck
    net = _net()
    ch = _by_driver(net)
    add, ext, fa, fb = ch[("addi", None)], ch[("extsi", None)], ch[("fork", 0)], ch[("fork", 1)]
    x, z = (c for c in net.channels if c.driver is None and c.width == 32)
    golden = {x.name: [2, 4], z.name: [3, 3], add.name: [5, 7], ext.name: [5, 7],
              fa.name: [5, 7], fb.name: [5, 7]}
    trace = RtlTrace()
    trace.transfers[fa.index] = [(1, 5), (2, 5)]      # token 0 twice
    d = first_divergence(net, trace, golden)
    assert d.channel == fa.name and d.index == 1 and d.got == 5 and d.offered_only is None


def _missing(channel: str, index: int, order: int) -> Divergence:
    return Divergence(channel, "p", "c", index, 1, _MISSING, None, order)


def test_a_stopped_flow_is_blamed_where_it_stopped_in_the_earliest_invocation():
    """a -> b -> c, and an argument edge x into a: b never carried its
    invocation-0 token (its route is cut), so c did not either, and nothing
    of invocation 1 moved. The first divergence is b's: its producer's input
    a missed nothing of invocation 0; x (invocation 1) and c (fed by b) are not."""
    found = [_missing("x", 1, 0), _missing("a", 1, 1), _missing("b", 0, 2),
             _missing("c", 0, 3)]
    feeding = {"x": [], "a": ["x"], "b": ["a"], "c": ["b"]}
    stage = {"x": 1, "a": 1, "b": 0, "c": 0}
    assert blame(found, feeding, stage).channel == "b"
    # without the invocations: the earliest (here the lowest channel)
    assert blame(found, feeding).channel == "x"

"""The golden model's op contract: every DFG op is a Kahn actor.

An actor sees its input channels and output channels as lists (operand order
and result order of the MLIR op). Its semantics are its firing rules
(`rules`, golden/rules.py): code fragments the scheduler inlines into one
function per graph (golden/codegen.py). `fire` applies them once: if the
tokens a rule needs are present it consumes them, pushes its outputs and
returns True; otherwise it changes nothing and returns False. Channels are
unbounded, so an actor never waits for space.

The same classes serve the scheduler (golden/scheduler.py) and the RTL unit
tests (via `run_actor`), so hardware and model share one definition of each
op's semantics.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loom.golden.channel import Channel
from loom.golden.rules import FireFn, Rule, compile_fire


class Actor:
    #: number of operands and results; set by subclasses or constructors
    n_in: int = 0
    n_out: int = 0
    #: the attributes the rules assign (the op's state between firings)
    assigns: tuple[str, ...] = ()
    _fire: FireFn

    def rules(self) -> list[Rule]:
        """The firing rules, tried in order; none for an actor that only
        overrides `fire` (the scheduler then calls it)."""
        return []

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        fire = self.__dict__.get("_fire")
        if fire is None:   # compiled once per actor: its rules are fixed at construction
            fire = self._fire = compile_fire(tuple(self.rules()))
        return fire(self, ins, outs)

    def idle(self) -> bool:
        """True when the actor is in its initial phase (quiescence check)."""
        return True

    def phase(self) -> str:
        """The state-machine phase, for reports ('' for stateless ops)."""
        return ""

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        """Operand indices whose missing token keeps the actor from firing."""
        return [i for i, ch in enumerate(ins) if not ch.q]


def drive_actor(actor: Actor, inputs: Sequence[Sequence[Any]],
                max_firings: int = 10_000_000) -> tuple[list[list[Any]], list[int]]:
    """Feed whole input streams to one actor until it stops firing.

    Returns its output streams and how many tokens it took from each input
    (an RTL unit fed the same streams must take exactly as many). By Kahn
    semantics neither depends on timing (merge excepted).
    """
    if len(inputs) != actor.n_in:
        raise ValueError(f"{type(actor).__name__} takes {actor.n_in} inputs, got {len(inputs)}")
    ins = [Channel(f"in{i}") for i in range(actor.n_in)]
    outs = [Channel(f"out{i}") for i in range(actor.n_out)]
    for ch, stream in zip(ins, inputs):
        ch.q.extend(stream)
    for _ in range(max_firings):
        if not actor.fire(ins, outs):
            break
    consumed = [len(stream) - len(ch.q) for stream, ch in zip(inputs, ins)]
    return [ch.trace for ch in outs], consumed


def run_actor(actor: Actor, inputs: Sequence[Sequence[Any]],
              max_firings: int = 10_000_000) -> list[list[Any]]:
    """The output streams of one actor fed whole input streams (see drive_actor)."""
    return drive_actor(actor, inputs, max_firings)[0]

"""dataflow.gate: NeedHead / NeedNext alignment of seed 001.

Turns an N + 1 before-region stream pair into an N body stream pair: the
first true emits only the value, interior trues emit (value, true), the
terminating false emits only after_cond = false; a lone false emits nothing.
"""

from __future__ import annotations

from loom.golden.actor import Actor
from loom.golden.rules import Rule, ready, rule


class Gate(Actor):
    n_in, n_out = 2, 2
    assigns = ("need_next",)

    def __init__(self) -> None:
        self.need_next = False  # False: NeedHead, True: NeedNext

    def rules(self) -> list[Rule]:
        return [rule(ready([0, 1]), "value = pop0()", "cond = pop1()",
                     "if not self.need_next:",
                     "    if cond:",
                     "        push0(value)",
                     "        self.need_next = True",
                     "elif cond:",
                     "    push0(value)",
                     "    push1(1)",
                     "else:",
                     "    push1(0)",
                     "    self.need_next = False")]

    def idle(self) -> bool:
        return not self.need_next

    def phase(self) -> str:
        return "NeedNext" if self.need_next else "NeedHead"

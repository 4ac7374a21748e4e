"""handshake.cond_br: routes the data token to the true or the false output."""

from __future__ import annotations

from loom.golden.actor import Actor
from loom.golden.rules import Rule, ready, rule


class CondBr(Actor):
    n_in, n_out = 2, 2  # cond, data -> true, false

    def rules(self) -> list[Rule]:
        return [rule(ready([0, 1]), "v = pop1()",
                     "if pop0():", "    push0(v)", "else:", "    push1(v)")]

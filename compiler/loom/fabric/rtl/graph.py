"""What the fabric RTL generator needs of an ADG beyond its view: wire
widths of fabric types, and the rule that refuses what RTL cannot build.

The nodes, their names (which are also their config slices' names) and
types come from the one model, loom.fabric.adg_view.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute

from loom.diagnostics import LoomError
from loom.dialects.fabric_types import TaggedType, scalar_width
from loom.fabric.adg_view import AdgView


def wire_width(t: Attribute) -> int:
    """Bits of a fabric wire: `{tag, value}` for tagged types; `none` is 1 wire bit."""
    if isinstance(t, TaggedType):
        return wire_width(t.value_type) + t.tag_width
    w = scalar_width(t)
    if w is None:
        raise LoomError(f"type {t} has no RTL wire width")
    return max(1, w)


def value_width(t: Attribute) -> int:
    """The value bits of a (possibly tagged) type."""
    return wire_width(t.value_type) if isinstance(t, TaggedType) else wire_width(t)


def tag_width(t: Attribute) -> int:
    return t.tag_width if isinstance(t, TaggedType) else 0


def check_buildable(view: AdgView) -> None:
    """LoomError on what the fabric RTL cannot build: an unsupported
    component, or a value that feeds several ports outside a switch."""
    view.check_supported()
    # only routing nodes fan out (LOOM's C11); a plain fork would deadlock
    # on a consumer whose route is off, so a multi-use value is refused
    values = [*view.args, *(r for n in view.nodes for r in n.outputs)]
    for v in values:
        if isinstance(v.type, MemRefType):
            continue
        uses = view.consumers(v)
        if len(uses) > 1:
            names = ", ".join(n or "the module output" for n, _ in uses)
            raise LoomError(f"a value feeds {len(uses)} ports ({names}); fan-out outside a "
                            "switch is not supported by the fabric RTL")

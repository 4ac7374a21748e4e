"""Renders one specialized SystemVerilog module per unit parameter set."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from loom.diagnostics import Location
from loom.rtl.ports import compose_assigns, port_declarations
from loom.rtl.units import UnitSpec, unit_spec

TEMPLATE_DIR = Path(__file__).resolve().parents[3] / "templates"

_KEYWORDS = frozenset("""   # IEEE 1800-2017 reserved words
    accept_on alias always always_comb always_ff always_latch and assert assign assume
    automatic before begin bind bins binsof bit break buf bufif0 bufif1 byte case casex
    casez cell chandle checker class clocking cmos config const constraint context continue
    cover covergroup coverpoint cross deassign default defparam design disable dist do edge
    else end endcase endchecker endclass endclocking endconfig endfunction endgenerate
    endgroup endinterface endmodule endpackage endprimitive endprogram endproperty
    endsequence endspecify endtable endtask enum event eventually expect export extends
    extern final first_match for force foreach forever fork forkjoin function generate
    genvar global highz0 highz1 if iff ifnone ignore_bins illegal_bins implements implies
    import incdir include initial inout input inside instance int integer interconnect
    interface intersect join join_any join_none large let liblist library local localparam
    logic longint macromodule matches medium modport module nand negedge nettype new
    nexttime nmos nor noshowcancelled not notif0 notif1 null or output package packed
    parameter pmos posedge primitive priority program property protected pull0 pull1
    pulldown pullup pulsestyle_ondetect pulsestyle_onevent pure rand randc randcase
    randsequence rcmos real realtime ref reg reject_on release repeat restrict return
    rnmos rpmos rtran rtranif0 rtranif1 s_always s_eventually s_nexttime s_until
    s_until_with scalared sequence shortint shortreal showcancelled signed small soft solve
    specify specparam static string strong strong0 strong1 struct super supply0 supply1
    sync_accept_on sync_reject_on table tagged task this throughout time timeprecision
    timeunit tran tranif0 tranif1 tri tri0 tri1 triand trior trireg type typedef union
    unique unique0 unsigned until until_with untyped use uwire var vectored virtual void
    wait wait_order wand weak weak0 weak1 while wildcard wire with within wor xnor xor
""".split())


def identifier(name: str) -> str:
    """`name` as a SystemVerilog identifier (chess-2x2 -> chess_2x2; keywords get `_n`).

    The one sanitizer of generated SV names (fabric instances, the fabric top,
    a PE definition inside a module name), so a name the harness or a tap
    derives from an ADG node is the name the RTL declares."""
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    ident = ident if re.match(r"[A-Za-z_]", ident) else f"m_{ident}"
    return f"{ident}_n" if ident in _KEYWORDS else ident


@lru_cache(maxsize=1)
def template_environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _param_text(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items()) or "(none)"


def render_spec(spec: UnitSpec, origin: str | None = None) -> str:
    template = template_environment().get_template(f"{spec.template}.sv.j2")
    header = [f"// {spec.module}: rendered from templates/{spec.template}.sv.j2",
              f"// parameters: {_param_text(spec.params)}"]
    if origin:
        header.append(f"// for: {origin}")
    compose = {p.name: "\n".join("  " + line for line in compose_assigns(p, f"{p.name}_bus"))
               for p in spec.ports}
    ctx = dict(spec.context)
    ctx.update(module=spec.module, ports=port_declarations(spec.ports, spec.clocked),
               compose=compose, bw={p.name: p.bus_width for p in spec.ports})
    body = template.render(**ctx)
    return "\n".join(header) + "\n" + body


def render_unit(family: str, *, origin: str | None = None, loc: Location | None = None,
                **params: Any) -> tuple[str, str]:
    """(module name, SystemVerilog text) of one unit.

    `origin` names the DFG op (and C line) the unit is for; it goes into the
    header comment only. Bad parameters raise LoomError at `loc`.
    """
    spec = unit_spec(family, loc=loc, **params)
    return spec.module, render_spec(spec, origin)

"""Renders one specialized SystemVerilog module per unit parameter set."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from loom.diagnostics import Location
from loom.rtl.ports import compose_assigns, port_declarations
from loom.rtl.units import UnitSpec, unit_spec

TEMPLATE_DIR = Path(__file__).resolve().parents[3] / "templates"


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

"""Regular topologies of the ADG builder (LOOM's ADGBuilderTopology.cpp).

- `chess_mesh(R, C)`: R x C PEs on cell centers, (R+1) x (C+1) full-crossbar
  switches on cell corners. Every switch links to its (up to) four
  neighbours in both directions; PE(r,c) ports 0..3 link in both directions
  to switches (r,c), (r,c+1), (r+1,c), (r+1,c+1) (NW, NE, SW, SE). A switch
  uses the same port index for both directions of a link; ports are taken
  in LOOM's order: horizontal links row by row, then vertical links, then
  PE links, then the boundary ports a side asks for. `tracks` > 1 (ours,
  not LOOM's) links neighbouring switches that many times each way, side
  by side: the routing channel width of an FPGA.
- `lattice_mesh(R, C)`: one switch per PE at the same position, all the
  PE's ports on it (PE port p = switch port p), neighbour links without
  wrap-around, then boundary ports.
- `torus_mesh(R, C)`: the lattice with wrap-around links (LOOM's buildMesh:
  every switch has the four links N, S, E, W).

Switch templates are synthesized per port count. Instances are `pe_<r>_<c>`
and `sw_<r>_<c>`: the mapper reads the suffix as a grid position.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from loom.diagnostics import LoomError
from loom.fabric.builder import AdgBuilder, PEDef, PortRef, is_tagged

SIDES = ("top", "right", "bottom", "left")

PESelector = Callable[[int, int], PEDef]


@dataclass
class SidePorts:
    """Boundary ports a topology adds per switch along one side, in side order
    (top and bottom: by column; left and right: by row)."""

    inputs: Sequence[int] = ()
    outputs: Sequence[int] = ()


@dataclass
class MeshResult:
    pes: list[list[str]]
    switches: list[list[str]]
    ingress: dict[str, list[PortRef]] = field(default_factory=dict)
    """Side -> switch input ports free for module inputs or memory responses."""
    egress: dict[str, list[PortRef]] = field(default_factory=dict)
    """Side -> switch output ports free for module outputs or memory requests."""


class _Ports:
    """Per-switch port allocation: each call takes the next input/output index."""

    def __init__(self) -> None:
        self.next_in: dict[tuple[int, int], int] = {}
        self.next_out: dict[tuple[int, int], int] = {}

    def take(self, at: tuple[int, int], table: dict[tuple[int, int], int]) -> int:
        k = table.get(at, 0)
        table[at] = k + 1
        return k

    def both(self, at: tuple[int, int]) -> int:
        """One slot used in both directions (chess mesh)."""
        k = max(self.next_in.get(at, 0), self.next_out.get(at, 0))
        self.next_in[at] = self.next_out[at] = k + 1
        return k


def spread(total: int, slots: int) -> list[int]:
    """Spread `total` ports over `slots` side switches, middle first (LOOM's buildSpreadSideCounts)."""
    counts = [0] * slots
    if total == 0 or slots == 0:
        return counts
    if total <= slots:
        if total == 1:
            counts[slots // 2] = 1
            return counts
        for i in range(total):
            counts[min(slots - 1, _round_half_away(i * (slots - 1) / (total - 1)))] += 1
        return counts
    # LOOM places the extras beyond one per switch middle-out and clamps at the
    # ends, so past two rounds they pile onto the end switches (36 ports on 9
    # switches: 11 on each corner, whose 3 fabric inputs cannot feed them);
    # every full round of extras adds one per switch, and the remainder goes
    # LOOM's way (the same counts as LOOM's up to 2 * slots - 1 ports)
    rounds, rest = divmod(total - slots, slots)
    counts = [1 + rounds] * slots
    center = slots // 2
    for extra in range(rest):
        delta = (extra + 1) // 2
        at = center - delta if extra % 2 == 0 else center + delta
        counts[max(0, min(slots - 1, at))] += 1
    return counts


def _round_half_away(x: float) -> int:
    return int(x + 0.5)


def _side_positions(side: str, rows: int, cols: int) -> list[tuple[int, int]]:
    """Switch positions along a side of an (rows x cols) switch grid, in side order."""
    if side == "top":
        return [(0, c) for c in range(cols)]
    if side == "bottom":
        return [(rows - 1, c) for c in range(cols)]
    if side == "left":
        return [(r, 0) for r in range(rows)]
    return [(r, cols - 1) for r in range(rows)]


def _side_extras(sides: dict[str, SidePorts], rows: int, cols: int
                 ) -> dict[tuple[int, int], list[tuple[str, int, int]]]:
    """Switch position -> [(side, extra inputs, extra outputs)] in SIDES order."""
    extras: dict[tuple[int, int], list[tuple[str, int, int]]] = {}
    for side in SIDES:
        ports = sides.get(side)
        if ports is None:
            continue
        positions = _side_positions(side, rows, cols)
        for what, counts in (("inputs", ports.inputs), ("outputs", ports.outputs)):
            if len(counts) > len(positions):
                raise LoomError(f"{side} side: {len(counts)} {what} counts for "
                                f"{len(positions)} switches")
        for k, at in enumerate(positions):
            n_in = ports.inputs[k] if k < len(ports.inputs) else 0
            n_out = ports.outputs[k] if k < len(ports.outputs) else 0
            if n_in or n_out:
                extras.setdefault(at, []).append((side, n_in, n_out))
    return extras


def _switch_templates(b: AdgBuilder, prefix: str, width: int):
    cache: dict[tuple[int, int], object] = {}

    def get(n_in: int, n_out: int):
        if (n_in, n_out) not in cache:
            cache[(n_in, n_out)] = b.define_switch(f"{prefix}_{n_in}x{n_out}", n_in, n_out, width)
        return cache[(n_in, n_out)]
    return get


def _pe_width(pe: PEDef, what: str, ports: int) -> int:
    """The network width of a PE's ports: `!fabric.bits<N>`, or a temporal
    PE's `!fabric.tagged<!fabric.bits<N>, iT>` (its tag ops sit on the links)."""
    types = {_untagged(t) for t in (*pe.inputs[:ports], *pe.outputs[:ports])}
    if len(pe.inputs) < ports or len(pe.outputs) < ports or len(types) != 1 or not next(
            iter(types)).startswith("!fabric.bits<"):
        raise LoomError(f"{what}: PE {pe.name} needs {ports} inputs and {ports} outputs of one "
                        "!fabric.bits<N> type")
    return int(next(iter(types)).removeprefix("!fabric.bits<").removesuffix(">"))


def _untagged(type_: str) -> str:
    """A tagged port's value type (`!fabric.tagged<V, iT>` -> V); others as they are."""
    if not is_tagged(type_):
        return type_
    return type_.removeprefix("!fabric.tagged<").rsplit(",", 1)[0]


def _grid_pes(rows: int, cols: int, select: PESelector, what: str, ports: int) -> tuple[
        list[list[PEDef]], int]:
    if rows < 1 or cols < 1:
        raise LoomError(f"{what}: needs at least one row and one column")
    grid = [[select(r, c) for c in range(cols)] for r in range(rows)]
    widths = {_pe_width(pe, what, ports) for row in grid for pe in row}
    if len(widths) != 1:
        raise LoomError(f"{what}: every PE must share one network port width")
    return grid, widths.pop()


# --- chess mesh ----------------------------------------------------------------------


CHESS_STEP = 520.0
"""Distance between neighbouring switches in the sidecar (LOOM's minimum step)."""


def chess_mesh(b: AdgBuilder, rows: int, cols: int, select: PESelector,
               sides: dict[str, SidePorts] | None = None, tracks: int = 1,
               fifo_depths: tuple[int, int, int] = (0, 0, 0)) -> MeshResult:
    """LOOM's buildChessMesh; `sides` adds boundary ports per side switch,
    `tracks` the links each way between neighbouring switches and
    `fifo_depths` (output, input, backward), where set, a bypassable
    fabric.fifo of that depth on every PE output link (`<pe>_out<k>`), every
    PE input link (`<pe>_in<k>`) and every switch link that goes backward
    in body order (`<from>_to_<to>[_<track>]`: then no ring of switches has
    a structural register, AdgView.link_buffer finding no backward link)."""
    grid, width = _grid_pes(rows, cols, select, "chess mesh", 4)
    if tracks < 1:
        raise LoomError("chess mesh: needs at least one track between neighbouring switches")
    sr, sc = rows + 1, cols + 1
    extras = _side_extras(sides or {}, sr, sc)
    degree = {(r, c): _chess_degree(r, c, rows, cols, tracks) for r in range(sr) for c in range(sc)}
    template = _switch_templates(b, "chess_sw", width)
    result = MeshResult([[""] * cols for _ in range(rows)], [[""] * sc for _ in range(sr)])
    for r in range(sr):
        for c in range(sc):
            n_in = degree[(r, c)] + sum(e[1] for e in extras.get((r, c), []))
            n_out = degree[(r, c)] + sum(e[2] for e in extras.get((r, c), []))
            name = f"sw_{r}_{c}"
            b.instance(template(n_in, n_out), name)
            b.viz.place(name, 80 + CHESS_STEP * (c + 0.5), 80 + CHESS_STEP * (r + 0.5), r, c)
            result.switches[r][c] = name
    for r in range(rows):
        for c in range(cols):
            name = f"pe_{r}_{c}"
            b.instance(grid[r][c], name)
            b.viz.place(name, 80 + CHESS_STEP * (c + 1), 80 + CHESS_STEP * (r + 1), r, c)
            result.pes[r][c] = name
    ports = _Ports()

    def link(a: tuple[int, int], z: tuple[int, int], t: int) -> None:
        pa, pz = ports.both(a), ports.both(z)
        sa, sz = result.switches[a[0]][a[1]], result.switches[z[0]][z[1]]
        b.connect(PortRef(sa, pa), PortRef(sz, pz))
        back = PortRef(sz, pz)
        if fifo_depths[2]:   # z -> a goes backward in body order
            fifo = b.fifo(f"{sz}_to_{sa}" + (f"_{t}" if tracks > 1 else ""),
                          f"!fabric.bits<{width}>", fifo_depths[2], bypassable=True)
            b.connect(back, PortRef(fifo.name, 0))
            back = PortRef(fifo.name, 0)
        b.connect(back, PortRef(sa, pa))

    for r in range(sr):
        for c in range(cols):
            for t in range(tracks):
                link((r, c), (r, c + 1), t)
    for r in range(rows):
        for c in range(sc):
            for t in range(tracks):
                link((r, c), (r + 1, c), t)
    for r in range(rows):
        for c in range(cols):
            for k, at in enumerate(((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))):
                slot = ports.both(at)
                sw = result.switches[at[0]][at[1]]
                pe = result.pes[r][c]
                out, inp = PortRef(pe, k), PortRef(pe, k)
                if grid[r][c].temporal is not None:
                    out, inp = _tag_ops(b, grid[r][c], k, out, inp)
                if fifo_depths[0]:
                    fifo = b.fifo(f"{pe}_out{k}", f"!fabric.bits<{width}>", fifo_depths[0],
                                  bypassable=True)
                    b.connect(out, PortRef(fifo.name, 0))
                    out = PortRef(fifo.name, 0)
                if fifo_depths[1]:
                    fifo = b.fifo(f"{pe}_in{k}", f"!fabric.bits<{width}>", fifo_depths[1],
                                  bypassable=True)
                    b.connect(PortRef(fifo.name, 0), inp)
                    inp = PortRef(fifo.name, 0)
                b.connect(out, PortRef(sw, slot))
                b.connect(PortRef(sw, slot), inp)
    _boundary(result, extras, degree, degree)
    return result


def _tag_ops(b: AdgBuilder, pe: PEDef, k: int, out: PortRef,
             inp: PortRef) -> tuple[PortRef, PortRef]:
    """A temporal PE's port k on the untagged network: a del_tag after its
    output, an add_tag before its input, its tag 0 a hint: the mapper sets
    the tag of the slot that input feeds (mapper/temporal_slots.py)."""
    plain = _untagged(pe.outputs[k])
    leave = b.del_tag(pe.outputs[k], plain)
    b.connect(out, PortRef(leave.name, 0))
    enter = b.add_tag(plain, pe.inputs[k], 0)
    b.connect(PortRef(enter.name, 0), inp)
    return PortRef(leave.name, 0), PortRef(enter.name, 0)


def _chess_degree(r: int, c: int, rows: int, cols: int, tracks: int) -> int:
    """Links of corner switch (r, c): `tracks` per grid neighbour plus the PEs of its (up to) four cells."""
    neighbours = tracks * ((r > 0) + (r < rows) + (c > 0) + (c < cols))
    cells = sum(0 <= pr < rows and 0 <= pc < cols
                for pr in (r - 1, r) for pc in (c - 1, c))
    return neighbours + cells


def _boundary(result: MeshResult, extras: dict[tuple[int, int], list[tuple[str, int, int]]],
              in_base: dict[tuple[int, int], int], out_base: dict[tuple[int, int], int]) -> None:
    """Publish the extra ports after each switch's links, side by side in SIDES order."""
    result.ingress = {s: [] for s in SIDES}
    result.egress = {s: [] for s in SIDES}
    rows, cols = len(result.switches), len(result.switches[0])
    for side in SIDES:
        for at in _side_positions(side, rows, cols):
            next_in, next_out = in_base[at], out_base[at]
            for s, n_in, n_out in extras.get(at, []):
                if s == side:
                    name = result.switches[at[0]][at[1]]
                    result.ingress[side] += [PortRef(name, next_in + k) for k in range(n_in)]
                    result.egress[side] += [PortRef(name, next_out + k) for k in range(n_out)]
                next_in += n_in
                next_out += n_out


# --- lattice and torus meshes ----------------------------------------------------------


MESH_STEP = 420.0


def lattice_mesh(b: AdgBuilder, rows: int, cols: int, select: PESelector,
                 sides: dict[str, SidePorts] | None = None) -> MeshResult:
    """LOOM's buildLatticeMesh: a switch per PE, neighbour links without wrap-around."""
    return _switch_per_pe(b, rows, cols, select, sides or {}, wrap=False)


def torus_mesh(b: AdgBuilder, rows: int, cols: int, select: PESelector,
               sides: dict[str, SidePorts] | None = None) -> MeshResult:
    """LOOM's buildMesh/buildTorusMesh: every switch links N, S, E and W, wrapping around."""
    return _switch_per_pe(b, rows, cols, select, sides or {}, wrap=True)


def _switch_per_pe(b: AdgBuilder, rows: int, cols: int, select: PESelector,
                   sides: dict[str, SidePorts], wrap: bool) -> MeshResult:
    what = "torus mesh" if wrap else "lattice mesh"
    grid, width = _grid_pes(rows, cols, select, what, 1)
    n_pe_in = {len(pe.inputs) for row in grid for pe in row}
    n_pe_out = {len(pe.outputs) for row in grid for pe in row}
    if len(n_pe_in) != 1 or len(n_pe_out) != 1:
        raise LoomError(f"{what}: every PE must have the same number of ports")
    pe_in, pe_out = n_pe_in.pop(), n_pe_out.pop()
    links = _mesh_links(rows, cols, wrap)
    degree = {(r, c): 0 for r in range(rows) for c in range(cols)}
    for a, z in links:
        degree[a] += 1
        degree[z] += 1
    extras = _side_extras(sides, rows, cols)
    template = _switch_templates(b, "torus_sw" if wrap else "lattice_sw", width)
    result = MeshResult([[""] * cols for _ in range(rows)], [[""] * cols for _ in range(rows)])
    for r in range(rows):
        for c in range(cols):
            n_in = pe_out + degree[(r, c)] + sum(e[1] for e in extras.get((r, c), []))
            n_out = pe_in + degree[(r, c)] + sum(e[2] for e in extras.get((r, c), []))
            sw = result.switches[r][c] = f"sw_{r}_{c}"
            b.instance(template(n_in, n_out), sw)
            b.viz.place(sw, 100 + MESH_STEP * c, 100 + MESH_STEP * r, r, c)
    for r in range(rows):
        for c in range(cols):
            sw, pe = result.switches[r][c], f"pe_{r}_{c}"
            result.pes[r][c] = pe
            b.instance(grid[r][c], pe)
            b.viz.place(pe, 100 + MESH_STEP * c + MESH_STEP / 2, 100 + MESH_STEP * r, r, c)
            for p in range(pe_out):
                b.connect(PortRef(pe, p), PortRef(sw, p))
            for p in range(pe_in):
                b.connect(PortRef(sw, p), PortRef(pe, p))
    ports = _Ports()
    for (r, c) in degree:
        ports.next_in[(r, c)], ports.next_out[(r, c)] = pe_out, pe_in
    for a, z in links:
        sa, sz = result.switches[a[0]][a[1]], result.switches[z[0]][z[1]]
        b.connect(PortRef(sa, ports.take(a, ports.next_out)), PortRef(sz, ports.take(z, ports.next_in)))
        b.connect(PortRef(sz, ports.take(z, ports.next_out)), PortRef(sa, ports.take(a, ports.next_in)))
    _boundary(result, extras, dict(ports.next_in), dict(ports.next_out))
    return result


def _mesh_links(rows: int, cols: int, wrap: bool) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Undirected switch links: horizontal row by row, then vertical (each pair once)."""
    links = [((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    if wrap and cols > 1:
        links += [((r, cols - 1), (r, 0)) for r in range(rows)]
    links += [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    if wrap and rows > 1:
        links += [((rows - 1, c), (0, c)) for c in range(cols)]
    return links


__all__ = ["MeshResult", "SIDES", "SidePorts", "chess_mesh", "lattice_mesh", "spread",
           "torus_mesh"]

"""Mutants of SV templates: which sites each operator finds, and what it leaves alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from loom.mutation.template_mutants import OPERATORS, template_mutants

TEMPLATE = """\
// a comment: valid & ready == 1'b0 must stay
module {{ module }} (
{{ ports }}
);
{# a jinja comment: a && b #}
  logic full_q;
  assign ins_ready = ~full_q | outs_ready;
  assign outs_valid = full_q && go;
  always_ff @(posedge clk) begin
    if (rst)
      full_q <= 1'b0;
    else if (count_q <= 3'd6 && {{ w }} > 1)
      full_q <= ins_valid;
  end
endmodule
"""


def _found(operator: str) -> list[tuple[int, str, str]]:
    return [(m.line, m.original, m.replacement)
            for m in template_mutants("t.sv.j2", TEMPLATE, (operator,))]


def test_each_operator_finds_the_sites_written_out_by_hand():
    assert _found("logic") == [(7, "|", "&"), (8, "&&", "||"), (12, "&&", "||")]
    # line 11 and 13's `<=` are nonblocking assignments; line 12's is a
    # comparison, and so is its `>` after the (masked) Jinja expression
    assert _found("compare") == [(12, "<=", "<"), (12, ">", ">=")]
    assert _found("negation") == [(7, "~", "")]
    assert _found("term") == [(7, " ~full_q | outs_ready", " outs_ready"),
                              (7, " ~full_q | outs_ready", " ~full_q"),
                              (8, " full_q && go", " full_q"),
                              (8, " full_q && go", " go")]
    assert _found("reset") == [(11, "1'b0", "1'b1")]
    assert _found("constant") == [(12, "3'd6", "3'd7")]


def test_comments_and_jinja_tags_are_never_mutated():
    for m in template_mutants("t.sv.j2", TEMPLATE):
        assert m.line not in (1, 2, 3, 5), m.id
        assert "{{" not in m.original and "}}" not in m.replacement


def test_a_mutant_changes_its_site_only_and_refuses_a_changed_template():
    m = template_mutants("t.sv.j2", TEMPLATE, ("reset",))[0]
    mutated = m.apply(TEMPLATE)
    assert mutated.splitlines()[10] == "      full_q <= 1'b1;"
    assert [a for a, b in zip(mutated.splitlines(), TEMPLATE.splitlines()) if a != b] == \
        ["      full_q <= 1'b1;"]
    with pytest.raises(ValueError, match="changed"):
        m.apply(TEMPLATE.replace("1'b0", "1'bx"))


def test_a_constant_wraps_at_its_width():
    [m] = template_mutants("t.sv.j2", "  assign x = 2'd3;\n", ("constant",))
    assert m.replacement == "2'd0"


def test_every_template_gives_mutants_with_distinct_stable_ids():
    root = Path(__file__).resolve().parents[2] / "templates"
    ids: list[str] = []
    for path in sorted(root.glob("*.sv.j2")):
        text = path.read_text()
        first = template_mutants(path.name, text)
        assert [m.id for m in first] == [m.id for m in template_mutants(path.name, text)]
        for m in first:
            assert text[m.offset:m.offset + len(m.original)] == m.original
        ids += [m.id for m in first]
    assert len(ids) == len(set(ids)) > 1000
    assert {i.split(":")[3] for i in ids} == set(OPERATORS)

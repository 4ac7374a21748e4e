"""`<dfg>.<adg>.config.json`, `.config.bin` and `.config.h` in LOOM's layouts
(ConfigGenConfig.cpp, docs/loom-fabric-notes.md section 4.3): the words as
32-bit little-endian values with no header; the JSON summary with one entry
per slice; a C header with the words six to a line."""

from __future__ import annotations

import struct

from loom.mapper.adg_graph import AdgGraph
from loom.mapper.config_values import FabricConfig

COMPLETE_NOTE = "all currently modeled configurable slices serialized"
PARTIAL_NOTE = ("routing, tag, memory, spatial_pe, and temporal_pe slices serialized; "
                "some slice contents remain partially modeled")


def config_bin(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def read_config_bin(data: bytes) -> list[int]:
    if len(data) % 4:
        raise ValueError(f"{len(data)} bytes is not a whole number of 32-bit words")
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def config_json(config: FabricConfig, adg: AdgGraph) -> str:
    node_ids = {n.name: n.id for n in adg.nodes}
    slices = []
    for s in config.layout.slices:
        hw = "null" if s.kind in ("spatial_pe", "temporal_pe") else str(node_ids.get(s.name))
        complete = "true" if config.complete.get(s.name, True) else "false"
        slices.append(f'    {{"name": "{s.name}", "kind": "{s.kind}", "hw_node": {hw}, '
                      f'"word_offset": {s.word_offset}, "word_count": {s.word_count}, '
                      f'"complete": {complete}}}')
    done = config.all_complete
    return ("{\n"
            '  "word_width_bits": 32,\n'
            f'  "word_count": {len(config.words)},\n'
            f'  "byte_size": {4 * len(config.words)},\n'
            f'  "complete": {"true" if done else "false"},\n'
            f'  "coverage_note": "{COMPLETE_NOTE if done else PARTIAL_NOTE}",\n'
            f'  "words": [{", ".join(map(str, config.words))}],\n'
            '  "slices": [\n' + ",\n".join(slices) + "\n  ]\n}\n")


def config_header(config: FabricConfig, file_name: str) -> str:
    guard = "LOOM_" + "".join(c.upper() if c.isalnum() else "_" for c in file_name)
    words = config.words
    body = "0"
    if words:
        body = "\n    " + "".join(
            (",\n    " if i % 6 == 0 else ", ") * (i > 0) + f"0x{w:x}"
            for i, w in enumerate(words)) + "\n"
    return (f"#ifndef {guard}\n#define {guard}\n\n#include <stdint.h>\n\n"
            f"static const uint32_t loom_runtime_config_words[] = {{{body}}};\n"
            f"static const unsigned loom_runtime_config_word_count = {len(words)};\n"
            f"static const int loom_runtime_config_complete = {int(config.all_complete)};\n\n"
            "#endif\n")


__all__ = ["config_bin", "config_header", "config_json", "read_config_bin"]

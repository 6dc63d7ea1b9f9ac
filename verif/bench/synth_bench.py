#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Synthesis figures (weighted logic levels, estimated fmax, LUTs, FFs) for generated tops, with yosys.

Usage (from the repository root; ``make bench`` runs the default list):

    python verif/bench/synth_bench.py                      # default entries (+ the quick ones)
    python verif/bench/synth_bench.py --quick              # library blocks and small SUE tops only
    python verif/bench/synth_bench.py --all                # also the 1024-XPU tops at every width
    python verif/bench/synth_bench.py --only sue_rx_512_16x4 --levels   # some entries, with paths
    python verif/bench/synth_bench.py --entries my.json     # your own list
    python verif/bench/synth_bench.py --list [--quick|--all]

    # one design, fast: generate, synthesise, print levels, fmax estimate and the worst path
    python verif/bench/synth_bench.py --top sue_tx -p xpus=16 -p dataWidth=512 -p cells=512
    # re-analyse a kept netlist without synthesising again
    python verif/bench/synth_bench.py --netlist out/bench/synth/<label>/netlist.json.gz

An *entry* is ``{"label": ..., "top": ..., "params": {...}, "config": {...},
"targets": {"levels": N, "luts": N, "depth": N}, "tier": "default"|"quick"|"full"}`` (with
``"preset": NAME`` the generator's preset, ``params`` overriding it): the top
is generated with the generator jar (``java -jar gen/target/sue-gen.jar TOP -p k=v ...
--out-dir``), then synthesised out of context for a Xilinx 7-series-like target with

    yosys -p "read_verilog -sv -DSYNTHESIS <files>;
              synth_xilinx -top TOP -flatten -noiopad -noclkbuf -nowidelut;
              tee -o stat.txt stat; write_json netlist.json"

and the records below are written to ``out/bench/synth_<label>.json`` (a JSON array) and
appended, time-stamped, to ``out/bench/history.jsonl``:

* ``synth.levels`` (unit "levels"): weighted logic levels of the worst register-to-register
  path; the record also carries ``path`` (one step per cell: type, output net, cumulative
  level, SV source), ``signals`` (the path's RTL net names in order), ``endpoint`` and
  ``worst_endpoints`` (the 5 worst distinct endpoints). Target: 8 for SUE blocks, 6 for
  library blocks (the project's depth budget);
* ``synth.fmax_est_mhz`` (unit "MHz", ``"note": "estimate: ..."``): 1 / (0.45 ns x levels +
  0.6 ns), a LUT plus typical routing per level and clock-to-out, setup and skew once; an
  estimate to compare designs, not a timing analysis;
* ``synth.luts``  (unit "LUTs"):   cells that occupy a LUT in ``stat``: LUT1..LUT6,
  INV (a LUT1) and SRL16E/SRLC32E (shift registers built in a LUT);
* ``synth.ffs``   (unit "FFs"):    FDRE/FDSE/FDCE/FDPE cells;
* ``synth.depth`` (unit "cells"):  the most combinational cells on one register-to-register
  path, a CARRY4 counting one (the figure ``ltp`` gave before the levels existed);
* ``synth.lutram_cells`` and ``synth.bram`` when the design has memories.

How levels are counted (``analyze_levels``). The flat netlist of ``write_json`` is read in
Python, nothing deleted. Weights: LUT1-6 and INV 1, CARRY4 0.25 per CARRY4 cell on the path
(its CI -> CO chain is fast; a carry arc is per bit: CO[i]/O[i] depend on CI, CYINIT and
S/DI of stages 0..i), MUXF7/MUXF8 0.3. Paths start at flip-flop outputs (FD*: Q), block
RAM/FIFO/DSP outputs, input ports and constants, at level 0, and at the outputs of LUT RAMs
(RAM16/32/64/128/256*) and shift registers (SRL*) at level 1: their asynchronous read is a
LUT look-up. Paths end at every input of those cells but the clock (FDRE D, CE and R; every
RAMB input; a LUT RAM's read and write address, data and write enable) and at output ports.
So a path through a LUT RAM's read address is cut in two at the RAM: logic -> address, and
read (1 level) -> logic; registering the address (as the DSL's RAMs do) makes that exact. A
cell type with no model is an error, not a silent zero. The longest path is found once per
bit in topological order with memoisation (iterative, no recursion), linear in the netlist:
a 100k-cell netlist takes seconds. The path is reported with the net names yosys kept: a
public name (``hide_name`` 0, an RTL signal such as ``tx.qm.r_dest[3]``) where the bit has
one, else the internal ``$abc$...`` name; ``signals`` lists only the public ones.

Why these options. ``-noiopad``/``-noclkbuf``: the blocks are measured out of
context, without I/O buffers. ``-nowidelut``: with wide LUTs enabled, ABC maps
XOR-heavy logic into LUT7/LUT8 built from LUT6 + MUXF7/MUXF8 to save levels,
which roughly doubles the LUT count of a CRC and hides levels inside the muxes;
LUT6-only figures are closer to what vendor tools report and compare across
designs (MUXF7/F8 still appear for wide muxes and are weighted 0.3). ``-flatten``:
one module, so paths cross the hierarchy.

Tiers: ``default`` entries (the CRC, framer and 1024-XPU ``sue_tx``/``sue_endpoint`` figures
of the READMEs) and ``quick`` ones (every library block at a 512-bit-class size, small SUE tops
with 16 XPUs: seconds to a few minutes each) run by default; ``full`` entries (``sue_rx``,
``sue_tx`` and ``sue_endpoint`` at 256/512/1024 bits with 1024 XPUs x 4 VCs that the default
does not already cover: 10-20 minutes each) only with ``--all`` or ``--only``.

Runs are parallel (``--jobs``, default: CPU count) and each runs in its own
directory ``out/bench/synth/<label>/`` (the netlist kept there as ``netlist.json.gz``);
results are cached by the hash of the generated SV, the yosys script and ``yosys -V``
(``--no-cache`` forces a run), and the history file is appended under a lock, so concurrent
invocations are safe.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
JAR = Path(os.environ.get("SUE_GEN_JAR", REPO / "gen" / "target" / "sue-gen.jar"))
OUT = Path(os.environ.get("SUE_OUT", REPO / "out")) / "bench"

SYNTH = "synth_xilinx -top {top} -flatten -noiopad -noclkbuf -nowidelut"
NETLIST = "netlist.json"
# Cells that occupy a LUT: LUT1..LUT6, inverters (a LUT1) and shift registers (SRL16E/SRLC32E).
LUT_CELLS = r"LUT[1-6]|INV|SRL16E|SRLC32E"
# Distributed (LUT) RAM primitives and block RAMs, reported separately from logic LUTs.
LUTRAM_CELLS = r"RAM(16|32|64|128|256)[A-Z0-9_]*"
BRAM_CELLS = r"RAMB(18|36)[A-Z0-9_]*"
FLOW = "yosys synth_xilinx -flatten -noiopad -noclkbuf -nowidelut"
CACHE_VERSION = "3"
# Seconds one yosys run may take by default (--timeout): the 1024-XPU tops take an hour or more.
DEFAULT_TIMEOUT = 4 * 3600

# The depth budget (weighted levels of every register-to-register path): library blocks of
# hdl-dsl 6, the SUE blocks 8.
LIBRARY_LEVELS = 6
SUE_LEVELS = 8
LIBRARY_TOPS = frozenset({
    "stream_forward_register", "stream_skid_buffer", "stream_full_register", "stream_half_register",
    "stream_fifo", "async_stream_fifo", "bit_synchronizer", "pulse_synchronizer", "arbiter",
    "stream_arbiter", "stream_mux", "stream_demux", "stream_fork", "stream_join", "packet_upsizer",
    "packet_downsizer", "axis_width_adapter", "credit_sender", "credit_receiver", "crc_engine", "crc_appender", "crc_window",
    "word_read_mux",
})


def levels_budget(top: str) -> int:
    return LIBRARY_LEVELS if top in LIBRARY_TOPS else SUE_LEVELS


def entry(label: str, top: str, params: dict, tier: str = "quick", config: dict | None = None,
          targets: dict | None = None) -> dict:
    """A bench entry; its levels target is the top's depth budget unless `targets` says otherwise."""
    return {"label": label, "top": top, "params": params, "tier": tier,
            "config": config or {"block": top, **params},
            "targets": {"levels": levels_budget(top), **(targets or {})}}


# The flat 512-bit CRC-32 reference (whole words only) measured about 2,300
# LUTs and 4 LUT levels with yosys (issue "Hardware library", item 4).
CRC_REFERENCE_512 = {"luts": 2300, "depth": 4}


def crc_entry(label: str, data_width: int, byte_tails: bool, data_pipeline: int = 0, value: bool = True,
              check: bool = False, tail_steps: int = 2) -> dict:
    params = {"dataWidth": data_width, "byteTails": byte_tails, "dataPipeline": data_pipeline,
              "value": value, "check": check, "tailStepsPerCycle": tail_steps}
    config = {
        "block": "crc_engine",
        "crc": "CRC-32",
        "data_width": data_width,
        "byte_tails": byte_tails,
        "data_pipeline": data_pipeline,
        "outputs": "value+check" if value and check else "check" if check else "value",
        "tail_steps_per_cycle": tail_steps,
    }
    # The reference is for whole words; we hold the tail variants to it too.
    return entry(label, "crc_engine", params, "default", config,
                 dict(CRC_REFERENCE_512) if data_width == 512 else {})


def sue_top(top: str, width: int, xpus: int, tier: str, **extra) -> dict:
    """sue_tx / sue_rx / sue_endpoint at a bus width and size, IPv4 + UDP, no VLAN."""
    params = {"dataWidth": width, "xpus": xpus, "vcs": 4, "encap": 0, "vlan": False, **extra}
    config = {"block": top, "data_width": width, "xpus": xpus, "vcs": 4, "encap": "STD_IPV4",
              **{re.sub(r"(?<!^)([A-Z])", r"_\1", k).lower(): v for k, v in extra.items()}}
    return entry(f"{top}_{width}_{xpus}x4", top, params, tier, config)


# Cells of the transmit buffer at 1024 XPUs: 512 KB whatever the width.
BIG_CELLS = {256: 16384, 512: 8192, 1024: 4096}
# The endpoint's and sue_rx's RX buffer at 1024 XPUs: 256 KB.
BIG_RX_BUF = 262144

DEFAULT_ENTRIES = [
    crc_entry("crc32_512_words", 512, False),
    crc_entry("crc32_512_tails", 512, True),
    crc_entry("crc32_512_tails_step1", 512, True, tail_steps=1),
    crc_entry("crc32_512_tails_check", 512, True, value=False, check=True),
    crc_entry("crc32_1024_words", 1024, False),
    crc_entry("crc32_1024_tails", 1024, True),
    crc_entry("crc32_1024_tails_check", 1024, True, value=False, check=True),
    crc_entry("crc32_1024_tails_pipe", 1024, True, 1),
    # The 512-bit x 64-deep FIFO of the "Hardware library" issue, in both storage styles.
    entry("fifo_512x64_ram", "stream_fifo", {"width": 512, "depth": 64, "ram": True}, "default",
          {"block": "stream_fifo", "data_width": 512, "depth": 64, "storage": "ram"}),
    # The framer's one-beat R-CRC fast path alone (STD IPv4 windows at 512 and 1024 bits): its
    # depth is held to the CRC engine's.
    *[entry(f"crc_window_{b}", "crc_window", {"windowBytes": b, "maxTrail": b - 8}, "default",
            {"block": "crc_window", "crc": "CRC-32", "window_bytes": b, "max_trail": b - 8}, {"depth": 5})
      for b in (22, 86)],
    # The SUE frame builder (R-CRC appender and its one-beat fast path), STD_IPV4, 16 XPUs.
    *[entry(f"sue_framer_{w}", "sue_framer", {"dataWidth": w, "encap": 0, "vlan": False, "numXpus": 16}, "default",
            {"block": "sue_framer", "data_width": w, "encap": "STD_IPV4", "xpus": 16})
      for w in (512, 1024)],
    # AFH Gen 1 (no IPv4 checksum, whose carry chains are the STD framer's longest path): the
    # framer's own paths, the one-beat fast path included, set the depth.
    entry("sue_framer_512_afh1", "sue_framer", {"dataWidth": 512, "encap": 2, "vlan": False, "numXpus": 16},
          "default", {"block": "sue_framer", "data_width": 512, "encap": "AFH1", "xpus": 16}),
    # The SUE transmit top and the whole endpoint (transmit + receive + reliability) at the
    # realistic size: 1024 XPUs x 4 VCs, a 512 KB cell buffer, 256 KB RX buffer.
    *[sue_top("sue_tx", w, 1024, "default", cells=BIG_CELLS[w]) for w in (512, 1024)],
    *[sue_top("sue_endpoint", w, 1024, "default", cells=BIG_CELLS[w], rxBufBytes=BIG_RX_BUF) for w in (512, 1024)],
    # The rest of the matrix (sue_tx, sue_rx, sue_endpoint x 256/512/1024 at 1024x4):
    # 10-20 minutes each, with --all or --only.
    sue_top("sue_tx", 256, 1024, "full", cells=BIG_CELLS[256]),
    sue_top("sue_endpoint", 256, 1024, "full", cells=BIG_CELLS[256], rxBufBytes=BIG_RX_BUF),
    *[sue_top("sue_rx", w, 1024, "full", rxBufBytes=BIG_RX_BUF) for w in (256, 512, 1024)],
    # The spec Table 4 presets (sue-rtl/DESIGN-PORTS.md), as the generator's --preset builds them
    # (1024 XPUs x 4 VCs, 1024-bit XPU bus, ports of 1024/ports bits): an hour or more each.
    *[{**entry(name, "sue_endpoint", {}, "full", {"block": "sue_endpoint", "preset": name}), "preset": name}
      for name in ("sue_1x800g", "sue_2x400g", "sue_4x200g", "sue_1x400g", "sue_2x200g", "sue_4x100g")],
    # Small SUE tops for fast iteration: the same logic with 16 XPUs and small buffers.
    sue_top("sue_tx", 512, 16, "quick", cells=512),
    sue_top("sue_rx", 512, 16, "quick", rxBufBytes=65536),
    sue_top("sue_endpoint", 512, 16, "quick", cells=512, rxBufBytes=65536),
    # Every hdl-dsl library block at a 512-bit-class size (budget 6 levels).
    *[entry(f"{t}_512", t, {"width": 512, "packet": True})
      for t in ("stream_forward_register", "stream_skid_buffer", "stream_full_register", "stream_half_register")],
    entry("stream_fifo_512x8_regs", "stream_fifo", {"width": 512, "packet": True, "depth": 8, "ram": False}),
    entry("async_stream_fifo_512x16", "async_stream_fifo", {"width": 512, "packet": True, "depth": 16}),
    entry("bit_synchronizer_2", "bit_synchronizer", {"stages": 2}),
    entry("pulse_synchronizer_2", "pulse_synchronizer", {"stages": 2}),
    entry("arbiter_16_rr", "arbiter", {"requesters": 16, "roundRobin": True}),
    entry("stream_arbiter_4x512", "stream_arbiter", {"inputs": 4, "dataWidth": 512}),
    entry("stream_mux_4x512", "stream_mux", {"inputs": 4, "dataWidth": 512}),
    entry("stream_demux_4x512", "stream_demux", {"outputs": 4, "dataWidth": 512}),
    entry("stream_fork_4x512", "stream_fork", {"outputs": 4, "dataWidth": 512}),
    entry("stream_join_4x512", "stream_join", {"inputs": 4, "dataWidth": 512}),
    entry("packet_upsizer_128x4", "packet_upsizer", {"inputWidth": 128, "ratio": 4}),
    entry("packet_downsizer_512x4", "packet_downsizer", {"inputWidth": 512, "ratio": 4}),
    entry("axis_width_adapter_1024_256", "axis_width_adapter", {"inWidth": 1024, "outWidth": 256, "userWidth": 1}),
    entry("axis_width_adapter_256_1024", "axis_width_adapter", {"inWidth": 256, "outWidth": 1024, "userWidth": 1}),
    entry("credit_sender_512_c64", "credit_sender", {"dataWidth": 512, "capacity": 64, "initialCredits": 64}),
    entry("credit_receiver_c64", "credit_receiver", {"capacity": 64}),
    entry("crc_appender_512", "crc_appender", {"dataWidth": 512}),
    entry("word_read_mux_40x32", "word_read_mux", {"n": 40, "width": 32}),
]


# ---------------------------------------------------------------------------
# Weighted logic levels of the flat netlist (`write_json` after synth_xilinx)

# Level weights in hundredths (integers, so sums are exact): a LUT is one level, a CARRY4 a
# quarter (its chain is fast), a MUXF7/F8 behind a LUT 0.3.
COMB_WEIGHTS = {**{f"LUT{i}": 100 for i in range(1, 7)}, "INV": 100, "CARRY4": 25, "MUXF7": 30, "MUXF8": 30}
# The read of a LUT RAM or shift register is a LUT look-up behind the clock: its output starts a
# path at one level.
LUT_READ_WEIGHT = 100
# State-holding cells: every input but the clock ends a path, every output starts one (at
# LUT_READ_WEIGHT for LUT-based storage, 0 for flip-flops, block RAMs and DSPs).
FF_CELLS = re.compile(r"FD[A-Z]*(_1)?")
LUT_STORAGE_CELLS = re.compile(r"SRL[A-Z0-9_]*|RAM(16|32|64|128|256|512)[A-Z0-9_]*")
HARD_CELLS = re.compile(r"RAMB[A-Z0-9_]*|FIFO(18|36)[A-Z0-9_]*|DSP48[A-Z0-9_]*|URAM288[A-Z0-9_]*")
CLOCK_PINS = frozenset({"C", "CLK", "WCLK", "CLKARDCLK", "CLKBWRCLK", "RDCLK", "WRCLK", "CLKA", "CLKB"})
# Estimated fmax: 0.45 ns per level (a LUT plus typical routing) and 0.6 ns of clock-to-out,
# setup and skew.
NS_PER_LEVEL = 0.45
NS_FIXED = 0.6


SV_LOCATION = re.compile(r"[\w/.-]+\.sv:\d+")


def fmax_estimate_mhz(levels: float) -> float:
    """Estimated fmax in MHz of a path of `levels` weighted levels: 1 / (0.45 ns x levels + 0.6 ns)."""
    return round(1000.0 / (NS_PER_LEVEL * levels + NS_FIXED), 1)


def _carry4_deps(conn: dict) -> dict[int, list]:
    """Output bit -> input bits of one CARRY4: CO[i] sees CI, CYINIT, S[0..i], DI[0..i]; O[i] the
    carry into stage i (DI[0..i-1]) and S[0..i]."""
    base = list(conn.get("CI", [])) + list(conn.get("CYINIT", []))
    s, di = conn.get("S", []), conn.get("DI", [])
    deps: dict[int, list] = {}
    for i in range(4):
        for pin, n_di in (("CO", i + 1), ("O", i)):
            bits = conn.get(pin, [])
            if i < len(bits) and isinstance(bits[i], int):
                deps[bits[i]] = base + list(s[: i + 1]) + list(di[:n_di])
    return deps


def _bit_names(module: dict) -> tuple[dict[int, str], set[int]]:
    """(bit -> the net name a designer recognises, bits that have a public name): a public name
    (hide_name 0, an RTL signal such as ``tx.qm.r_dest[3]``) when the bit has one, the shortest
    such; otherwise the shortest hidden (``$``) name."""
    best: dict[int, tuple] = {}
    for name, net in module.get("netnames", {}).items():
        bits = net.get("bits", [])
        rank = (int(net.get("hide_name", 0)), len(name))
        for i, b in enumerate(bits):
            if isinstance(b, int) and (b not in best or rank < best[b][0]):
                best[b] = (rank, f"{name}[{i}]" if len(bits) > 1 else name, not rank[0])
    return {b: v[1] for b, v in best.items()}, {b for b, v in best.items() if v[2]}


def _top_module(netlist: dict, top: str | None) -> tuple[str, dict]:
    modules = netlist.get("modules")
    if not isinstance(modules, dict) or not modules:
        raise ValueError("not a yosys JSON netlist: no 'modules'")
    if top is not None:
        if top not in modules:
            raise ValueError(f"module {top!r} not in the netlist (modules with cells: "
                             f"{sorted(k for k, m in modules.items() if m.get('cells'))})")
        return top, modules[top]
    # yosys writes integer attributes as binary strings ("000...1").
    tops = [k for k, m in modules.items() if str(m.get("attributes", {}).get("top", "0")).strip("0")]
    if len(tops) != 1:
        raise ValueError(f"cannot tell the top module (marked top: {tops}); pass top=")
    return tops[0], modules[tops[0]]


def _src(cell: dict) -> str | None:
    """The cell's source location in the generated SV (not in yosys' own techmap files)."""
    for part in str(cell.get("attributes", {}).get("src", "")).split("|"):
        if part and "/share/yosys/" not in part:
            return part
    return None


def analyze_levels(netlist: dict, top: str | None = None, top_n: int = 5) -> dict[str, Any]:
    """Weighted logic levels of the worst register-to-register path of a flat yosys netlist.

    `netlist` is what `write_json` writes after `synth_xilinx -flatten`. LUT1-6 and INV count 1,
    CARRY4 0.25 per cell on the path, MUXF7/MUXF8 0.3. Paths start at flip-flop outputs (0),
    block RAM/FIFO/DSP outputs (0), LUT RAM and shift-register outputs (1: the LUT read), input
    ports and constants (0); they end at every input of those cells but the clock and at output
    ports. Arcs are per bit (a LUT's output depends on all its inputs, a CARRY4's CO[i]/O[i] on
    the chain below it), evaluated once each in topological order, iteratively, so the cost is
    linear in the netlist. Any other cell type is an error, so a new primitive cannot be
    silently skipped.

    Returns ``{"levels", "cells", "fmax_est_mhz", "path", "signals", "worst_endpoints"}``:
    ``levels`` is the worst weighted figure, ``cells`` the most combinational cells on any path
    (a CARRY4 or a LUT RAM read counting one, as ``ltp`` counted them); ``path`` the worst
    path from its start, one step per cell, each ``{"cell", "type", "net", "level", "src"}``
    (``net`` the public RTL name of the cell's output bit when yosys kept one); ``signals`` the
    path's public net names in order; ``worst_endpoints`` the `top_n` worst distinct endpoints
    (one per register or port, bits merged), each ``{"endpoint", "levels", "start"}``.
    """
    top, module = _top_module(netlist, top)
    comb: dict[int, tuple[int, str, list]] = {}  # bit -> (weight, cell name, input bits)
    start: dict[int, tuple[int, str]] = {}      # bit -> (start level, cell name)
    ends: list[tuple[int, str, str]] = []        # (bit, cell name or port, pin)
    unknown: dict[str, int] = {}
    cells = module.get("cells", {})

    def check_single_driver(bit, cell_name):
        if bit in comb or bit in start:
            other = comb[bit][1] if bit in comb else start[bit][1]
            raise ValueError(f"bit {bit} driven by both {other} and {cell_name}")

    for name, cell in cells.items():
        ctype = cell.get("type", "")
        dirs = cell.get("port_directions")
        conn = cell.get("connections", {})
        if dirs is None:
            raise ValueError(f"cell {name} ({ctype}) has no port_directions: write the netlist after synth_xilinx")
        outs = [b for p, d in dirs.items() if d != "input" for b in conn.get(p, []) if isinstance(b, int)]
        if ctype in COMB_WEIGHTS:
            w = COMB_WEIGHTS[ctype]
            if ctype == "CARRY4":
                deps = _carry4_deps(conn)
            else:
                ins = [b for p, d in dirs.items() if d == "input" for b in conn.get(p, [])]
                deps = {b: ins for b in outs}
            for b, ins in deps.items():
                check_single_driver(b, name)
                comb[b] = (w, name, ins)
            continue
        if FF_CELLS.fullmatch(ctype) or HARD_CELLS.fullmatch(ctype):
            level = 0
        elif LUT_STORAGE_CELLS.fullmatch(ctype):
            level = LUT_READ_WEIGHT
        else:
            unknown[ctype] = unknown.get(ctype, 0) + 1
            continue
        for b in outs:
            check_single_driver(b, name)
            start[b] = (level, name)
        for p, d in dirs.items():
            if d != "output" and p not in CLOCK_PINS:
                ends.extend((b, name, p) for b in conn.get(p, []) if isinstance(b, int))
    if unknown:
        raise ValueError(f"cell types with no timing model: {unknown} (known: {sorted(COMB_WEIGHTS)}, "
                         f"{FF_CELLS.pattern}, {LUT_STORAGE_CELLS.pattern}, {HARD_CELLS.pattern})")
    for pname, port in module.get("ports", {}).items():
        if port.get("direction") in ("output", "inout"):
            ends.extend((b, pname, "port") for b in port.get("bits", []) if isinstance(b, int))

    # Longest path to every bit an endpoint needs: iterative depth-first search, each bit
    # evaluated once after its inputs (memoised), a bit met again on the current path is a loop.
    level: dict[int, int] = {}
    ncells: dict[int, int] = {}
    pred: dict[int, int | None] = {}
    expanded: set[int] = set()
    for root, _, _ in ends:
        if root in level:
            continue
        stack = [root]
        while stack:
            b = stack[-1]
            if b in level:
                stack.pop()
                continue
            arc = comb.get(b)
            if arc is None:
                level[b] = start[b][0] if b in start else 0
                ncells[b] = 1 if level[b] else 0
                pred[b] = None
                stack.pop()
                continue
            ins = [i for i in arc[2] if isinstance(i, int)]
            if b not in expanded:
                expanded.add(b)
                for i in ins:
                    if i not in level:
                        if i in expanded:
                            raise ValueError(f"combinational loop through {arc[1]} (bit {i})")
                        stack.append(i)
                continue
            best, best_in, most = 0, None, 0
            for i in ins:
                if best_in is None or level[i] > best:
                    best, best_in = level[i], i
                most = max(most, ncells[i])
            level[b] = arc[0] + best
            ncells[b] = 1 + most
            pred[b] = best_in
            stack.pop()

    names, public = _bit_names(module)

    cell_names: dict[str, str] = {}

    def endpoint_name(bit: int, cell: str, pin: str) -> str:
        """A port's name; a cell's own name when public, else its first public output net's
        (a register's ``r_dest``), else the name of the bit that ends there."""
        if pin == "port":
            return cell
        if cell not in cell_names:
            cell_names[cell] = cell_endpoint_name(cell, bit)
        return cell_names[cell]

    def cell_endpoint_name(cell: str, bit: int) -> str:
        c = cells[cell]
        q = [b for p, d in c["port_directions"].items() if d == "output" for b in c["connections"].get(p, [])
             if isinstance(b, int)]
        if not int(c.get("hide_name", 0)):
            return cell
        named = [b for b in q if b in public]
        if named:
            return re.sub(r"\[\d+\]$", "", names[named[0]])
        return names.get(bit, cell)

    def walk(bit: int) -> list[int]:
        chain = [bit]
        while pred.get(chain[-1]) is not None:
            chain.append(pred[chain[-1]])
        return chain[::-1]

    def describe_start(bit: int) -> dict:
        if bit in start:
            c = cells[start[bit][1]]
            return {"cell": start[bit][1], "type": c["type"], "net": names.get(bit), "level": start[bit][0] / 100,
                    "src": _src(c)}
        return {"cell": None, "type": "port" if bit in names else "const", "net": names.get(bit), "level": 0.0,
                "src": None}

    # One entry per register, RAM or port (its bits and pins merged, the worst kept).
    worst_by_endpoint: dict[tuple[str, bool], tuple[int, int, str]] = {}
    for b, cell, pin in ends:
        key = (endpoint_name(b, cell, pin), pin == "port")
        if key not in worst_by_endpoint or level[b] > worst_by_endpoint[key][0]:
            worst_by_endpoint[key] = (level[b], b, pin)
    ranked = sorted(((k[0], v) for k, v in worst_by_endpoint.items()), key=lambda kv: (-kv[1][0], kv[0]))
    if not ranked:
        return {"top": top, "levels": 0.0, "cells": 0, "fmax_est_mhz": fmax_estimate_mhz(0), "path": [],
                "signals": [], "endpoint": None, "worst_endpoints": []}
    end_name, (worst, end_bit, end_pin) = ranked[0]
    chain = walk(end_bit)
    path = []
    for b in chain:
        if b in comb:  # a cell whose inputs are all constant starts the chain itself
            cname = comb[b][1]
            # ABC's LUTs carry no source; a hidden net name often embeds the SV line it came from.
            hint = SV_LOCATION.search(names.get(b, "")) if b not in public else None
            path.append({"cell": cname, "type": cells[cname]["type"], "net": names.get(b), "level": level[b] / 100,
                         "src": _src(cells[cname]) or (hint.group(0) if hint else None)})
        else:
            path.append(describe_start(b))
    path.append({"cell": end_name, "type": f"end ({end_pin})", "net": None, "level": worst / 100, "src": None})
    signals: list[str] = []
    for b in chain:
        if b in public and (not signals or signals[-1] != names[b]):
            signals.append(names[b])
    signals.append(end_name)
    return {
        "top": top,
        "levels": worst / 100,
        "cells": max((ncells[b] for b, _, _ in ends), default=0),
        "fmax_est_mhz": fmax_estimate_mhz(worst / 100),
        "endpoint": f"{end_name} ({end_pin})",
        "path": path,
        "signals": signals,
        "worst_endpoints": [
            {"endpoint": f"{k} ({pin})", "levels": lv / 100,
             "start": (lambda s: s["net"] or s["cell"])(describe_start(walk(b)[0]))}
            for k, (lv, b, pin) in ranked[:top_n]
        ],
    }


def format_path(result: dict) -> str:
    """The worst path as text, one cell a line: cumulative level, cell type, output net, source."""
    lines = [f"worst path: {result['levels']:g} levels, est. fmax {result['fmax_est_mhz']:g} MHz "
             f"(estimate), ends at {result['endpoint']}"]
    for step in result["path"]:
        net = step["net"] or step["cell"] or "-"
        src = f"  [{step['src']}]" if step.get("src") else ""
        lines.append(f"  {step['level']:6.2f}  {step['type']:12s} {net}{src}")
    lines.append("  signals: " + " -> ".join(result["signals"]))
    if result["worst_endpoints"]:
        lines.append("worst endpoints:")
        for e in result["worst_endpoints"]:
            lines.append(f"  {e['levels']:6.2f}  {e['endpoint']}  (from {e['start']})")
    return "\n".join(lines)


# ---------------------------------------------------------------------------


def _run(cmd: list[str], cwd: Path | None = None, timeout: float = 3600) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def yosys_version() -> str:
    return _run(["yosys", "-V"]).stdout.strip()


def generate(entry: dict, work: Path) -> tuple[str, list[Path]]:
    """Generate the entry's top into work/rtl; returns (top module, files)."""
    rtl = work / "rtl"
    shutil.rmtree(rtl, ignore_errors=True)
    # a preset entry: the generator's --preset (its parameters from the catalog), params override
    name = entry.get("preset") or entry["top"]
    cmd = ["java", "-jar", str(JAR)] + (["--preset", name] if entry.get("preset") else [name])
    for k, v in sorted(entry.get("params", {}).items()):
        cmd += ["-p", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    cmd += ["--out-dir", str(rtl)]
    p = _run(cmd)
    if p.returncode != 0:
        raise RuntimeError(f"generator failed ({p.returncode}): {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    report = json.loads((rtl / f"{name}.json").read_text())
    return report["top_module"], [rtl / f for f in report["files"]]


def yosys_script(top: str, files: list[Path]) -> str:
    return (
        f"read_verilog -sv -DSYNTHESIS {' '.join(str(f) for f in files)}; "
        f"{SYNTH.format(top=top)}; tee -q -o stat.txt stat; write_json {NETLIST}"
    )


def parse_stat(text: str) -> dict[str, int]:
    cells: dict[str, int] = {}
    for m in re.finditer(r"^\s+(\S+)\s+(\d+)\s*$", text, re.M):
        cells[m.group(1)] = int(m.group(2))
    return cells


def load_netlist(path: Path) -> dict:
    """A yosys JSON netlist, plain or gzipped."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return json.load(f)


def synthesize(entry: dict, out: Path, use_cache: bool = True, timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
    label = entry["label"]
    work = out / "synth" / label
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    top, files = generate(entry, work)
    gen_s = time.monotonic() - t0
    script = yosys_script(top, [f.relative_to(work) for f in files])
    h = hashlib.sha256()
    for part in (CACHE_VERSION, script, yosys_version()):
        h.update(part.encode() + b"\0")
    for f in files:
        # Without the generator's stamp line (version, commit): it changes no netlist (EmitOptions.STAMP_LINE).
        data = re.sub(rb"^// Generator: [^\n]*\n", b"", f.read_bytes(), count=1, flags=re.M)
        h.update(f.name.encode() + b"\0" + data + b"\0")
    key = h.hexdigest()[:16]
    cache = work / "result.json"
    if use_cache and cache.is_file():
        cached = json.loads(cache.read_text())
        if cached.get("key") == key:
            cached["cache_hit"] = True
            return cached
    t1 = time.monotonic()
    p = _run(["yosys", "-q", "-l", "yosys.log", "-p", script], cwd=work, timeout=timeout)
    syn_s = time.monotonic() - t1
    if p.returncode != 0:
        raise RuntimeError(f"yosys failed for {label} ({p.returncode}); see {work / 'yosys.log'}\n{p.stderr[-3000:]}")
    cells = parse_stat((work / "stat.txt").read_text())
    t2 = time.monotonic()
    netlist = work / NETLIST
    levels = analyze_levels(load_netlist(netlist), top)
    # Keep the netlist for re-analysis (`--netlist`), compressed: the 1024-XPU tops write ~100 MB.
    with open(netlist, "rb") as src, gzip.open(str(netlist) + ".gz", "wb", compresslevel=3) as dst:
        shutil.copyfileobj(src, dst)
    netlist.unlink()
    result = {
        "key": key,
        "label": label,
        "top": top,
        "luts": sum(v for k, v in cells.items() if re.fullmatch(LUT_CELLS, k)),
        "ffs": sum(v for k, v in cells.items() if re.fullmatch(r"FD[RSCP]E(_1)?", k)),
        "depth": levels["cells"],
        "levels": levels,
        "cells": {k: v for k, v in cells.items() if re.fullmatch(r"[A-Z][A-Z0-9_]+", k)},
        "generate_seconds": round(gen_s, 2),
        "synth_seconds": round(syn_s, 1),
        "levels_seconds": round(time.monotonic() - t2, 1),
        "cache_hit": False,
    }
    cache.write_text(json.dumps(result, indent=2) + "\n")
    return result


def records(entry: dict, result: dict) -> list[dict]:
    config = dict(entry.get("config") or {"block": entry["top"], **entry.get("params", {})})
    config.setdefault("block", entry["top"])
    config["flow"] = FLOW
    targets = entry.get("targets", {})
    lv = result["levels"]
    levels_target = targets.get("levels")
    out = [
        {"metric": "synth.levels", "config": config, "value": lv["levels"], "unit": "levels",
         "target": levels_target,
         "note": "worst register-to-register path: LUT1-6/INV 1, CARRY4 0.25, MUXF7/F8 0.3, LUT RAM/SRL read 1",
         "endpoint": lv["endpoint"], "signals": lv["signals"], "path": lv["path"],
         "worst_endpoints": lv["worst_endpoints"]},
        {"metric": "synth.fmax_est_mhz", "config": config, "value": lv["fmax_est_mhz"], "unit": "MHz",
         "target": fmax_estimate_mhz(levels_target) if levels_target is not None else None,
         "note": f"estimate: 1 / ({NS_PER_LEVEL} ns x levels + {NS_FIXED} ns), not a timing analysis"},
    ]
    for metric, key, unit in (("synth.luts", "luts", "LUTs"), ("synth.ffs", "ffs", "FFs"),
                              ("synth.depth", "depth", "cells")):
        out.append({"metric": metric, "config": config, "value": result[key], "unit": unit,
                    "target": targets.get(key)})
    # Memories are not logic LUTs: report LUT RAM and block RAM beside them, only when present.
    cells = result.get("cells", {})
    lutram = sum(v for k, v in cells.items() if re.fullmatch(LUTRAM_CELLS, k))
    bram = sum(v for k, v in cells.items() if re.fullmatch(BRAM_CELLS, k))
    if lutram:
        out.append({"metric": "synth.lutram_cells", "config": config, "value": lutram, "unit": "RAM cells",
                    "target": None})
    if bram:
        out.append({"metric": "synth.bram", "config": config, "value": bram, "unit": "RAMB18/36",
                    "target": None})
    return out


def write(out: Path, label: str, recs: list[dict]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / f".synth_{label}.json.{os.getpid()}"
    tmp.write_text(json.dumps(recs, indent=2) + "\n")
    tmp.replace(out / f"synth_{label}.json")
    now = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    lines = "".join(json.dumps({**r, "time": now}, separators=(",", ":")) + "\n" for r in recs)
    try:
        from filelock import FileLock
    except ImportError:  # the venv has it; fall back to O_APPEND's atomicity for small writes
        FileLock = None
    hist = out / "history.jsonl"
    if FileLock is not None:
        with FileLock(str(hist) + ".lock"):
            with open(hist, "a") as f:
                f.write(lines)
    else:
        with open(hist, "a") as f:
            f.write(lines)


def _param(text: str) -> tuple[str, Any]:
    """`-p k=v` of the one-design mode, typed as the built-in entries are (int, bool or text)."""
    if "=" not in text or text.startswith("="):
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    k, v = text.split("=", 1)
    if v.lower() in ("true", "false"):
        return k, v.lower() == "true"
    try:
        return k, int(v, 0)
    except ValueError:
        return k, v


def one_design_entry(top: str, params: list[tuple[str, Any]]) -> dict:
    """An ad-hoc entry for `--top`: labelled by top and parameters, no targets but the depth budget."""
    p = dict(params)
    label = "_".join([top] + [f"{k}{str(v).lower()}" for k, v in sorted(p.items())])
    label = re.sub(r"[^A-Za-z0-9_.=-]", "_", label)
    return {"label": label, "top": top, "params": p, "targets": {"levels": levels_budget(top)}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See the module docstring (head -80 verif/bench/synth_bench.py) for the method.")
    sel = ap.add_mutually_exclusive_group()
    sel.add_argument("--entries", type=Path, help="JSON file with a list of entries (default: the built-in list)")
    sel.add_argument("--top", help="one design: generate TOP with -p parameters, synthesise, print levels and path")
    sel.add_argument("--netlist", type=Path, help="analyse an existing yosys JSON netlist (.json or .json.gz) only")
    ap.add_argument("-p", dest="params", action="append", type=_param, default=[], metavar="NAME=VALUE",
                    help="generator parameter for --top (repeatable)")
    tier = ap.add_mutually_exclusive_group()
    tier.add_argument("--quick", action="store_true", help="only the quick entries (library blocks, small SUE tops)")
    tier.add_argument("--all", action="store_true", help="every entry, the big 1024-XPU tops at every width too")
    ap.add_argument("--only", nargs="+", metavar="LABEL", help="run only these labels (any tier)")
    ap.add_argument("--levels", action="store_true", help="print the worst path and endpoints of each entry")
    ap.add_argument("--out", type=Path, default=OUT, help=f"output directory (default {OUT})")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-cache", action="store_true", help="synthesise even when the SV is unchanged")
    ap.add_argument("--list", action="store_true", help="list the entries and exit")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per yosys run")
    args = ap.parse_args(argv)
    if args.params and not args.top:
        ap.error("-p only goes with --top")
    if args.jobs < 1:
        ap.error(f"--jobs must be at least 1, got {args.jobs}")

    if args.netlist:
        if not args.netlist.is_file():
            ap.error(f"{args.netlist}: no such file")
        try:
            res = analyze_levels(load_netlist(args.netlist))
        except (ValueError, json.JSONDecodeError, OSError) as ex:
            print(f"error: {args.netlist}: {ex}", file=sys.stderr)
            return 1
        print(format_path(res))
        return 0

    if args.top:
        entries = [one_design_entry(args.top, args.params)]
        args.levels = True
    elif args.entries:
        entries = json.loads(args.entries.read_text())
    else:
        entries = DEFAULT_ENTRIES
    if args.only:
        unknown = set(args.only) - {e["label"] for e in entries}
        if unknown:
            ap.error(f"unknown label(s) {sorted(unknown)}; known: {[e['label'] for e in entries]}")
        entries = [e for e in entries if e["label"] in args.only]
    elif args.quick:
        entries = [e for e in entries if e.get("tier") == "quick"]
    elif not args.all and not args.top:
        entries = [e for e in entries if e.get("tier", "default") in ("default", "quick")]
    if args.list:
        for e in entries:
            print(f"{e['label']:30s} {e.get('tier', 'default'):8s} {e['top']} {e.get('params', {})}")
        return 0
    if not JAR.is_file():
        print(f"error: {JAR} not found: run `make jar` first", file=sys.stderr)
        return 2
    if shutil.which("yosys") is None:
        print("error: yosys not found (make tools)", file=sys.stderr)
        return 2

    t0 = time.monotonic()
    failed = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {e["label"]: pool.submit(synthesize, e, args.out, not args.no_cache, args.timeout) for e in entries}
        rows = []
        for e in entries:
            try:
                res = futures[e["label"]].result()
            except Exception as ex:  # report every entry, fail at the end
                print(f"FAIL  {e['label']}: {ex}", file=sys.stderr)
                failed += 1
                continue
            write(args.out, e["label"], records(e, res))
            rows.append((e, res))
    print(f"{'label':30s} {'LUTs':>7s} {'FFs':>6s} {'levels':>6s} {'target':>6s} {'fmax~':>6s} {'cells':>5s} "
          f"{'LUTRAM':>6s} {'BRAM':>4s} {'synth s':>8s}")
    for e, r in rows:
        t = "cached" if r["cache_hit"] else f"{r['synth_seconds']:.1f}"
        cells = r.get("cells", {})
        lutram = sum(v for k, v in cells.items() if re.fullmatch(LUTRAM_CELLS, k))
        bram = sum(v for k, v in cells.items() if re.fullmatch(BRAM_CELLS, k))
        lv = r["levels"]
        target = e.get("targets", {}).get("levels")
        over = "*" if target is not None and lv["levels"] > target else " "
        print(f"{e['label']:30s} {r['luts']:7d} {r['ffs']:6d} {lv['levels']:5.2f}{over} "
              f"{'-' if target is None else target:>6} {lv['fmax_est_mhz']:6.0f} {r['depth']:5d} {lutram:6d} {bram:4d} {t:>8s}")
    if args.levels:
        for e, r in rows:
            print(f"\n== {e['label']} ({e['top']} {e.get('params', {})})")
            print(format_path(r["levels"]))
    print(f"synth_bench: {len(rows)} entr{'y' if len(rows) == 1 else 'ies'} in {time.monotonic() - t0:.1f} s "
          f"-> {args.out}/synth_<label>.json ({FLOW}; levels: LUT 1, CARRY4 0.25, MUXF 0.3; "
          f"fmax~ = estimate 1/({NS_PER_LEVEL} ns x levels + {NS_FIXED} ns); * = over the levels target)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

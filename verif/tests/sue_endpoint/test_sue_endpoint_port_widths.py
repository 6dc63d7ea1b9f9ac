# SPDX-License-Identifier: Apache-2.0
"""SUE endpoint with MAC ports narrower than the XPU bus (``sue_endpoint -p portWidth=W``,
sue-rtl/DESIGN-PORTS.md "Widths"): each plane stays at dataWidth and reaches its port through an
AxiStreamWidthAdapter each way. Two instances back to back through the fault-injecting link models
(tb_sue_pair.py; its MAC agents take the port width from the ports): every op delivered exactly
once, in order per {source, VC}, frame accounting per port. Here too: the generator's refusals of
a port width that is not a power of two in 64..dataWidth, and of one that cannot carry the port's
rate at the given clock (exit 2, naming the valid values)."""

from __future__ import annotations

import json
import subprocess

import pytest

from common import generate, run_cocotb
from common.pair_wrapper import pair_design
from common.paths import JAR

from test_sue_endpoint import OPT, PARAMS, SCENARIOS, env_of


# One pair model (a Verilator build of its own at -O1): two ports of 64 bits, where one port of 64
# bits and two of 128 bits were two models (until 2026-11). Narrow ports with several ports and the
# ratio-4 adapters run here; the adapters at ratio 2 (256 <-> 128, the dropped model's) run in
# verif/tests/axis_width_adapter (256to128 and 128to256, cocotbext-axi frames checked byte for
# byte); one port at full width runs in test_sue_endpoint.py.
NARROW_PORTS, NARROW_WIDTH = 2, 64


@pytest.mark.parametrize("ports,port_width,seed", [(NARROW_PORTS, NARROW_WIDTH, 32)])
def test_narrow_ports_pair_faulty_links(ports, port_width, seed):
    """256-bit XPU buses; two ports of 64 bits (ratio 4); loss, corruption and duplication on every
    link. PDUs of at most 512 bytes: with two ports each link carries a few dozen full-size frames,
    and a 1 % fault may then never happen (the bench refuses a fault configured but never
    injected)."""
    params = {**PARAMS, "ports": ports, "portWidth": port_width}
    design = generate("sue_endpoint", params)
    env = {**env_of(design, params), "TB_PORTS": str(ports), "TB_OPS": "400", "TB_PACK_LIMIT": "512",
           **SCENARIOS["loss1_corrupt_dup"]}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=seed, opt=OPT)


def gen(tmp_path, *params: str) -> subprocess.CompletedProcess:
    args = ["java", "-jar", str(JAR), "sue_endpoint", "-p", "xpus=16", "--out-dir", str(tmp_path)]
    for p in params:
        args += ["-p", p]
    return subprocess.run(args, capture_output=True, text=True)


@pytest.mark.parametrize("width", ["32", "96", "1000"])
def test_generator_refuses_bad_port_widths(tmp_path, width):
    r = gen(tmp_path, "dataWidth=512", f"portWidth={width}")
    assert r.returncode == 2, r.stderr
    assert f"'portWidth' = {width} with dataWidth 512; valid values: 0 (= dataWidth), 64, 128, 256, 512" in r.stderr, \
        r.stderr


def test_generator_refuses_port_wider_than_xpu_bus(tmp_path):
    r = gen(tmp_path, "dataWidth=256", "portWidth=512")
    assert r.returncode == 2, r.stderr
    assert "valid values: 0 (= dataWidth), 64, 128, 256 (up to dataWidth)" in r.stderr, r.stderr


def test_generator_refuses_port_too_slow_for_its_rate(tmp_path):
    # 256 bits x 400 MHz = 102.4 Gb/s < 200G; 512 bits carry it (204.8 Gb/s)
    r = gen(tmp_path, "dataWidth=1024", "ports=4", "portWidth=256", "clockMhz=400", "portGbps=200")
    assert r.returncode == 2, r.stderr
    assert "carry 102.4 Gb/s, less than a 200G port: valid portWidth at this clock: 512, 1024" in r.stderr, r.stderr
    assert "the clock must be >= 782 MHz" in r.stderr, r.stderr


def test_generator_wants_clock_and_rate_together(tmp_path):
    r = gen(tmp_path, "clockMhz=400")
    assert r.returncode == 2, r.stderr
    assert "give clockMhz and portGbps together" in r.stderr, r.stderr


def test_ports_tx_every_op_on_its_port(tmp_path):
    """tb_sue_ports_tx.py (the ports bench's testbench) at 2 ports of 64 bits behind a 256-bit XPU
    bus: 64-byte writes to one destination per port, every op decoded from the MAC frames, once, in
    order per {destination, VC}, on its destination's port. It runs on endpoint A of the narrow-port
    pair model above (TB_PREFIX; B idle). Until 2026-11 it ran on a model of its own (the bench's
    one endpoint, 8 XPUs, 4096 cells: verif/bench/ports_bench.py), a Verilator build of 73.7 CPU-s
    for the same RTL paths; the bench's own parameters run in `make bench`."""
    params = {**PARAMS, "ports": NARROW_PORTS, "portWidth": NARROW_WIDTH}
    design = generate("sue_endpoint", params)
    results = tmp_path / "thr.json"
    env = {**env_of(design, params), "TB_PREFIX": "a_", "TB_SCENARIO": "throughput", "TB_WINDOW": "1024",
           "TB_RESULTS": str(results), "TB_OPS": "120", "TB_DATA_LEN": "64"}
    run_cocotb(pair_design(design), "tb_sue_ports_tx", extra_env=env, seed=1, opt=OPT)
    r = json.loads(results.read_text())
    assert r["ops"] == 120 and sum(r["ops_per_port"]) == 120 and min(r["ops_per_port"]) == 60, r
    assert (r["ports"], r["data_width"], r["port_width"]) == (NARROW_PORTS, 256, NARROW_WIDTH), r


def test_lint_clean_narrow_ports():
    """The adapters inside the endpoint (2 ports of 64 bits behind 256-bit planes): verilator -Wall,
    Icarus, Yosys as make lint runs them (make lint covers the default top, which has none)."""
    from common.lint import assert_lints_clean

    assert_lints_clean("sue_endpoint", {"dataWidth": 256, "portWidth": 64, "ports": 2, "xpus": 16, "vcs": 2,
                                        "cells": 512, "rxBufBytes": 16384})

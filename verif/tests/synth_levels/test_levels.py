# SPDX-License-Identifier: Apache-2.0
"""Weighted logic levels of synth_bench.analyze_levels, against figures worked out by hand.

Hand-written yosys JSON netlists (the shape `write_json` gives after `synth_xilinx`) check each
weight and each kind of path end on its own; two tiny designs through real yosys check the
figure on netlists yosys actually writes: a 64-input XOR between registers needs three LUT6
levels (6^2 < 64 <= 6^3), a 16-bit registered adder one LUT2 per bit and four CARRY4 cells.
"""

import importlib.util
import shutil
import subprocess
import time
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "synth_bench.py"
_spec = importlib.util.spec_from_file_location("synth_bench", BENCH)
sb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sb)

IN, OUT = "input", "output"
PINS = {
    "FDRE": {"C": IN, "CE": IN, "D": IN, "R": IN, "Q": OUT},
    "INV": {"I": IN, "O": OUT},
    "MUXF7": {"I0": IN, "I1": IN, "S": IN, "O": OUT},
    "CARRY4": {"CI": IN, "CYINIT": IN, "DI": IN, "S": IN, "CO": OUT, "O": OUT},
    "RAM32M": {"ADDRA": IN, "ADDRD": IN, "DIA": IN, "WE": IN, "WCLK": IN, "DOA": OUT},
    "RAMB18E1": {"CLKARDCLK": IN, "ADDRARDADDR": IN, "DIADI": IN, "WEA": IN, "DOADO": OUT},
    "SRLC32E": {"CLK": IN, "CE": IN, "D": IN, "A": IN, "Q": OUT, "Q31": OUT},
    "DSP48E1": {"CLK": IN, "A": IN, "P": OUT},
    "WEIRD": {"I": IN, "O": OUT},
}
for k in range(1, 7):
    PINS[f"LUT{k}"] = {**{f"I{i}": IN for i in range(k)}, "O": OUT}


class Netlist:
    """Builds a one-module yosys JSON netlist; bit 2 is the clock port."""

    def __init__(self):
        self.cells, self.nets, self.ports = {}, {}, {"clk": {"direction": IN, "bits": [2]}}
        self.next_bit = 3

    def bits(self, name, width=1, public=True):
        b = list(range(self.next_bit, self.next_bit + width))
        self.next_bit += width
        self.nets[name] = {"hide_name": 0 if public else 1, "bits": b}
        return b

    def cell(self, name, ctype, **conn):
        conn = {p: (v if isinstance(v, list) else [v]) for p, v in conn.items()}
        self.cells[name] = {"hide_name": 1 if name.startswith("$") else 0, "type": ctype,
                            "port_directions": {p: PINS[ctype][p] for p in conn}, "connections": conn,
                            "attributes": {"src": f"top.sv:{len(self.cells) + 1}.1-1.2"}}

    def ff(self, name, d, q, ce="1"):
        self.cell(f"$ff${name}", "FDRE", C=2, CE=ce, R="0", D=d, Q=q)

    def port(self, name, direction, bits):
        self.ports[name] = {"direction": direction, "bits": bits}
        self.nets[name] = {"hide_name": 0, "bits": bits}

    def json(self):
        return {"modules": {"top": {"attributes": {"top": "00000000000000000000000000000001"},
                                    "ports": self.ports, "cells": self.cells, "netnames": self.nets}}}


def test_three_luts_between_registers():
    n = Netlist()
    a, x, y, z, q = (n.bits(s)[0] for s in ("r_a", "u.x", "u.y", "u.z", "r_b"))
    other = n.bits("r_c")[0]
    n.ff("a", d="0", q=a)
    n.ff("c", d="0", q=other)
    n.cell("$abc$l1", "LUT2", I0=a, I1=other, O=x)
    n.cell("$abc$l2", "LUT1", I0=x, O=y)
    n.cell("$abc$l3", "LUT3", I0=y, I1=a, I2=other, O=z)
    n.ff("b", d=z, q=q)
    r = sb.analyze_levels(n.json())
    assert r["levels"] == 3.0
    assert r["cells"] == 3
    assert r["fmax_est_mhz"] == pytest.approx(1000 / (0.45 * 3 + 0.6), abs=0.1)
    assert r["signals"] == ["r_a", "u.x", "u.y", "u.z", "r_b"]
    assert [s["type"] for s in r["path"]] == ["FDRE", "LUT2", "LUT1", "LUT3", "end (D)"]
    assert [s["level"] for s in r["path"]] == [0.0, 1.0, 2.0, 3.0, 3.0]
    assert r["path"][1]["src"] == "top.sv:3.1-1.2"
    assert r["endpoint"] == "r_b (D)"


def test_carry_chain_quarter_per_carry4_and_per_bit_arcs():
    n = Netlist()
    a = n.bits("r_a", 16)
    s = n.bits("sum_s", 16)
    co = n.bits("$co", 16, public=False)
    o = n.bits("sum", 16)
    q = n.bits("r_sum", 16)
    for i in range(16):
        n.ff(f"a{i}", d="0", q=a[i])
        n.cell(f"$abc$s{i}", "LUT2", I0=a[i], I1="1", O=s[i])
        n.ff(f"sum{i}", d=o[i], q=q[i])
    for k in range(4):
        n.cell(f"$carry{k}", "CARRY4", CI="0" if k == 0 else co[4 * k - 1], CYINIT="0",
               DI=["0"] * 4, S=s[4 * k:4 * k + 4], CO=co[4 * k:4 * k + 4], O=o[4 * k:4 * k + 4])
    r = sb.analyze_levels(n.json())
    # a[0] -> LUT2 -> four CARRY4 cells -> sum[15]
    assert r["levels"] == 2.0
    assert [p["type"] for p in r["path"]].count("CARRY4") == 4
    assert r["path"][0]["net"] == "r_a[0]" and r["endpoint"] == "r_sum (D)"
    # per-bit arcs: sum[0] sees only S[0] (and the constant CI), so one LUT and one CARRY4
    ends = {e["endpoint"]: e["levels"] for e in r["worst_endpoints"]}
    assert ends == {"r_sum (D)": 2.0}


def test_muxf7_counts_0_3():
    n = Netlist()
    a, b, m, q = n.bits("r_a")[0], n.bits("l0")[0], n.bits("m")[0], n.bits("r_q")[0]
    n.ff("a", d="0", q=a)
    n.cell("$abc$l", "LUT6", I0=a, I1=a, I2=a, I3=a, I4=a, I5=a, O=b)
    n.cell("$mux", "MUXF7", I0=b, I1="0", S=a, O=m)
    n.ff("q", d=m, q=q)
    assert sb.analyze_levels(n.json())["levels"] == 1.3


def test_lut_ram_read_starts_at_one_and_its_inputs_end_paths():
    n = Netlist()
    a, addr, do, x, q = (n.bits(s)[0] for s in ("r_a", "addr", "rd", "x", "r_q"))
    n.ff("a", d="0", q=a)
    n.cell("$abc$addr", "LUT1", I0=a, O=addr)
    n.cell("mem.0.0", "RAM32M", ADDRA=[addr, "0", "0", "0", "0"], ADDRD=[a, "0", "0", "0", "0"], DIA=[a, a],
           WE=a, WCLK=2, DOA=[do, n.bits("$rd1", public=False)[0]])
    n.cell("$abc$x", "LUT2", I0=do, I1=a, O=x)
    n.cell("$abc$y", "INV", I=x, O=n.bits("y")[0])
    n.ff("q", d=n.nets["y"]["bits"][0], q=q)
    r = sb.analyze_levels(n.json())
    assert r["levels"] == 3.0  # read 1 + LUT2 + INV
    assert r["path"][0]["type"] == "RAM32M" and r["path"][0]["level"] == 1.0
    assert r["signals"][0] == "rd" and r["endpoint"] == "r_q (D)"
    ends = {e["endpoint"]: e["levels"] for e in r["worst_endpoints"]}
    assert ends["mem.0.0 (ADDRA)"] == 1.0  # the address logic ends at the RAM
    assert "mem.0.0 (WCLK)" not in ends


def test_block_ram_srl_dsp_and_ports_end_and_start_paths():
    n = Netlist()
    pin = n.bits("in_data")[0]
    n.port("in_data", IN, [pin])
    x, do, y, sq, z, dp = (n.bits(s)[0] for s in ("x", "bram_do", "y", "srl_q", "z", "dsp_p"))
    n.cell("$abc$x", "LUT1", I0=pin, O=x)
    n.cell("$abc$x2", "LUT1", I0=x, O=n.bits("x2")[0])
    n.cell("ram.bram", "RAMB18E1", CLKARDCLK=2, ADDRARDADDR=[x], DIADI=[n.nets["x2"]["bits"][0]], WEA=["1"],
           DOADO=[do])
    n.cell("$abc$y", "LUT1", I0=do, O=y)
    n.cell("$srl", "SRLC32E", CLK=2, CE="1", D=y, A=["1"] * 5, Q=sq, Q31=n.bits("$q31", public=False)[0])
    n.cell("$abc$z", "LUT1", I0=sq, O=z)
    n.cell("$dsp", "DSP48E1", CLK=2, A=[z], P=[dp])
    n.port("out", OUT, [dp])
    r = sb.analyze_levels(n.json())
    ends = {e["endpoint"]: e["levels"] for e in r["worst_endpoints"]}
    # in_data -> 2 LUTs -> RAMB data; RAMB out -> 1 LUT -> SRL; SRL read 1 + LUT -> DSP; DSP -> port
    assert r["levels"] == 2.0
    # one entry per cell (its worst pin), named by its output net; the port apart from the DSP
    assert ends == {"ram.bram (DIADI)": 2.0, "out (A)": 2.0, "srl_q (D)": 1.0, "out (port)": 0.0}


def test_worst_endpoints_merge_bits_of_one_register():
    n = Netlist()
    a = n.bits("r_a", 4)
    for i in range(4):
        n.ff(f"a{i}", d="0", q=a[i])
    q = n.bits("r_q", 4)
    prev = a[0]
    for i in range(4):  # bit i of r_q is i+1 LUTs deep
        nxt = n.bits(f"$n{i}", public=False)[0]
        n.cell(f"$abc$c{i}", "LUT2", I0=prev, I1=a[i], O=nxt)
        n.ff(f"q{i}", d=nxt, q=q[i])
        prev = nxt
    p = n.bits("r_p")[0]
    n.ff("p", d=a[3], q=p)
    r = sb.analyze_levels(n.json(), top_n=5)
    assert [(e["endpoint"], e["levels"]) for e in r["worst_endpoints"]] == [("r_q (D)", 4.0), ("r_p (D)", 0.0)]
    assert r["worst_endpoints"][0]["start"] == "r_a[0]"
    assert r["signals"] == ["r_a[0]", "r_q"]  # hidden nets are in the path but not in signals
    assert r["path"][2]["net"] == "$n1"


def test_long_chain_is_iterative_and_linear():
    n = Netlist()
    a = n.bits("r_a")[0]
    n.ff("a", d="0", q=a)
    prev = a
    for i in range(50_000):  # far beyond Python's recursion limit
        nxt = n.next_bit
        n.next_bit += 1
        n.cell(f"$abc$l{i}", "LUT1", I0=prev, O=nxt)
        prev = nxt
    n.ff("q", d=prev, q=n.bits("r_q")[0])
    t0 = time.monotonic()
    r = sb.analyze_levels(n.json())
    assert r["levels"] == 50_000.0
    assert time.monotonic() - t0 < 10


def test_unknown_cell_type_and_loops_are_errors():
    n = Netlist()
    n.cell("$w", "WEIRD", I="0", O=n.bits("w")[0])
    with pytest.raises(ValueError, match="no timing model: {'WEIRD': 1}"):
        sb.analyze_levels(n.json())
    n = Netlist()
    x, y = n.bits("x")[0], n.bits("y")[0]
    n.cell("$abc$a", "LUT1", I0=y, O=x)
    n.cell("$abc$b", "LUT1", I0=x, O=y)
    n.ff("q", d=x, q=n.bits("r_q")[0])
    with pytest.raises(ValueError, match="combinational loop"):
        sb.analyze_levels(n.json())
    with pytest.raises(ValueError, match="not in the netlist"):
        sb.analyze_levels(n.json(), top="nope")


def test_fmax_estimate():
    assert sb.fmax_estimate_mhz(8) == pytest.approx(238.1, abs=0.05)
    assert sb.fmax_estimate_mhz(6) == pytest.approx(303.0, abs=0.05)


# --- through real yosys ------------------------------------------------------------------

XOR_SV = """
module top(input logic clk, input logic [63:0] d, output logic y);
  logic [63:0] r_in;
  always_ff @(posedge clk) begin
    r_in <= d;
    y <= ^r_in;
  end
endmodule
"""

ADD_SV = """
module top(input logic clk, input logic [15:0] a, input logic [15:0] b, output logic [15:0] s);
  logic [15:0] r_a, r_b;
  always_ff @(posedge clk) begin
    r_a <= a;
    r_b <= b;
    s <= r_a + r_b;
  end
endmodule
"""


def synth(tmp_path, sv):
    (tmp_path / "top.sv").write_text(sv)
    subprocess.run(["yosys", "-q", "-p", f"read_verilog -sv top.sv; {sb.SYNTH.format(top='top')}; "
                    "write_json net.json"], cwd=tmp_path, check=True, capture_output=True)
    return sb.load_netlist(tmp_path / "net.json")


@pytest.mark.skipif(shutil.which("yosys") is None, reason="yosys not installed")
def test_yosys_xor64_is_three_lut_levels(tmp_path):
    r = sb.analyze_levels(synth(tmp_path, XOR_SV))
    assert r["levels"] == 3.0
    assert r["signals"][0].startswith("r_in[") and r["signals"][-1] == "y"
    assert [p["type"][:3] for p in r["path"][1:-1]] == ["LUT"] * 3


@pytest.mark.skipif(shutil.which("yosys") is None, reason="yosys not installed")
def test_yosys_adder_is_a_lut_and_four_carry4(tmp_path):
    r = sb.analyze_levels(synth(tmp_path, ADD_SV))
    types = [p["type"] for p in r["path"][1:-1]]
    assert types.count("CARRY4") == 4 and r["levels"] == 1 + 4 * 0.25, sb.format_path(r)
    assert r["signals"][0].startswith(("r_a[", "r_b[")) and r["endpoint"] == "s (D)"


def test_records_carry_levels_path_and_labelled_estimate():
    n = Netlist()
    a, x, q = n.bits("r_a")[0], n.bits("x")[0], n.bits("r_q")[0]
    n.ff("a", d="0", q=a)
    n.cell("$abc$x", "LUT1", I0=a, O=x)
    n.ff("q", d=x, q=q)
    result = {"luts": 1, "ffs": 2, "depth": 1, "cells": {"LUT1": 1, "FDRE": 2},
              "levels": sb.analyze_levels(n.json())}
    recs = {r["metric"]: r for r in sb.records(sb.entry("t", "crc_engine", {"dataWidth": 8}), result)}
    lv, fm = recs["synth.levels"], recs["synth.fmax_est_mhz"]
    assert (lv["value"], lv["unit"], lv["target"]) == (1.0, "levels", 6)  # a library block
    assert lv["signals"] == ["r_a", "x", "r_q"] and lv["path"][1]["type"] == "LUT1"
    assert fm["value"] == sb.fmax_estimate_mhz(1.0) and fm["note"].startswith("estimate")
    assert fm["target"] == sb.fmax_estimate_mhz(6)
    assert sb.entry("t", "sue_rx", {})["targets"]["levels"] == 8
    assert {"synth.luts", "synth.ffs", "synth.depth"} <= set(recs)


def test_one_design_mode_arguments():
    assert sb._param("xpus=16") == ("xpus", 16)
    assert sb._param("vlan=TRUE") == ("vlan", True)
    assert sb._param("polynomial=0x1EDC6F41") == ("polynomial", 0x1EDC6F41)
    e = sb.one_design_entry("sue_tx", [sb._param("xpus=16"), sb._param("dataWidth=512")])
    assert e["label"] == "sue_tx_dataWidth512_xpus16" and e["params"] == {"xpus": 16, "dataWidth": 512}
    with pytest.raises(SystemExit):
        sb.main(["-p", "xpus=16"])  # -p without --top
    with pytest.raises(SystemExit):
        sb.main(["--top", "sue_tx", "-p", "xpus"])  # not NAME=VALUE

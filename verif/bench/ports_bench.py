#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Port benchmarks of ``sue_endpoint``: aggregate transmit throughput at 1, 2 and 4 ports, and the
latency of every spec Table 4 preset (sue-rtl/DESIGN-PORTS.md, "Benches").

Usage (from the repository root, with the project venv; ``make bench`` runs it):

    .venv/bin/python verif/bench/ports_bench.py --out out/bench [--no-presets]
    # the throughput runs only, at 4 VCs, 1 and 4 ports, 400 256-byte writes per port (records in
    # ports_vcs4.json; 480 do not fit the 4096 cells per plane at 4 VCs: sue-rtl/DESIGN-PORTS.md "Benches")
    .venv/bin/python verif/bench/ports_bench.py --out out/bench --no-presets --vcs 4 --ports 1,4 --ops256 400

Every figure comes from a run of verif/tests/sue_endpoint/tb_sue_ports_tx.py on Verilator: one
endpoint whose XPU writes to one destination per port (a pair cannot load several ports in strict
mode: a peer is bound to one port), each frame decoded and every op checked to leave once, in
order per {destination, VC}, on its destination's port. Records go to ``out/bench/ports.json``:

* ``ports.ops_per_cycle``: 64- and 256-byte writes (8 control bytes; 1200 and 480 per port), XPU never idle, MACs always
  ready, at 1, 2 and 4 ports of ``PORT_WIDTH`` bits behind a ``DATA_WIDTH``-bit XPU bus (each
  plane reaches its port through the width adapters): ops that left per cycle. Beside it
  ``ports.scaling``: that figure / (ports x the one-port figure), target 0.95 (issue 15). The XPU
  bus takes one beat per cycle, so at most 1 / ceil(data bytes / XPU bytes) ops per cycle
  (``xpu_cap_ops_per_cycle`` in the config): where ports x the one-port figure exceeds it, the
  ratio is capped at cap / (ports x one-port) and the note says so.
* ``ports.latency_cycles`` at 1, 2 and 4 ports of the throughput configuration, and
  ``ports.latency_cycles`` / ``ports.latency_ns_at_fmax`` per preset (``sue_1x800g`` ..
  ``sue_4x100g``, simulated at the preset's widths and ports with ``PRESET_SIM`` for the fabric
  and buffers): an idle system's 64-byte write, its last XPU beat accepted -> its frame's first
  MAC beat (through the downsizer), worst over every port; in ns at the preset's estimated fmax
  (yosys synth_bench entry ``<preset>`` when measured into the bench directory, else the DSL's
  depth estimate of the preset itself, 1024 XPUs) and at the clock the preset needs.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "verif"))
sys.path.insert(0, str(REPO / "verif" / "tests" / "sue_endpoint"))

from common import generate, run_cocotb  # noqa: E402
from common.paths import JAR  # noqa: E402

DATA_WIDTH, PORT_WIDTH = 256, 64
XPUS, VCS = 8, 2
# ops per port: every run gives each port as many ops as the one-port run (so the runs last alike: the
# planes' backlogs, hence their PDU sizes, build up over the run when the XPU bus barely outpaces the
# ports, e.g. 4 ports x 64 bits behind 256 bits with 256-byte writes; sue-rtl/DESIGN-PORTS.md, "Benches")
OPS_PER_PORT = {64: 1200, 256: 480}
TARGET = 0.95
# the fabric and buffers the presets are simulated with (their widths and ports are kept)
PRESET_SIM = {"xpus": XPUS, "vcs": VCS, "cells": 2048, "rxBufBytes": 32768}


def throughput_params(ports: int, vcs: int = VCS) -> dict:
    return {"dataWidth": DATA_WIDTH, "portWidth": PORT_WIDTH, "ports": ports, "xpus": XPUS, "vcs": vcs,
            "cells": 4096, "rxBufBytes": vcs * 4096, "encap": 0, "vlan": False}


def run(params: dict, scenario: str, results: Path, **env) -> dict:
    design = generate("sue_endpoint", params)
    e = {"TB_SCENARIO": scenario, "TB_REGS_DIR": str(design.dir), "TB_XPUS": str(params["xpus"]),
         "TB_VCS": str(params["vcs"]), "TB_RESULTS": str(results), "TB_WINDOW": "1024"}
    e.update({k: str(v) for k, v in env.items()})
    run_cocotb(design, "tb_sue_ports_tx", extra_env=e, seed=1, opt="sim",
               test_dir=results.parent / results.stem)
    return json.loads(results.read_text())


def presets() -> dict[str, dict]:
    """The Table 4 presets from the generator's catalog (``--list``): name -> parameters."""
    text = subprocess.run(["java", "-jar", str(JAR), "--list"], capture_output=True, text=True, check=True).stdout
    out = {}
    for m in re.finditer(r"^\s*(sue_\dx\d+g)\s.*\(top sue_endpoint \{([^}]*)\}\)", text, re.M):
        out[m.group(1)] = dict(kv.split("=") for kv in m.group(2).split(", "))
    if len(out) != 6:
        raise SystemExit(f"ports_bench: expected the 6 Table 4 presets in --list, found {sorted(out)}")
    return out


def preset_fmax(name: str, params: dict, bench_dir: Path) -> dict:
    measured = bench_dir / f"synth_{name}.json"
    if measured.is_file():
        records = {r["metric"]: r for r in json.loads(measured.read_text())}
        if "synth.fmax_est_mhz" in records:
            return {"mhz": records["synth.fmax_est_mhz"]["value"], "levels": records["synth.levels"]["value"],
                    "source": f"yosys synth_xilinx weighted levels, synth_bench entry {name} (estimate)"}
    depth = generate("sue_endpoint", params).report["depth"]
    return {"mhz": depth["fmax_est_mhz"], "levels": depth["worst_levels"],
            "source": f"DSL depth estimate of {name} (estimate)"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "out" / "bench")
    ap.add_argument("--no-presets", action="store_true", help="skip the per-preset latency runs")
    ap.add_argument("--vcs", type=int, default=VCS, choices=(1, 2, 4),
                    help=f"VCs of the throughput runs (default {VCS}; other values write ports_vcs<N>.json)")
    ap.add_argument("--ports", default="1,2,4", help="port counts of the throughput runs (1 must be among them)")
    ap.add_argument("--ops256", type=int, default=OPS_PER_PORT[256], help="256-byte writes per port "
                    f"(default {OPS_PER_PORT[256]}; no peer frees a cell, so a plane's cells must hold them all)")
    args = ap.parse_args()
    port_counts = [int(x) for x in args.ports.split(",")]
    if port_counts[0] != 1 or any(p not in (1, 2, 4) for p in port_counts):
        ap.error("--ports: 1 first, then 2 and/or 4")
    args.out.mkdir(parents=True, exist_ok=True)
    ops_per_port = {**OPS_PER_PORT, 256: args.ops256}
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for dlen in (64, 256):
            xpu_cap = 1 / -(-dlen // (DATA_WIDTH // 8))
            one = None
            for ports in port_counts:
                p = throughput_params(ports, args.vcs)
                r = run(p, "throughput", t / f"thr_{ports}_{dlen}.json", TB_OPS=ports * ops_per_port[dlen],
                        TB_DATA_LEN=dlen)
                rate = r["ops_per_cycle"]
                one = rate if ports == 1 else one
                cfg = {"block": "sue_endpoint", **p, "op_data_bytes": dlen, "xpu_cap_ops_per_cycle": round(xpu_cap, 4)}
                records.append({"metric": "ports.ops_per_cycle", "config": cfg, "value": round(rate, 4),
                                "unit": "ops/cycle",
                                "note": f"ops per port {r['ops_per_port']}, {r['cycles']} cycles; frames per port "
                                        f"{r['frames_per_port']} of {r['frame_bytes_mean']} bytes on average, MAC "
                                        f"tvalid share {r['port_busy']}, XPU waiting for credits "
                                        f"{r['xpu_credit_wait']} of the cycles"})
                if ports > 1:
                    ideal = ports * one
                    ratio = rate / ideal
                    capped = ideal > xpu_cap
                    note = (f"{ports} x the one-port {one:.4f} = {ideal:.4f} ops/cycle is above the XPU bus's "
                            f"{xpu_cap:.4f} (one beat per cycle): the ratio can reach at most "
                            f"{xpu_cap / ideal:.3f}; against the cap {rate / xpu_cap:.3f}" if capped else
                            f"{ports} x the one-port {one:.4f} = {ideal:.4f} ops/cycle, within the XPU bus's "
                            f"{xpu_cap:.4f}")
                    records.append({"metric": "ports.scaling", "config": cfg, "value": round(ratio, 4),
                                    "unit": "fraction of ports x one port", "target": TARGET, "note": note})
                if dlen == 64:
                    lat = run(p, "latency", t / f"lat_{ports}.json", TB_DATA_LEN=dlen)
                    records.append({"metric": "ports.latency_cycles", "config": {"block": "sue_endpoint", **p,
                                                                                 "op_data_bytes": dlen},
                                    "value": lat["tx_cycles_max"], "unit": "cycles",
                                    "note": f"64-byte write: last XPU beat accepted -> first MAC beat, worst over "
                                            f"the ports (min {lat['tx_cycles_min']})"})
                print(f"{dlen}-byte writes, {ports} port(s) x {PORT_WIDTH} bits, XPU {DATA_WIDTH} bits: "
                      f"{rate:.4f} ops/cycle (per port {r['ops_per_port']})"
                      + (f", {rate / (ports * one):.3f} of {ports} x one port" if ports > 1 else ""))
        if not args.no_presets:
            for name, pp in presets().items():
                params = {k: (int(v) if v.isdigit() else v) for k, v in pp.items()}
                sim = {**params, **PRESET_SIM, "encap": 0, "vlan": False}
                sim.pop("clockMhz"), sim.pop("portGbps")
                r = run(sim, "latency", t / f"lat_{name}.json", TB_DATA_LEN=64)
                fmax = preset_fmax(name, params, args.out)
                cyc = r["tx_cycles_max"]
                cfg = {"block": "sue_endpoint", "preset": name, **sim}
                records.append({"metric": "ports.latency_cycles", "config": cfg, "value": cyc, "unit": "cycles",
                                "note": f"64-byte write: last XPU beat accepted -> first MAC beat, worst over the "
                                        f"ports (min {r['tx_cycles_min']}); simulated with {PRESET_SIM}"})
                records.append({"metric": "ports.latency_ns_at_fmax", "config": {**cfg, "fmax_mhz": fmax["mhz"],
                                "fmax_levels": fmax["levels"], "fmax_source": fmax["source"]},
                                "value": round(cyc * 1000 / fmax["mhz"], 1), "unit": "ns"})
                records.append({"metric": "ports.latency_ns_at_needed_clock",
                                "config": {**cfg, "clock_mhz": params["clockMhz"]},
                                "value": round(cyc * 1000 / params["clockMhz"], 1), "unit": "ns",
                                "note": f"at the {params['clockMhz']} MHz {name} needs for its rate"})
                print(f"{name}: TX latency {cyc} cycles = {cyc * 1000 / fmax['mhz']:.1f} ns at the estimated "
                      f"{fmax['mhz']} MHz ({fmax['source']}), {cyc * 1000 / params['clockMhz']:.1f} ns at the "
                      f"{params['clockMhz']} MHz it needs")
    name = "ports.json" if args.vcs == VCS else f"ports_vcs{args.vcs}.json"
    (args.out / name).write_text(json.dumps(records, indent=1) + "\n")
    print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

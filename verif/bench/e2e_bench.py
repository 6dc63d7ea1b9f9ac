#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""End-to-end benchmarks of the SUE endpoint: two ``sue_endpoint`` instances back to back.

Usage (from the repository root, with the project venv; ``make bench`` runs it):

    .venv/bin/python verif/bench/e2e_bench.py --out out/bench [--widths 256 512]

Every figure comes from a run of verif/tests/sue_endpoint/tb_sue_pair.py on Verilator with all
of its checks (exactly-once in-order delivery, frame accounting), so a figure is only reported
for a correct run. Records go to ``out/bench/e2e.json``:

* ``rx.latency_cycles``: idle system, the last MAC beat of a frame into the receiving endpoint
  -> the first ``rx_*`` beat of its op (worst of the run). Target 8.
* ``e2e.latency_cycles`` / ``e2e.latency_ns`` (at 800 MHz and 1 GHz): idle system, a 64-byte and a
  256-byte write: SUE TX + SUE RX, i.e. the sending XPU's op accepted (its last beat) -> the
  sending MAC's last beat of the frame, plus the receiving MAC's last beat -> the receiving XPU's
  first beat (the pair's figure less the link's measured share, which a wire would not add: the
  link model stores the whole frame, so its beats pass twice, and the receiving MAC source starts
  a cycle after the model's delay). Beside the spec's 100 ns TX+RX budget.
* ``e2e.pair_latency_cycles``: the pair's own figure, op accepted -> receiving XPU's first beat,
  less the link model's fixed ``LINK_LATENCY`` only (the store-and-forward link's extra beats and
  the bench's cycle stay in it): the figure published before session 16.
* ``e2e.latency_ns_at_fmax``, ``rx.latency_ns_at_fmax``, ``recovery.ns_at_fmax``: the same figures
  in ns at the estimated fmax of ``sue_endpoint`` at that width with 1024 XPUs x 4 VCs
  (``verif/common/fmax.py``: yosys weighted levels when synth_bench has measured it, else the DSL's
  depth estimate); the config names the clock and its source. Target for a 64-byte write: 100 ns
  (spec budget), stretch 50 ns.
* ``recovery.cycles``: a steady stream of 64-byte writes, one data PDU lost on the link: the
  worst op latency minus the median (the NACK round trip and the replay).
* ``loss.throughput_fraction``: 64-byte writes both ways, XPUs never idle: delivered ops per cycle
  with 1 % of frames lost (plus go-back-N) divided by the same run without loss. Twice: with the
  MACs always ready (``mac_ready`` 1.0) and with the MACs taking a beat in half the cycles
  (``mac_ready`` 0.5). With the MACs always ready the lossless run need not be link-bound (at 512
  bits the packer takes a 64-byte write in two cycles, ``tx.op_rate`` of tx_bench.py), and
  retransmissions then use spare link cycles; at 0.5 the link is the bottleneck, so the fraction
  is go-back-N's own cost. The notes give each run's MAC TX utilisation (beats per cycle).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "verif"))
sys.path.insert(0, str(REPO / "verif" / "tests" / "sue_endpoint"))

from common import generate, run_cocotb  # noqa: E402
from common.fmax import estimated_fmax, ns  # noqa: E402
from common.pair_wrapper import pair_design  # noqa: E402

WIDTHS = (256, 512, 1024)
XPUS, VCS = 4, 2
LINK_LATENCY = 20
CLOCKS_MHZ = (800, 1000)
SPEC_BUDGET_NS = 100
STRETCH_NS = 50


def params(width: int) -> dict:
    cells = {256: 768, 512: 512, 1024: 384}[width]
    return {"dataWidth": width, "xpus": XPUS, "vcs": VCS, "cells": cells, "rxBufBytes": VCS * 8192 * (width // 256),
            "encap": 0, "vlan": False}


def run(width: int, scenario: str, results: Path, **env) -> dict:
    design = generate("sue_endpoint", params(width))
    e = {"TB_SCENARIO": scenario, "TB_REGS_DIR": str(design.dir), "TB_XPUS": str(XPUS),
         "TB_VCS": str(VCS), "TB_RESULTS": str(results), "TB_LINK_LATENCY": str(LINK_LATENCY)}
    e.update({k: str(v) for k, v in env.items()})
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=e, seed=width, opt="sim",
               test_dir=results.parent / f"{scenario}_{width}_{results.stem}")
    return json.loads(results.read_text())


def utilisation(result: dict) -> str:
    """MAC TX beats per cycle of both sides of a throughput run."""
    return "/".join(f"{u:.3f}" for u in result["mac_tx_utilisation"].values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "out" / "bench")
    ap.add_argument("--widths", type=int, nargs="+", default=[256, 512], choices=WIDTHS)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for w in args.widths:
            cfg = {"block": "sue_endpoint", **params(w)}
            fmax = estimated_fmax("sue_endpoint", w, args.out)
            at_fmax = {"fmax_mhz": fmax["mhz"], "fmax_levels": fmax["levels"], "fmax_source": fmax["source"]}
            rx_worst = 0
            for dlen in (64, 256):
                lat = run(w, "latency", t / f"lat{w}_{dlen}.json", TB_OPS=16, TB_DATA_LEN=dlen)
                rx_worst = max(rx_worst, lat["rx_cycles_max"])
                sue = lat["sue_cycles_max"]
                pair = lat["e2e_cycles_max"] - LINK_LATENCY
                c = {**cfg, "op_data_bytes": dlen}
                records.append({"metric": "e2e.latency_cycles", "config": c, "value": sue, "unit": "cycles",
                                "note": f"SUE TX (XPU op accepted -> MAC TX last beat of its frame) + SUE RX (MAC RX "
                                        f"last beat -> peer XPU first beat); link {lat['link_cycles_min']}.."
                                        f"{lat['link_cycles_max']} cycles measured and excluded; worst of {16}"})
                records.append({"metric": "e2e.pair_latency_cycles", "config": c, "value": pair, "unit": "cycles",
                                "note": f"XPU op accepted -> peer XPU first beat, the link model's {LINK_LATENCY} cycles "
                                        f"excluded (its store-and-forward beats and the bench's cycle kept); worst of 16"})
                for mhz in CLOCKS_MHZ:
                    records.append({"metric": "e2e.latency_ns", "config": {**c, "clock_mhz": mhz},
                                    "value": round(sue * 1000 / mhz, 1), "unit": "ns", "target": SPEC_BUDGET_NS})
                records.append({"metric": "e2e.latency_ns_at_fmax", "config": {**c, **at_fmax},
                                "value": ns(sue, fmax), "unit": "ns", "target": SPEC_BUDGET_NS, "stretch": STRETCH_NS})
                print(f"w{w} {dlen}-byte write: pair {pair} cycles (link model's {LINK_LATENCY} excluded), "
                      f"SUE TX+RX {sue} cycles = {ns(sue, fmax)} ns at the estimated "
                      f"{fmax['mhz']} MHz ({', '.join(f'{sue * 1000 / m:.1f} ns @ {m} MHz' for m in CLOCKS_MHZ)}), "
                      f"rx {lat['rx_cycles_min']}..{lat['rx_cycles_max']} cycles")
            records.append({"metric": "rx.latency_cycles", "config": cfg, "value": rx_worst, "unit": "cycles",
                            "target": 8, "note": "last MAC beat in -> first XPU beat out, idle system"})
            records.append({"metric": "rx.latency_ns_at_fmax", "config": {**cfg, **at_fmax}, "value": ns(rx_worst, fmax),
                            "unit": "ns", "note": "last MAC beat in -> first XPU beat out, idle system"})
            rec = run(w, "recovery", t / f"rec{w}.json", TB_OPS=200, TB_LOSE_DATA_FRAME=60)
            records.append({"metric": "recovery.cycles", "config": cfg, "value": rec["recovery_cycles"],
                            "unit": "cycles", "note": f"one data PDU lost; baseline op latency "
                                                      f"{rec['baseline_cycles']} cycles incl. {LINK_LATENCY}-cycle link"})
            records.append({"metric": "recovery.ns_at_fmax", "config": {**cfg, **at_fmax},
                            "value": ns(rec["recovery_cycles"], fmax), "unit": "ns",
                            "note": "one data PDU lost, on top of the median op latency"})
            fracs = []
            for mac_ready in (1.0, 0.5):
                tag = f"{w}_{int(mac_ready * 100)}"
                clean = run(w, "throughput", t / f"thr{tag}.json", TB_OPS=1500, TB_MAC_BP=1 - mac_ready)
                lossy = run(w, "throughput", t / f"thrl{tag}.json", TB_OPS=1500, TB_MAC_BP=1 - mac_ready, TB_DROP=0.01)
                frac = lossy["ops_per_cycle"] / clean["ops_per_cycle"]
                fracs.append(f"{frac:.3f} (MAC ready {mac_ready})")
                records.append({"metric": "loss.throughput_fraction",
                                "config": {**cfg, "loss": 0.01, "op_data_bytes": 64, "mac_ready": mac_ready},
                                "value": round(frac, 4), "unit": "fraction of lossless",
                                "note": f"lossless {clean['ops_per_cycle']:.3f} ops/cycle, MAC TX utilisation "
                                        f"{utilisation(clean)}; 1 % loss {lossy['ops_per_cycle']:.3f} ops/cycle, "
                                        f"{utilisation(lossy)}; retransmissions {lossy['retransmissions']}"})
            print(f"w{w}: rx latency {rx_worst} cycles ({ns(rx_worst, fmax)} ns), recovery {rec['recovery_cycles']} cycles "
                  f"({ns(rec['recovery_cycles'], fmax)} ns) at the estimated {fmax['mhz']} MHz ({fmax['source']}), "
                  f"throughput under 1 % loss {', '.join(fracs)} of lossless")
    name = "e2e.json" if args.widths == [256, 512] else f"e2e_{'_'.join(map(str, args.widths))}.json"
    (args.out / name).write_text(json.dumps(records, indent=1) + "\n")
    print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

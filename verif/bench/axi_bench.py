#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""256-byte writes through the AXI4 XPU interface against the same writes through the FIFO one.

Usage (from the repository root, with the project venv; ``make bench`` runs it):

    .venv/bin/python verif/bench/axi_bench.py --out out/bench [--widths 512] [--ops 512]

Two pairs of ``sue_endpoint`` back to back (xpus 4, vcs 2, the cells and receive buffer of
verif/tests/sue_axi_endpoint), lossless link, MACs always ready, A writing to B only, each figure
from a run with all of its testbench's checks:

* AXI4 (``xpuIf=1``, verif/tests/sue_axi_endpoint/tb_sue_axi_pair.py, scenario ``bandwidth``):
  cocotbext-axi ``AxiMaster`` on A's ``s_axi`` with 64 workers each issuing 256-byte aligned
  writes (many outstanding), ``AxiRam`` on B's ``m_axi``; every write answered OKAY and B's RAM
  checked against the writers' oracle. The bridge makes each burst one op on VC 0 (18 control
  bytes + 256 data bytes) and B's answers ride VC 1 back.
* FIFO (verif/tests/sue_endpoint/tb_sue_pair.py, scenario ``writes``): A's XPU model never idle,
  the same ops (18 control bytes, 256 data bytes, VC 0), every op delivered exactly once; and
  once more with the ops on VC 0 and 1 in turn (``fifo_2vc``), which the AXI4 interface cannot do
  (requests go on VC 0): SUE's TX credits are per VC (``SueTx.creditsPerVc``, at most
  ``SueTx.MAX_CREDITS`` = 64 data beats), credits come back when a PDU is first read, so with one
  VC at most 64 beats (16 of these writes at 512 bits) are between acceptance and that read.

Records go to ``out/bench/axi.json``: ``axi.write_bytes_per_cycle``,
``fifo.write_bytes_per_cycle`` and ``fifo_2vc.write_bytes_per_cycle`` (data bytes delivered per
cycle; the bus carries ``dataWidth / 8``), each also in Gb/s at the DSL-estimated fmax of that
endpoint at 1024 XPUs x 4 VCs (``*.write_gbps_at_fmax``; one estimator, so the clocks compare), and
``axi.write_bandwidth_ratio`` (AXI bytes per cycle / FIFO bytes per cycle).
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
sys.path.insert(0, str(REPO / "verif" / "tests" / "sue_axi_endpoint"))

from common import generate, run_cocotb  # noqa: E402
from common.pair_wrapper import pair_design  # noqa: E402

WIDTHS = (256, 512, 1024)
XPUS, VCS = 4, 2
WRITE_BYTES = 256
WORKERS = 64
# the AXI4 interface's generator options (test_sue_axi_endpoint.py's)
AXI = {"xpuIf": 1, "addrBits": 20, "idBits": 6, "destLsb": 14, "destBits": 2}
FABRIC = {"xpus": 1024, "vcs": 4}


def params(width: int) -> dict:
    """test_sue_axi_endpoint.py's endpoint (at 512 bits the same design) without the AXI options."""
    return {"dataWidth": width, "xpus": XPUS, "vcs": VCS, "cells": 384 if width == 1024 else 768,
            "rxBufBytes": 16384 * max(1, width // 512), "encap": 0}


def dsl_fmax(width: int, extra: dict) -> dict:
    """The DSL's depth estimate of sue_endpoint at 1024 XPUs x 4 VCs with ``extra`` parameters."""
    design = generate("sue_endpoint", {"dataWidth": width, **FABRIC, **extra})
    depth = design.report["depth"]
    return {"mhz": depth["fmax_est_mhz"], "levels": depth["worst_levels"],
            "source": "DSL depth estimate at elaboration, 1024 XPUs x 4 VCs (estimate)"}


def run_axi(width: int, ops: int, results: Path) -> dict:
    design = generate("sue_endpoint", {**params(width), **AXI})
    env = {"TB_REGS_DIR": str(design.dir), "TB_XPUS": str(XPUS), "TB_DEST_LSB": str(AXI["destLsb"]),
           "TB_DEST_BITS": str(AXI["destBits"]), "TB_SEED": "9", "TB_OPS": str(ops), "TB_WORKERS": str(WORKERS),
           "TB_SCENARIO": "bandwidth", "TB_RESULTS": str(results)}
    run_cocotb(pair_design(design), "tb_sue_axi_pair", extra_env=env, seed=9, opt="sim", testcase="axi_pair",
               test_dir=results.parent / f"axi_{width}")
    r = json.loads(results.read_text())
    return {"bytes_per_cycle": r["write_bytes"] / r["cycles"], "cycles": r["cycles"], "bytes": r["write_bytes"]}


def run_fifo(width: int, ops: int, vcs: int, results: Path) -> dict:
    p = params(width)
    design = generate("sue_endpoint", p)
    env = {"TB_SCENARIO": "writes", "TB_REGS_DIR": str(design.dir), "TB_XPUS": str(XPUS), "TB_VCS": str(VCS),
           "TB_OPS": str(ops), "TB_DATA_LEN": str(WRITE_BYTES), "TB_WRITE_VCS": str(vcs), "TB_RESULTS": str(results)}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=width, opt="sim",
               test_dir=results.parent / f"fifo_{width}_{vcs}vc")
    r = json.loads(results.read_text())
    return {"bytes_per_cycle": r["data_bytes_per_cycle"], "cycles": r["cycles"], "bytes": r["ops"] * WRITE_BYTES}


def gbps(bytes_per_cycle: float, fmax: dict) -> float:
    return round(bytes_per_cycle * 8 * fmax["mhz"] / 1000, 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "out" / "bench")
    ap.add_argument("--widths", type=int, nargs="+", default=[512], choices=WIDTHS)
    ap.add_argument("--ops", type=int, default=512, help="256-byte writes per run (a multiple of 64)")
    args = ap.parse_args()
    if args.ops < WORKERS or args.ops % WORKERS:
        ap.error(f"--ops must be a positive multiple of {WORKERS} (the AXI run's workers)")
    args.out.mkdir(parents=True, exist_ok=True)
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for w in args.widths:
            cfg = {"block": "sue_endpoint", **params(w), "write_bytes": WRITE_BYTES, "writes": args.ops,
                   "bus_bytes_per_cycle": w // 8}
            axi = run_axi(w, args.ops, t / f"axi{w}.json")
            fifo = run_fifo(w, args.ops, 1, t / f"fifo{w}.json")
            fifo2 = run_fifo(w, args.ops, 2, t / f"fifo2vc{w}.json")
            ratio = axi["bytes_per_cycle"] / fifo["bytes_per_cycle"]
            for name, r, extra in (("axi", axi, AXI), ("fifo", fifo, {}), ("fifo_2vc", fifo2, {})):
                fmax = dsl_fmax(w, extra)
                c = {**cfg, **extra, "write_vcs": 2 if name == "fifo_2vc" else 1}
                records.append({"metric": f"{name}.write_bytes_per_cycle", "config": c,
                                "value": round(r["bytes_per_cycle"], 2), "unit": "bytes/cycle",
                                "note": f"{r['bytes']} data bytes in {r['cycles']:.0f} cycles, A -> B, lossless"})
                records.append({"metric": f"{name}.write_gbps_at_fmax",
                                "config": {**c, "fmax_mhz": fmax["mhz"], "fmax_levels": fmax["levels"],
                                           "fmax_source": fmax["source"]},
                                "value": gbps(r["bytes_per_cycle"], fmax), "unit": "Gb/s"})
                print(f"w{w} {name}: 256-byte writes {r['bytes_per_cycle']:.2f} bytes/cycle of {w // 8} = "
                      f"{gbps(r['bytes_per_cycle'], fmax)} Gb/s at the DSL-estimated {fmax['mhz']} MHz")
            records.append({"metric": "axi.write_bandwidth_ratio", "config": cfg, "value": round(ratio, 3),
                            "unit": "AXI / FIFO bytes per cycle", "note": "both with the writes on VC 0"})
            print(f"w{w}: AXI4 / FIFO = {ratio:.3f}")
    (args.out / "axi.json").write_text(json.dumps(records, indent=1) + "\n")
    print(f"wrote {args.out / 'axi.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

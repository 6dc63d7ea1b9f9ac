#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Control frames through the endpoint's AXI4-Lite target: packets per second each way.

Usage (from the repository root, with the project venv; ``make bench`` runs it):

    .venv/bin/python verif/bench/ctl_bench.py --out out/bench [--widths 256 512]

Each figure comes from a run of verif/tests/sue_endpoint/tb_sue_pair.py (two ``sue_endpoint``
instances back to back, both XPUs saturating the link with 64-byte writes, SUE appending the
FCS) with all of its checks: ``exchange_control_frames`` sends TB_CTL frames of one length from
A's software to B's and then the other way, byte-exact, B woken by ``irq``. The software is
cocotbext-axi's ``AxiLiteMaster`` on each endpoint's ``s_axil_*``, one access at a time, so the
rate is the AXI4-Lite accesses a frame needs (its words written, TX_SEND, RX_STATUS, its words
read, RX_POP, IRQ_CAUSE): the sender and the receiver overlap. Records go to
``out/bench/ctl.json``:

* ``ctl.cycles_per_frame``: cycles from A's first word written to B's last frame popped, per
  frame (and B to A);
* ``ctl.frames_per_second_at_fmax``: the same at the estimated fmax of ``sue_endpoint`` at that
  width with 1024 XPUs x 4 VCs (``verif/common/fmax.py``). Target (spec 3.1): 10,000 each way.
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
from common.fmax import estimated_fmax  # noqa: E402
from common.pair_wrapper import pair_design  # noqa: E402

WIDTHS = (256, 512, 1024)
FRAMES = 8
LENGTHS = (64, 1514)  # the shortest padded frame; the longest the receiver keeps with its FCS
TARGET_PPS = 10_000


def params(width: int) -> dict:
    return {"dataWidth": width, "xpus": 4, "vcs": 2, "cells": {256: 768, 512: 512, 1024: 384}[width],
            "rxBufBytes": 2 * 8192 * (width // 256), "encap": 0, "vlan": False}


def run(width: int, length: int, results: Path) -> dict:
    p = params(width)
    design = generate("sue_endpoint", p)
    env = {"TB_SCENARIO": "throughput", "TB_REGS_DIR": str(design.dir), "TB_XPUS": str(p["xpus"]),
           "TB_VCS": str(p["vcs"]), "TB_CELLS": str(p["cells"]), "TB_RX_BUF": str(p["rxBufBytes"]),
           "TB_OPS": "100", "TB_FCS": "1", "TB_CTL": str(FRAMES), "TB_CTL_LEN": str(length),
           "TB_RESULTS": str(results)}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=width + length, opt="sim",
               test_dir=results.parent / f"ctl_{width}_{length}")
    return json.loads(results.read_text())["ctl"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "out" / "bench")
    ap.add_argument("--widths", type=int, nargs="+", default=[256], choices=WIDTHS)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        for w in args.widths:
            fmax = estimated_fmax("sue_endpoint", w, args.out)
            for length in LENGTHS:
                ctl = run(w, length, Path(tmp) / f"ctl{w}_{length}.json")
                for way, r in ctl.items():
                    cfg = {"block": "sue_endpoint", **params(w), "frame_bytes": length, "direction": way}
                    per_frame = r["cycles"] / r["frames"]
                    pps = round(fmax["mhz"] * 1e6 / per_frame)
                    records.append({"metric": "ctl.cycles_per_frame", "config": cfg, "value": round(per_frame, 1),
                                    "unit": "cycles", "note": f"{r['frames']} frames under saturating SUE traffic"})
                    records.append({"metric": "ctl.frames_per_second_at_fmax",
                                    "config": {**cfg, "fmax_mhz": fmax["mhz"], "fmax_levels": fmax["levels"],
                                               "fmax_source": fmax["source"]},
                                    "value": pps, "unit": "frames/s", "target": TARGET_PPS})
                    print(f"w{w} {length}-byte control frames {way}: {per_frame:.0f} cycles each = {pps:,} frames/s "
                          f"at the estimated {fmax['mhz']} MHz ({fmax['source']})")
                    if pps < TARGET_PPS:
                        print(f"error: below the spec's {TARGET_PPS} frames/s", file=sys.stderr)
                        return 1
    (args.out / "ctl.json").write_text(json.dumps(records, indent=1) + "\n")
    print(f"wrote {args.out / 'ctl.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

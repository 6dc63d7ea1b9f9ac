#!/usr/bin/env python3
"""Soak: two SUE endpoints back to back through a faulty link for a million ops (``make soak``).

Usage (repository root, project venv):

    .venv/bin/python verif/bench/soak.py [--ops 500000] [--seed 1] [--out out/soak]

Runs verif/tests/sue_endpoint/tb_sue_pair.py, scenario ``soak``: ``--ops`` ops from each side
(1,000,000 in all by default), small ops on a lightly loaded link so most PDUs carry one op and
the PSNs of both connections cross the 16-bit wrap at least five times each (ten in all), with
1 % loss, 0.5 % corruption, 0.5 % duplication, 2 % delay/reordering and 1 % ACK-only loss. Every
check of the bench holds throughout (exactly-once in-order delivery, frame accounting). Prints
and writes (``<out>/soak.json``) the ops delivered, the faults injected, the retransmissions and
timeouts per side, the PSN wraps and the verdict; exits non-zero when any check fails.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "verif"))
sys.path.insert(0, str(REPO / "verif" / "tests" / "sue_endpoint"))

from common import generate, run_cocotb  # noqa: E402
from common.pair_wrapper import pair_design  # noqa: E402
from common.sim import SimulationFailed  # noqa: E402

PARAMS = {"dataWidth": 256, "xpus": 4, "vcs": 2, "cells": 768, "rxBufBytes": 16384, "encap": 0, "vlan": False}
FAULTS = {"TB_DROP": 0.01, "TB_CORRUPT": 0.005, "TB_DUP": 0.005, "TB_DELAY": 0.02, "TB_REORDER": 1,
          "TB_ACK_DROP": 0.01}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=500_000, help="ops from each side")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=REPO / "out" / "soak")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    results = args.out / "soak.json"
    results.unlink(missing_ok=True)
    design = generate("sue_endpoint", PARAMS)
    top = next(m for m in design.report["modules"] if m["name"] == design.top_module)
    env = {"TB_SCENARIO": "soak", "TB_OPS": str(args.ops), "TB_REGMAP": json.dumps(top["register_map"]),
           "TB_XPUS": str(PARAMS["xpus"]), "TB_VCS": str(PARAMS["vcs"]), "TB_RESULTS": str(results),
           "TB_TIMEOUT": str(200 * args.ops), **{k: str(v) for k, v in FAULTS.items()}}
    t0 = time.monotonic()
    verdict = "pass"
    try:
        run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=args.seed, test_dir=args.out / "run",
                   opt="sim")
    except SimulationFailed as e:
        verdict = f"FAIL: {e}"
    report = json.loads(results.read_text()) if results.is_file() else {}
    report.update({"verdict": verdict, "ops_requested": 2 * args.ops, "seconds": round(time.monotonic() - t0, 1),
                   "params": PARAMS, "faults": FAULTS})
    results.write_text(json.dumps(report, indent=1) + "\n")
    wraps = report.get("psn_wraps", {})
    print(f"soak: {report.get('ops', 0)} ops delivered of {2 * args.ops}; faults injected {report.get('link')}; "
          f"retransmissions {report.get('retransmissions')}; timeouts {report.get('timeouts')}; PSN wraps {wraps} "
          f"({sum(wraps.values()) if wraps else 0} in all); verdict {verdict}; {report['seconds']} s; {results}")
    # The default run must show the figures; shorter runs (--ops) only the verdict.
    full = args.ops >= 500_000
    ok = verdict == "pass" and report.get("ops") == 2 * args.ops and (not full or sum(wraps.values()) >= 10)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Soak: two SUE endpoints back to back through a faulty link for a million ops (``make soak``).

Usage (repository root, project venv):

    .venv/bin/python verif/bench/soak.py [--ops 500000] [--seed 1] [--out out/soak]

Runs verif/tests/sue_endpoint/tb_sue_pair.py, scenario ``soak``: ``--ops`` ops from each side
(1,000,000 in all by default) at 1024 bits, with 0.5 % loss, 0.25 % corruption, 0.25 % duplication,
0.5 % delay/reordering and 2 % ACK-only loss. Every PDU carries one op (ops of 138..274 bytes, the
pack limit at its minimum, 274 bytes, so no two fit), so each connection's PSN crosses the
16-bit wrap eight times (500,000 PDUs from a PSN just below the wrap): sixteen wraps in all. The
window (128 PDUs) is larger than the replay store the buffer leaves beside the XPU's credits, so
the buffer runs full of unacknowledged PDUs throughout. Every check of the bench holds throughout (exactly-once in-order delivery, frame accounting). Prints
and writes (``<out>/soak.json``) the ops delivered, the faults injected, the retransmissions and
timeouts per side, the PSN wraps and the verdict; exits non-zero when any check fails. The log
shows the ops delivered every tenth of the run, and a run in which no op is delivered for
200,000 cycles fails as a hang (the bench's TB_STALL) instead of running to its cycle limit.
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

PARAMS = {"dataWidth": 1024, "xpus": 4, "vcs": 2, "cells": 384, "rxBufBytes": 65536, "encap": 0, "vlan": False}
# One op per PDU: the smallest pack limit (the largest op) and ops longer than half of it.
PDU_LIMIT, OP_DATA = 274, (136, 256)
# A window far beyond the cells left for replay, so unacknowledged PDUs fill the buffer.
WINDOW = 128
# Go-back-N resends the whole window behind every lost or overtaken PDU, and with one op per PDU
# each fault costs about a window of frames: these rates keep the retransmissions near half the
# new PDUs, so a million ops simulate in well under an hour.
# No op delivered for this many cycles fails the run as a hang: far beyond the retransmission
# timeout (RTO, 8192 cycles by default) and the go-back-N replay of a window behind it.
STALL_CYCLES = 200_000
FAULTS = {"TB_DROP": 0.005, "TB_CORRUPT": 0.0025, "TB_DUP": 0.0025, "TB_DELAY": 0.005, "TB_REORDER": 1,
          "TB_ACK_DROP": 0.02}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=500_000, help="ops from each side")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=REPO / "out" / "soak")
    args = ap.parse_args()
    args.out = args.out.resolve()  # the simulation runs in its own directory
    args.out.mkdir(parents=True, exist_ok=True)
    results = args.out / "soak.json"
    results.unlink(missing_ok=True)
    design = generate("sue_endpoint", PARAMS)
    env = {"TB_SCENARIO": "soak", "TB_OPS": str(args.ops), "TB_REGS_DIR": str(design.dir),
           "TB_XPUS": str(PARAMS["xpus"]), "TB_VCS": str(PARAMS["vcs"]), "TB_RESULTS": str(results),
           "TB_TIMEOUT": str(200 * args.ops),
           "TB_STALL": str(STALL_CYCLES), "TB_PROGRESS": str(max(1, args.ops // 10)), "TB_PACK_LIMIT": str(PDU_LIMIT), "TB_WINDOW": str(WINDOW),
           "TB_SOAK_DATA": f"{OP_DATA[0]},{OP_DATA[1]}", **{k: str(v) for k, v in FAULTS.items()}}
    t0 = time.monotonic()
    verdict = "pass"
    try:
        run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=args.seed, test_dir=args.out / "run",
                   opt="sim")
    except SimulationFailed as e:
        verdict = f"FAIL: {e}"
    report = json.loads(results.read_text()) if results.is_file() else {}
    report.update({"verdict": verdict, "ops_requested": 2 * args.ops, "seconds": round(time.monotonic() - t0, 1),
                   "params": PARAMS, "faults": FAULTS, "pack_limit": PDU_LIMIT, "op_data_bytes": list(OP_DATA),
                   "window": WINDOW})
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

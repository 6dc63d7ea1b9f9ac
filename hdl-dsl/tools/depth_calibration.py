#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Calibrates the DSL's logic-depth estimate against yosys.

For each entry (top, parameters) it generates the top with the generator jar, reads the DSL
estimate (``depth.worst_levels`` of the JSON report), synthesises the SV with

    yosys -p "read_verilog -sv -DSYNTHESIS <files>;
              synth_xilinx -top TOP -flatten -noiopad -noclkbuf -nowidelut; write_json net.json"

and computes the longest weighted register-to-register path of the netlist (LUT1-6 and INV 1,
CARRY4 0.25, MUXF7/F8 0.3; flip-flops, shift registers, LUT RAMs, block RAMs and ports end a
path), then prints a Markdown table. Usage, from the repository root after ``make jar``:

    python3 hdl-dsl/tools/depth_calibration.py [--jobs 2] [--only LABEL ...] [--out out/depth_calibration]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JAR = ROOT / "gen" / "target" / "sue-gen.jar"

# (label, top, params): library blocks at their defaults or benchmark sizes, SUE blocks small.
ENTRIES = [
    ("demo_accumulator", "demo_accumulator", {}),
    ("stream_fifo", "stream_fifo", {}),
    ("stream_fifo_512x64", "stream_fifo", {"depth": "64", "ram": "true", "width": "512"}),
    ("arbiter", "arbiter", {}),
    ("stream_arbiter", "stream_arbiter", {}),
    ("packet_upsizer", "packet_upsizer", {}),
    ("packet_downsizer", "packet_downsizer", {}),
    ("credit_receiver", "credit_receiver", {}),
    ("crc32_512", "crc_engine", {"dataWidth": "512"}),
    ("crc32c_64", "crc_engine", {"dataWidth": "64", "polynomial": "0x1EDC6F41"}),
    ("cell_allocator", "cell_allocator", {}),
    ("queue_lists", "queue_lists", {}),
    ("active_scheduler", "active_scheduler", {}),
    ("sue_xpu_tx", "sue_xpu_tx", {}),
    ("sue_rx_reliability", "sue_rx_reliability", {}),
    ("sue_framer", "sue_framer", {}),
    ("sue_tx_queue", "sue_tx_queue", {}),
    ("sue_rx_x16", "sue_rx", {"xpus": "16"}),
    ("sue_tx_x16", "sue_tx", {"xpus": "16", "cells": "256"}),
]

WEIGHTS = {"CARRY4": 0.25, "MUXF7": 0.3, "MUXF8": 0.3, "INV": 1.0}
for k in range(1, 7):
    WEIGHTS[f"LUT{k}"] = 1.0


def longest_path(netlist: dict, top: str) -> tuple[float, list[str]]:
    """Weighted longest combinational path of the flat module: its levels and its nets, start first."""
    mod = netlist["modules"][top]
    drivers: dict[int, list[tuple[float, str, list[int]]]] = {}
    for cell in mod["cells"].values():
        w = WEIGHTS.get(cell["type"])
        if w is None:
            continue  # state-holding or unknown cell: its outputs start paths, its inputs end them
        ins, outs = [], []
        for pin, bits in cell["connections"].items():
            (outs if cell["port_directions"][pin] == "output" else ins).extend(b for b in bits if isinstance(b, int))
        for o in outs:
            drivers.setdefault(o, []).append((w, cell["type"], ins))
    names: dict[int, str] = {}
    for name, net in sorted(mod["netnames"].items(), key=lambda kv: (kv[1].get("hide_name", 0), len(kv[0]))):
        for i, b in enumerate(net["bits"]):
            if isinstance(b, int) and b not in names:
                names[b] = f"{name}[{i}]" if len(net["bits"]) > 1 else name
    memo: dict[int, tuple[float, int]] = {}  # bit -> (levels, critical input bit or -1)
    for start in drivers:
        stack = [start]
        while stack:
            b = stack[-1]
            if b in memo:
                stack.pop()
                continue
            pending = [i for _, _, ins in drivers.get(b, []) for i in ins if i not in memo]
            if pending:
                stack.extend(pending)
                continue
            best = (0.0, -1)
            for w, _, ins in drivers.get(b, []):
                for i in ins or [-1]:
                    lv = (memo[i][0] if i >= 0 else 0.0) + w
                    if lv > best[0]:
                        best = (lv, i)
            memo[b] = best
            stack.pop()
    if not memo:
        return 0.0, []
    end = max(memo, key=lambda b: memo[b][0])
    path, b = [], end
    while b >= 0:
        path.append(f"{names.get(b, b)}@{memo[b][0]:g}" if b in memo else str(names.get(b, b)))
        b = memo[b][1] if b in memo else -1
    return memo[end][0], path[::-1]


def run_entry(label: str, top: str, params: dict, out: Path, reuse: bool = False) -> dict:
    work = out / label
    work.mkdir(parents=True, exist_ok=True)
    gen = ["java", "-jar", str(JAR), top, "--out-dir", str(work / "sv")]
    for k, v in params.items():
        gen += ["-p", f"{k}={v}"]
    subprocess.run(gen, check=True, capture_output=True, text=True)
    reports = [p for p in (work / "sv").glob("*.json")]
    report = json.loads(reports[0].read_text())
    module = report["top_module"]
    files = " ".join(str(work / "sv" / f) for f in report["files"])
    script = (f"read_verilog -sv -DSYNTHESIS {files}; "
              f"synth_xilinx -top {module} -flatten -noiopad -noclkbuf -nowidelut; write_json {work / 'net.json'}")
    if not (reuse and (work / "net.json").exists()):
        subprocess.run(["nice", "yosys", "-q", "-p", script], check=True, capture_output=True, text=True, cwd=work)
    levels, path = longest_path(json.loads((work / "net.json").read_text()), module)
    return {"label": label, "top": top, "params": params, "dsl": report["depth"]["worst_levels"],
            "yosys": round(levels, 2), "yosys_path": path, "dsl_path": report["depth"]["paths"][0]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "depth_calibration")
    ap.add_argument("--reuse-netlists", action="store_true",
                    help="keep an earlier net.json (when only the cost model changed, not the RTL)")
    args = ap.parse_args()
    entries = [e for e in ENTRIES if not args.only or e[0] in args.only]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda e: run_entry(*e, args.out, args.reuse_netlists), entries))
    (args.out / "calibration.json").write_text(json.dumps(results, indent=2) + "\n")
    print("| top | configuration | DSL estimate | yosys weighted levels | difference |")
    print("|---|---|---|---|---|")
    for r in results:
        cfg = ", ".join(f"{k}={v}" for k, v in r["params"].items()) or "default"
        print(f"| {r['top']} | {cfg} | {r['dsl']} | {r['yosys']} | {r['dsl'] - r['yosys']:+.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

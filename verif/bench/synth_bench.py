#!/usr/bin/env python3
"""Synthesis figures (LUTs, FFs, logic depth) for generated tops, with yosys.

Usage (from the repository root; ``make bench`` runs the default list):

    python verif/bench/synth_bench.py                      # every default entry
    python verif/bench/synth_bench.py --only crc32_512      # some of them
    python verif/bench/synth_bench.py --entries my.json     # your own list
    python verif/bench/synth_bench.py --list

An *entry* is ``{"label": ..., "top": ..., "params": {...}, "config": {...},
"targets": {"luts": N, "ffs": N, "depth": N}}``: the top is generated with the
generator jar (``java -jar gen/target/sue-gen.jar TOP -p k=v ... --out-dir``),
then synthesised out of context for a Xilinx 7-series-like target with

    yosys -p "read_verilog -sv -DSYNTHESIS <files>;
              synth_xilinx -top TOP -flatten -noiopad -noclkbuf -nowidelut;
              tee -o stat.txt stat; delete t:FD* t:SRL* t:RAM* t:RAMB*;
              tee -o ltp.txt ltp"

and three records are written to ``out/bench/synth_<label>.json`` (a JSON
array) and appended, time-stamped, to ``out/bench/history.jsonl``:

* ``synth.luts``  (unit "LUTs"):   cells that occupy a LUT in ``stat``: LUT1..LUT6,
  INV (a LUT1) and SRL16E/SRLC32E (shift registers built in a LUT);
* ``synth.ffs``   (unit "FFs"):    FDRE/FDSE/FDCE/FDPE cells;
* ``synth.depth`` (unit "levels"): cells on the longest combinational path.

How depth is counted. ``ltp`` prints the longest topological path in cells;
its ``-noff`` option only knows yosys' internal flip-flop types, not the
Xilinx FDRE/FDSE cells that ``synth_xilinx`` leaves, so it would report
"loops" through every register. We delete the state-holding cells (FD*, SRL*,
RAM*) after ``stat`` instead, which cuts every register-to-register path at
the register, and run ``ltp`` on what is left: the length is then the number of cells on the
longest path from a register or input port to a register or output port.
With ``-nowidelut`` those cells are LUTs only (no MUXF7/MUXF8; a CARRY4 chain
would count one level per CARRY4), so the figure is in LUT levels.

Why these options. ``-noiopad``/``-noclkbuf``: the blocks are measured out of
context, without I/O buffers. ``-nowidelut``: with wide LUTs enabled, ABC maps
XOR-heavy logic into LUT7/LUT8 built from LUT6 + MUXF7/MUXF8 to save levels,
which roughly doubles the LUT count of a CRC and hides levels inside the muxes;
LUT6-only figures are closer to what vendor tools report and compare across
designs. ``-flatten``: ``ltp`` only sees paths within one module.

Runs are parallel (``--jobs``, default: CPU count) and each runs in its own
directory ``out/bench/synth/<label>/``; results are cached by the hash of the
generated SV, the yosys script and ``yosys -V`` (``--no-cache`` forces a run),
and the history file is appended under a lock, so concurrent invocations are
safe.
"""

from __future__ import annotations

import argparse
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
# Cells that hold state: removed before `ltp` so paths end at them.
SEQUENTIAL = "t:FD* t:SRL* t:RAM* t:RAMB*"
# Cells that occupy a LUT: LUT1..LUT6, inverters (a LUT1) and shift registers (SRL16E/SRLC32E).
LUT_CELLS = r"LUT[1-6]|INV|SRL16E|SRLC32E"
# Distributed (LUT) RAM primitives and block RAMs, reported separately from logic LUTs.
LUTRAM_CELLS = r"RAM(16|32|64|128|256)[A-Z0-9_]*"
BRAM_CELLS = r"RAMB(18|36)[A-Z0-9_]*"
FLOW = "yosys synth_xilinx -flatten -noiopad -noclkbuf -nowidelut"
CACHE_VERSION = "2"
# Seconds one yosys run may take by default (--timeout): the 1024-XPU tops take an hour or more.
DEFAULT_TIMEOUT = 4 * 3600

# The flat 512-bit CRC-32 reference (whole words only) measured about 2,300
# LUTs and 4 LUT levels with yosys (issue "Hardware library", item 4).
CRC_REFERENCE_512 = {"luts": 2300, "depth": 4}


def crc_entry(label: str, data_width: int, byte_tails: bool, data_pipeline: int = 0, value: bool = True,
              check: bool = False, tail_steps: int = 2) -> dict:
    params = {"dataWidth": data_width, "byteTails": byte_tails, "dataPipeline": data_pipeline,
              "value": value, "check": check, "tailStepsPerCycle": tail_steps}
    return {
        "label": label,
        "top": "crc_engine",
        "params": params,
        "config": {
            "block": "crc_engine",
            "crc": "CRC-32",
            "data_width": data_width,
            "byte_tails": byte_tails,
            "data_pipeline": data_pipeline,
            "outputs": "value+check" if value and check else "check" if check else "value",
            "tail_steps_per_cycle": tail_steps,
        },
        # The reference is for whole words; we hold the tail variants to it too.
        "targets": dict(CRC_REFERENCE_512) if data_width == 512 else {},
    }


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
    {
        "label": "fifo_512x64_ram",
        "top": "stream_fifo",
        "params": {"width": 512, "depth": 64, "ram": True},
        "config": {"block": "stream_fifo", "data_width": 512, "depth": 64, "storage": "ram"},
        "targets": {},
    },
    # The framer's one-beat R-CRC fast path alone (STD IPv4 windows at 512 and 1024 bits): its
    # depth is held to the CRC engine's.
    *[{
        "label": f"crc_window_{b}",
        "top": "crc_window",
        "params": {"windowBytes": b, "maxTrail": b - 8},
        "config": {"block": "crc_window", "crc": "CRC-32", "window_bytes": b, "max_trail": b - 8},
        "targets": {"depth": 5},
    } for b in (22, 86)],
    # The SUE frame builder (R-CRC appender and its one-beat fast path), STD_IPV4, 16 XPUs.
    *[{
        "label": f"sue_framer_{w}",
        "top": "sue_framer",
        "params": {"dataWidth": w, "encap": 0, "vlan": False, "numXpus": 16},
        "config": {"block": "sue_framer", "data_width": w, "encap": "STD_IPV4", "xpus": 16},
        "targets": {},
    } for w in (512, 1024)],
    # AFH Gen 1 (no IPv4 checksum, whose carry chains are the STD framer's longest path): the
    # framer's own paths, the one-beat fast path included, set the depth.
    {
        "label": "sue_framer_512_afh1",
        "top": "sue_framer",
        "params": {"dataWidth": 512, "encap": 2, "vlan": False, "numXpus": 16},
        "config": {"block": "sue_framer", "data_width": 512, "encap": "AFH1", "xpus": 16},
        "targets": {},
    },
    # The SUE transmit top at the realistic size (1024 XPUs x 4 VCs, a 512 KB cell buffer).
    *[{
        "label": f"sue_tx_{w}_1024x4",
        "top": "sue_tx",
        "params": {"dataWidth": w, "xpus": 1024, "vcs": 4, "cells": cells, "encap": 0, "vlan": False},
        "config": {"block": "sue_tx", "data_width": w, "xpus": 1024, "vcs": 4, "cells": cells, "encap": "STD_IPV4"},
        "targets": {},
    } for w, cells in ((512, 8192), (1024, 4096))],
    # The whole endpoint (transmit + receive + reliability) at the same sizes, 256 KB RX buffer.
    *[{
        "label": f"sue_endpoint_{w}_1024x4",
        "top": "sue_endpoint",
        "params": {"dataWidth": w, "xpus": 1024, "vcs": 4, "cells": cells, "rxBufBytes": 262144, "encap": 0,
                   "vlan": False},
        "config": {"block": "sue_endpoint", "data_width": w, "xpus": 1024, "vcs": 4, "cells": cells,
                   "rx_buf_bytes": 262144, "encap": "STD_IPV4"},
        "targets": {},
    } for w, cells in ((512, 8192), (1024, 4096))],
]


# ---------------------------------------------------------------------------


def _run(cmd: list[str], cwd: Path | None = None, timeout: float = 3600) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def yosys_version() -> str:
    return _run(["yosys", "-V"]).stdout.strip()


def generate(entry: dict, work: Path) -> tuple[str, list[Path]]:
    """Generate the entry's top into work/rtl; returns (top module, files)."""
    rtl = work / "rtl"
    shutil.rmtree(rtl, ignore_errors=True)
    cmd = ["java", "-jar", str(JAR), entry["top"]]
    for k, v in sorted(entry.get("params", {}).items()):
        cmd += ["-p", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    cmd += ["--out-dir", str(rtl)]
    p = _run(cmd)
    if p.returncode != 0:
        raise RuntimeError(f"generator failed ({p.returncode}): {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    report = json.loads((rtl / f"{entry['top']}.json").read_text())
    return report["top_module"], [rtl / f for f in report["files"]]


def yosys_script(top: str, files: list[Path]) -> str:
    return (
        f"read_verilog -sv -DSYNTHESIS {' '.join(str(f) for f in files)}; "
        f"{SYNTH.format(top=top)}; tee -q -o stat.txt stat; delete {SEQUENTIAL}; tee -q -o ltp.txt ltp"
    )


def parse_stat(text: str) -> dict[str, int]:
    cells: dict[str, int] = {}
    for m in re.finditer(r"^\s+(\S+)\s+(\d+)\s*$", text, re.M):
        cells[m.group(1)] = int(m.group(2))
    return cells


def parse_ltp(text: str) -> int:
    m = re.search(r"Longest topological path in \S+ \(length=(-?\d+)\)", text)
    if not m:
        raise RuntimeError(f"no ltp result in:\n{text[-2000:]}")
    return int(m.group(1))


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
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
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
    result = {
        "key": key,
        "label": label,
        "top": top,
        "luts": sum(v for k, v in cells.items() if re.fullmatch(LUT_CELLS, k)),
        "ffs": sum(v for k, v in cells.items() if re.fullmatch(r"FD[RSCP]E(_1)?", k)),
        "depth": parse_ltp((work / "ltp.txt").read_text()),
        "cells": {k: v for k, v in cells.items() if re.fullmatch(r"[A-Z][A-Z0-9_]+", k)},
        "generate_seconds": round(gen_s, 2),
        "synth_seconds": round(syn_s, 1),
        "cache_hit": False,
    }
    cache.write_text(json.dumps(result, indent=2) + "\n")
    return result


def records(entry: dict, result: dict) -> list[dict]:
    config = dict(entry.get("config") or {"block": entry["top"], **entry.get("params", {})})
    config.setdefault("block", entry["top"])
    config["flow"] = FLOW
    targets = entry.get("targets", {})
    out = []
    for metric, key, unit in (("synth.luts", "luts", "LUTs"), ("synth.ffs", "ffs", "FFs"),
                              ("synth.depth", "depth", "levels")):
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entries", type=Path, help="JSON file with a list of entries (default: the built-in list)")
    ap.add_argument("--only", nargs="+", metavar="LABEL", help="run only these labels")
    ap.add_argument("--out", type=Path, default=OUT, help=f"output directory (default {OUT})")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-cache", action="store_true", help="synthesise even when the SV is unchanged")
    ap.add_argument("--list", action="store_true", help="list the entries and exit")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per yosys run")
    args = ap.parse_args(argv)

    entries = json.loads(args.entries.read_text()) if args.entries else DEFAULT_ENTRIES
    if args.only:
        unknown = set(args.only) - {e["label"] for e in entries}
        if unknown:
            ap.error(f"unknown label(s) {sorted(unknown)}; known: {[e['label'] for e in entries]}")
        entries = [e for e in entries if e["label"] in args.only]
    if args.list:
        for e in entries:
            print(f"{e['label']:28s} {e['top']} {e.get('params', {})}")
        return 0
    if not JAR.is_file():
        print(f"error: {JAR} not found: run `make jar` first", file=sys.stderr)
        return 2
    if shutil.which("yosys") is None:
        print("error: yosys not found (make tools)", file=sys.stderr)
        return 2

    t0 = time.monotonic()
    failed = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
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
    print(f"{'label':28s} {'LUTs':>7s} {'FFs':>6s} {'depth':>6s} {'LUTRAM':>7s} {'BRAM':>5s} {'synth s':>8s}")
    for e, r in rows:
        t = "cached" if r["cache_hit"] else f"{r['synth_seconds']:.1f}"
        cells = r.get("cells", {})
        lutram = sum(v for k, v in cells.items() if re.fullmatch(LUTRAM_CELLS, k))
        bram = sum(v for k, v in cells.items() if re.fullmatch(BRAM_CELLS, k))
        print(f"{e['label']:28s} {r['luts']:7d} {r['ffs']:6d} {r['depth']:6d} {lutram:7d} {bram:5d} {t:>8s}")
    print(f"synth_bench: {len(rows)} entr{'y' if len(rows) == 1 else 'ies'} in {time.monotonic() - t0:.1f} s "
          f"-> {args.out}/synth_<label>.json ({FLOW})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

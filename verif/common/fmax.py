# SPDX-License-Identifier: Apache-2.0
"""The clock a configuration is expected to reach, for latency figures in nanoseconds.

A cycle count means little without the clock it runs at (issue 13): benches report every
latency also in ns at the *estimated* fmax of the configuration the product would be built in,
1024 XPUs x 4 VCs at the bench's data width (benches simulate smaller fabrics for speed; the
fabric size widens compares and tables, so the small configuration would flatter the clock).

Two sources, best first:

1. ``synth_bench.py`` (yosys ``synth_xilinx``, weighted logic levels of the flat netlist) when
   it has measured the entry ``<top>_<width>_1024x4`` into the bench directory;
2. the DSL's depth estimate at elaboration (``depth.fmax_est_mhz`` of the generator's report),
   always available in seconds.

Both use fmax = 1 / (0.45 ns x levels + 0.6 ns) and are estimates, not timing closure on a part.
"""

from __future__ import annotations

import json
from pathlib import Path

from .design import generate

FABRIC = {"xpus": 1024, "vcs": 4}


def estimated_fmax(top: str, width: int, bench_dir: Path) -> dict:
    """``{"mhz", "levels", "source"}`` for *top* at *width* bits, 1024 XPUs x 4 VCs."""
    label = f"{top}_{width}_1024x4"
    measured = bench_dir / f"synth_{label}.json"
    if measured.is_file():
        records = {r["metric"]: r for r in json.loads(measured.read_text())}
        if "synth.fmax_est_mhz" in records and "synth.levels" in records:
            return {"mhz": records["synth.fmax_est_mhz"]["value"], "levels": records["synth.levels"]["value"],
                    "source": f"yosys synth_xilinx weighted levels, synth_bench entry {label} (estimate)"}
    design = generate(top, {"dataWidth": width, **FABRIC})
    depth = design.report["depth"]
    return {"mhz": depth["fmax_est_mhz"], "levels": depth["worst_levels"],
            "source": "DSL depth estimate at elaboration, 1024 XPUs x 4 VCs (estimate)"}


def ns(cycles: float, fmax: dict) -> float:
    """*cycles* in ns at the estimated clock, one decimal."""
    return round(cycles * 1000 / fmax["mhz"], 1)

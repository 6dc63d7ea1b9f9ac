# SPDX-License-Identifier: Apache-2.0
"""Where things live: the repository, the generator jar and the output tree.

All outputs of the Python side go under ``out/`` (ignored by git):

* ``out/verif/<top>/<key>/``   designs generated for tests (see ``design.py``)
* ``out/sim_cache/<top>-<hash>/`` Verilator builds, keyed by SV content (``sim.py``)
* ``out/sim_results/<test>/``  per-test run directory: results.xml, dump.fst

``SUE_OUT`` and ``SUE_GEN_JAR`` override the defaults (e.g. to share a cache
between work trees).
"""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
OUT_ROOT = Path(os.environ.get("SUE_OUT", REPO_ROOT / "out")).resolve()
JAR = Path(os.environ.get("SUE_GEN_JAR", REPO_ROOT / "gen" / "target" / "sue-gen.jar")).resolve()

VERIF_OUT = OUT_ROOT / "verif"
SIM_CACHE = OUT_ROOT / "sim_cache"
SIM_RESULTS = OUT_ROOT / "sim_results"

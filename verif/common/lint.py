# SPDX-License-Identifier: Apache-2.0
"""Lint one generated design from a pytest, exactly as `make lint` does.

`make lint` covers every top at its default parameters; the per-block tests use
this to lint other parameter sets (the project promises lint-clean SV for every
legal parameter set: verilator --lint-only -Wall with no waivers, iverilog
-g2012, yosys read_verilog -sv, slang with zero warnings).
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any, Mapping

from . import paths
from .design import generate

# Shared with `make lint` (verif/tools/lint_all.py OUT_ROOT): a design the stage already linted
# (a top at its default parameters) or that another test linted is not linted again.
LINT_CACHE = paths.OUT_ROOT / "lint_cache"


def _lint_all_module():
    # verif/tools is not a package; load lint_all.py once and register it, because its
    # dataclasses look their module up in sys.modules.
    if "lint_all" not in sys.modules:
        spec = importlib.util.spec_from_file_location("lint_all", paths.REPO_ROOT / "verif" / "tools" / "lint_all.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["lint_all"] = module
        spec.loader.exec_module(module)
    return sys.modules["lint_all"]


def assert_lints_clean(top: str, params: Mapping[str, Any] | None = None) -> None:
    """Generate *top* with *params* and fail with every tool's output unless all four tools pass."""
    lint_all = _lint_all_module()
    design = generate(top, params or {})
    d = lint_all.Design(top, design.dir, top=design.top_module, files=list(design.files))
    failures = [f"{c.tool}:\n{c.output}" for c in lint_all.lint_design(d, LINT_CACHE) if not c.ok]
    assert not failures, f"{top} {dict(params or {})} is not lint-clean:\n" + "\n".join(failures)

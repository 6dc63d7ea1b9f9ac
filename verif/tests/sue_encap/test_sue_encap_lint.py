"""Lint (Verilator -Wall, Icarus, Yosys; as `make lint`) sue_header_builder for every
encapsulation with and without 802.1Q, table sizes 1, 5, 1024, and sue_encap_config at its
corners; check that invalid parameter sets are rejected with their valid ranges."""

from __future__ import annotations

import importlib.util
import re
import sys

import pytest

from common import GeneratorError, generate, paths

_spec = importlib.util.spec_from_file_location("lint_all", paths.REPO_ROOT / "verif" / "tools" / "lint_all.py")
lint_all = importlib.util.module_from_spec(_spec)
sys.modules["lint_all"] = lint_all
_spec.loader.exec_module(lint_all)

CONFIGS = [("sue_header_builder", {"encap": e, "vlan": v, "numXpus": n})
           for e, v, n in [(0, False, 1), (0, True, 1024), (1, True, 1024), (1, False, 5), (2, False, 1),
                           (2, True, 1024), (3, False, 1024), (3, True, 1), (4, False, 1024), (4, False, 1),
                           (5, False, 1024), (5, False, 5)]]
CONFIGS += [
    ("sue_encap_config", {"numXpus": 1, "macTable": False, "ipWords": 0}),
    ("sue_encap_config", {"numXpus": 1024, "macTable": True, "ipWords": 4}),
    ("sue_encap_config", {"numXpus": 600, "macTable": False, "ipWords": 1}),
]


@pytest.mark.parametrize("top,params", CONFIGS,
                         ids=[f"{t}-" + "-".join(f"{k}{v}" for k, v in p.items()) for t, p in CONFIGS])
def test_lints_clean(top, params):
    design = generate(top, params)
    d = lint_all.Design(top, design.dir, top=design.top_module, files=list(design.files))
    failures = [f"{c.tool}:\n{c.output}" for c in lint_all.lint_design(d) if not c.ok]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(
    "top,params,message",
    [
        ("sue_header_builder", {"encap": 4, "vlan": True}, "vlan=true needs a standard or AFH Gen 1 encapsulation"),
        ("sue_header_builder", {"encap": 5, "vlan": True}, "vlan=true needs a standard or AFH Gen 1 encapsulation"),
        ("sue_header_builder", {"encap": 6}, "encap' = 6 is out of range; valid range: 0..5"),
        ("sue_header_builder", {"numXpus": 0}, "numXpus' = 0 is out of range; valid range: 1..1024"),
        ("sue_header_builder", {"numXpus": 1025}, "numXpus' = 1025 is out of range; valid range: 1..1024"),
        ("sue_encap_config", {"ipWords": 2}, "ipWords' = 2 is out of range; valid values: 0, 1, 4"),
    ],
)
def test_rejects_invalid_parameters(top, params, message):
    with pytest.raises(GeneratorError, match=re.escape(message)):
        generate(top, params)

# SPDX-License-Identifier: Apache-2.0
"""Lint (Verilator -Wall, Icarus, Yosys; as `make lint`) sue_header_builder for every
encapsulation with and without 802.1Q, table sizes 1, 5, 1024, and sue_encap_config at its
corners; check that invalid parameter sets are rejected with their valid ranges."""

from __future__ import annotations

import re

import pytest

from common import GeneratorError, generate
from common.lint import assert_lints_clean


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
    assert_lints_clean(top, params)


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

# SPDX-License-Identifier: Apache-2.0
"""Lint (Verilator -Wall without waivers, Icarus -g2012, Yosys) the framing path at 512 and 1024
bits with 1024 XPUs, and its blocks at their corners; invalid parameter sets are rejected with a
clear message."""

from __future__ import annotations

import re

import pytest

from common import GeneratorError, generate
from common.lint import assert_lints_clean

CONFIGS = [
    ("tx_frame_path", {"dataWidth": 512, "encap": 0, "vlan": True, "numXpus": 1024}),
    ("tx_frame_path", {"dataWidth": 1024, "encap": 5, "vlan": False, "numXpus": 1024}),
    ("tx_frame_path", {"dataWidth": 512, "encap": 3, "vlan": True, "numXpus": 1024}),
    ("tx_frame_path", {"dataWidth": 256, "encap": 4, "vlan": False, "numXpus": 1}),
    ("sue_framer", {"dataWidth": 1024, "encap": 2, "vlan": True, "numXpus": 1024}),
    # the one-beat R-CRC fast path (CrcWindow) at both widths that have one (1024 above; 512 is
    # sue_framer's default, linted by `make lint`, which `make test` runs before test-sim), none at 256
    ("sue_framer", {"dataWidth": 256, "encap": 0, "vlan": False, "numXpus": 16}),
    ("port_select", {"dataWidth": 1024, "ports": 1}),
]


@pytest.mark.parametrize("top,params", CONFIGS,
                         ids=[f"{t}-" + "-".join(f"{k}{v}" for k, v in p.items()) for t, p in CONFIGS])
def test_lints_clean(top, params):
    assert_lints_clean(top, params)


@pytest.mark.parametrize("top,params,message", [
    ("port_select", {"ports": 2}, "one transmit path drives one port (ports = 1), got 2; an endpoint with 2 or 4 "
                                  "ports has a plane per port: sue_endpoint -p ports=2"),
    ("tx_frame_path", {"ports": 4}, "one transmit path drives one port (ports = 1), got 4"),
    ("tx_frame_path", {"encap": 4, "vlan": True}, "vlan=true needs a standard or AFH Gen 1 encapsulation"),
    ("sue_framer", {"encap": 5, "vlan": True}, "vlan=true needs a standard or AFH Gen 1 encapsulation"),
    ("sue_framer", {"dataWidth": 2048}, "'dataWidth' = 2048"),
    ("tx_frame_path", {"numXpus": 0}, "numXpus' = 0 is out of range; valid range: 1..1024"),
])
def test_rejects_invalid_parameters(top, params, message):
    with pytest.raises(GeneratorError, match=re.escape(message)):
        generate(top, params)

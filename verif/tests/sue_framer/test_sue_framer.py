# SPDX-License-Identifier: Apache-2.0
"""tx_frame_path (SueFramer + PortSelect): every encapsulation (+802.1Q where allowed), bus
widths 256/512/1024, several MIN_FRAME values (0, 64, others) with the FCS on and off, random
traffic/idle/back-pressure/ACK information, frames decoded with scapy
(common.sue_frames) against a Python model, pcap read by tshark; latency and throughput
measured and asserted (tb_sue_framer.py)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from common import generate, paths, run_cocotb
from common.sue_frames import NAMES

# (encap, vlan, dataWidth, numXpus, phases "min_frame:fcs,...")
# One configuration per encapsulation (the end-to-end tests in verif/tests/sue_tx cover each
# encapsulation again with the other VLAN setting), widths rotated, MIN_FRAME/FCS phases mixed.
CONFIGS = [
    (0, True, 512, 16, "64:0,0:1,130:1"),
    (1, False, 256, 5, "64:0,200:1"),
    (2, True, 512, 16, "64:1,0:0"),
    (3, False, 256, 1024, "200:0,64:1"),
    (4, False, 1024, 16, "64:1,0:0,100:0"),
    (5, False, 512, 5, "0:0,64:1"),
]


def _id(c):
    e, v, w, n, _ = c
    return f"{NAMES[e]}{'-vlan' if v else ''}-w{w}-x{n}"


@pytest.mark.parametrize("encap,vlan,width,num_xpus,phases", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_sue_framer(encap, vlan, width, num_xpus, phases):
    design = generate("tx_frame_path", {"dataWidth": width, "encap": encap, "vlan": vlan, "numXpus": num_xpus})
    out = paths.SIM_RESULTS / "sue_framer"
    out.mkdir(parents=True, exist_ok=True)
    pcap = out / f"{_id((encap, vlan, width, num_xpus, phases))}.pcap"
    metrics = pcap.with_suffix(".json")
    pcap.unlink(missing_ok=True)
    metrics.unlink(missing_ok=True)
    env = {"ENCAP": str(encap), "VLAN": "1" if vlan else "0", "NUM_XPUS": str(num_xpus), "PHASES": phases,
           "N_PDU": "40", "PCAP": str(pcap), "METRICS": str(metrics), "SEED": str(7 * encap + width + num_xpus)}
    run_cocotb(design, "tb_sue_framer", extra_env=env, seed=100 + encap)
    m = json.loads(metrics.read_text())
    # desc valid at t -> first MAC beat by t + 5, t + 6 through the FCS stage (FCS_BY_SUE = 1: key "<min>:1")
    assert m and all(v["latency"] <= (6 if k.endswith(":1") else 5) and v["utilization"] == 1.0
                     for k, v in m.items()), m
    tshark = shutil.which("tshark")
    assert tshark, "tshark is required (make tools installs it)"
    r = subprocess.run([tshark, "-r", str(pcap)], capture_output=True, text=True, timeout=300)
    errors = [ln for ln in r.stderr.splitlines() if ln.strip() and "Running as user" not in ln]
    assert r.returncode == 0 and not errors, f"tshark -r {pcap}: rc {r.returncode}\n{r.stderr}"
    assert len(r.stdout.splitlines()) >= 40, f"tshark read too few frames from {pcap}"

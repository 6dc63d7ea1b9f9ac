# SPDX-License-Identifier: Apache-2.0
"""sue_header_builder: every encapsulation (standard IPv4/IPv6 + UDP, AFH Gen 1 with and without
shim, AFH Gen 2 normal and compressed), with and without 802.1Q where allowed, table sizes 1, 5
(non-power-of-two), 16 and 1024. Random configuration writes and random requests, headers
checked with scapy (tb_sue_encap.py); the frames go to out/sim_results/sue_encap/*.pcap and
tshark must read each pcap without errors."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from common import generate, paths, run_cocotb

NAMES = ["std_ipv4", "std_ipv6", "afh1", "afh1_shim", "afh2_normal", "afh2_compressed"]
# (encap, vlan, numXpus)
CONFIGS = [
    (0, True, 16),
    (0, False, 5),
    (1, True, 5),
    (1, False, 1),
    (2, True, 16),
    (2, False, 1024),
    (3, True, 5),
    (3, False, 16),
    (4, False, 5),
    (5, False, 16),
]


def _id(c):
    e, v, n = c
    return f"{NAMES[e]}{'-vlan' if v else ''}-x{n}"


@pytest.mark.parametrize("encap,vlan,num_xpus", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_sue_encap(encap, vlan, num_xpus, header_only_profile):
    design = generate("sue_header_builder", {"encap": encap, "vlan": vlan, "numXpus": num_xpus})
    pcap = paths.SIM_RESULTS / "sue_encap" / f"{_id((encap, vlan, num_xpus))}.pcap"
    pcap.unlink(missing_ok=True)
    env = {"ENCAP": str(encap), "VLAN": "1" if vlan else "0", "NUM_XPUS": str(num_xpus), "N_REQ": "250",
           "PCAP": str(pcap)}
    run_cocotb(design, "tb_sue_encap", extra_env=env, seed=1000 + 10 * encap + num_xpus)
    assert pcap.is_file(), f"the testbench wrote no pcap {pcap}"
    tshark = shutil.which("tshark")
    assert tshark, "tshark is required (make tools installs it)"
    # 1. tshark reads the whole file with its default dissectors.
    r = subprocess.run([tshark, "-r", str(pcap)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and not _errors(r.stderr), f"tshark -r {pcap}: rc {r.returncode}\n{r.stderr}"
    assert len(r.stdout.splitlines()) > 250, f"tshark read too few frames from {pcap}"
    # 2. Only the header's own protocols enabled (the dummy payload after them would otherwise be
    #    dissected as whatever protocol the random UDP ports name): nothing malformed, and
    #    tshark's IPv4 header checksum check passes.
    r = subprocess.run([tshark, "-r", str(pcap), "-o", "ip.check_checksum:TRUE", "-T", "fields", "-e", "frame.number",
                        "-e", "ip.checksum.status", "-e", "_ws.malformed", "-e", "frame.protocols"],
                       capture_output=True, text=True, timeout=300, env={**os.environ, "WIRESHARK_CONFIG_DIR":
                                                                          str(header_only_profile)})
    assert r.returncode == 0 and not _errors(r.stderr), f"tshark -r {pcap}: rc {r.returncode}\n{r.stderr}"
    rows = [ln.split("\t") for ln in r.stdout.splitlines()]
    malformed = [row for row in rows if row[2].strip()]
    assert not malformed, f"tshark: malformed frames {malformed[:5]}"
    if encap == 0:  # 1 = good
        bad = [row for row in rows if row[1] != "1"]
        assert not bad, f"tshark: IPv4 checksum not good in {len(bad)} frames, e.g. {bad[:5]}"
    if encap in (0, 1):
        assert all(":udp" in row[3] for row in rows), f"tshark did not find UDP in every frame: {rows[:3]}"


def _errors(stderr: str) -> list[str]:
    """tshark's stderr without its warning about running as root."""
    return [ln for ln in stderr.splitlines() if ln.strip() and "Running as user" not in ln]


HEADER_PROTOCOLS = {"frame", "eth", "ethertype", "vlan", "ip", "ipv6", "udp", "data"}


@pytest.fixture(scope="session")
def header_only_profile(tmp_path_factory):
    """A Wireshark configuration directory that disables every protocol except the header's own
    (and tshark's internal _ws.* ones, which report malformed packets)."""
    tshark = shutil.which("tshark")
    assert tshark, "tshark is required (make tools installs it)"
    out = subprocess.run([tshark, "-G", "protocols"], capture_output=True, text=True, timeout=120, check=True).stdout
    names = [ln.split("\t")[2] for ln in out.splitlines() if ln.count("\t") >= 2]
    d = tmp_path_factory.mktemp("wireshark_profile")
    disabled = [n for n in names if n not in HEADER_PROTOCOLS and not n.startswith("_ws.")]
    (d / "disabled_protos").write_text("\n".join(disabled) + "\n")
    return d

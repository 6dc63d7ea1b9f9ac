# SPDX-License-Identifier: Apache-2.0
"""Go-back-N transmit reliability of ``sue_tx`` against a Python receiver model with loss.

One small Verilator model (256-bit bus, 16 XPUs, 2 VCs, 256 cells); see tb_sue_tx_reliability.py
for the model and the checks. TXREL_FULL=1 adds seeds.
"""

from __future__ import annotations

import os

import pytest

from common import generate, run_cocotb

XPUS, VCS, CELLS = 16, 2, 256
FULL = os.environ.get("TXREL_FULL") == "1"


def design():
    return generate("sue_tx", {"dataWidth": 256, "xpus": XPUS, "vcs": VCS, "cells": CELLS, "encap": 0,
                               "windowMax": 64})


def env(**kw):
    e = {"TB_XPUS": str(XPUS), "TB_VCS": str(VCS), "TB_CELLS": str(CELLS), "TB_PSN_START": str(0xFFF8)}
    e.update({f"TB_{k.upper()}": str(v) for k, v in kw.items()})
    return e


@pytest.mark.parametrize("seed", [1, 2] + ([3, 4, 5] if FULL else []))
def test_loss_recovery(seed):
    run_cocotb(design(), "tb_sue_tx_reliability", extra_env=env(scenario="loss", ops=400), seed=seed, testcase="run")


@pytest.mark.parametrize("seed", [1] + ([2, 3] if FULL else []))
def test_dead_peer_error(seed):
    run_cocotb(design(), "tb_sue_tx_reliability",
               extra_env=env(scenario="dead", ops=300, loss=0.01, msg_loss=0.02, rto=1200), seed=seed, testcase="run")


def test_ack_info_merge():
    run_cocotb(design(), "tb_sue_tx_reliability", extra_env=env(), seed=1, testcase="ack_info_merge")

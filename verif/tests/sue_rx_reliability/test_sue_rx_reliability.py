# SPDX-License-Identifier: Apache-2.0
"""sue_rx_reliability: receive go-back-N against the Python model of DESIGN-RELIABILITY.md
(rel_model.py): random PDU sequences with duplicates, gaps, wrap-around, empty PDUs, commit = 0,
fits = 0, idle and back-to-back one-beat PDUs; two Verilator models by default
(RXREL_FULL_MATRIX=1 adds more); lint at 1024 sources for each width; parameter errors."""

from __future__ import annotations

import os
import re

import pytest

from common import GeneratorError, generate, paths, run_cocotb
from common.lint import assert_lints_clean

# (numXpus, dataWidth, K, T, R, idle, seed): different K/T/R reuse one Verilator model.
CONFIGS_DEFAULT = [
    (16, 256, 4, 40, 150, 0.3, 1),
    (16, 256, 1, 1, 60, 0.0, 2),
    (16, 256, 8, 200, 400, 0.5, 3),
    (5, 1024, 3, 2, 100, 0.1, 4),
]
CONFIGS_FULL = CONFIGS_DEFAULT + [
    (16, 512, 255, 17, 33, 0.2, 5),
    (1, 256, 2, 10, 50, 0.2, 6),
    (1024, 512, 6, 300, 1000, 0.3, 7),
]
CONFIGS = CONFIGS_FULL if os.environ.get("RXREL_FULL_MATRIX") == "1" else CONFIGS_DEFAULT
PDUS = int(os.environ.get("RXREL_PDUS", "4000"))


def ids(c):
    n, w, k, t, r, idle, seed = c
    return f"x{n}-w{w}-k{k}-t{t}-r{r}-idle{idle}-s{seed}"


@pytest.mark.parametrize("config", CONFIGS, ids=[ids(c) for c in CONFIGS])
def test_random_traffic(config):
    n, w, k, t, r, idle, seed = config
    design = generate("sue_rx_reliability", {"numXpus": n, "dataWidth": w})
    out = paths.REPO_ROOT / "out" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    lat = out / f"rx_reliability_{ids(config)}.txt"
    lat.unlink(missing_ok=True)
    env = {"TB_NUMXPUS": str(n), "TB_K": str(k), "TB_T": str(t), "TB_R": str(r), "TB_IDLE": str(idle),
           "TB_SEED": str(seed), "TB_PDUS": str(PDUS), "TB_LAT_FILE": str(lat), "TB_DEBUG": os.environ.get("TB_DEBUG", "")}
    run_cocotb(design, "tb_sue_rx_reliability", extra_env=env, testcase=["random_traffic", "nack_retry_collision"])
    worst = int(lat.read_text())
    assert worst <= max(t, 2) + 1


@pytest.mark.parametrize("params", [{"numXpus": 1024, "dataWidth": w} for w in (256, 512, 1024)]
                         + [{"numXpus": 1, "dataWidth": 256}, {"numXpus": 1000, "dataWidth": 512}],
                         ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_lint_clean(params):
    assert_lints_clean("sue_rx_reliability", params)


@pytest.mark.parametrize("params,message", [
    ({"numXpus": 0}, "numXpus' = 0 is out of range"),
    ({"numXpus": 1025}, "numXpus' = 1025 is out of range"),
    ({"dataWidth": 128}, "dataWidth' = 128 is out of range"),
])
def test_rejects_invalid_parameters(params, message):
    with pytest.raises(GeneratorError, match=re.escape(message)):
        generate("sue_rx_reliability", params)

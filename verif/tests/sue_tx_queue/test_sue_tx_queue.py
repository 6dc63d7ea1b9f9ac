# SPDX-License-Identifier: Apache-2.0
"""sue_tx_queue: TX queue manager against a Python packing model (see tb_sue_tx_queue.py)."""

import re

import pytest

from common import GeneratorError, generate, run_cocotb
from common.lint import assert_lints_clean

# (dataWidth, xpus, vcs, cells)
CONFIGS = [(256, 4, 2, 64), (512, 2, 1, 32), (1024, 8, 4, 128), (256, 8, 4, 256)]


def run(cfg, testcase, **env):
    w, x, v, c = cfg
    design = generate("sue_tx_queue", {"dataWidth": w, "xpus": x, "vcs": v, "cells": c})
    e = {"TB_W": str(w), "TB_XPUS": str(x), "TB_VCS": str(v), "TB_CELLS": str(c)}
    e.update({k: str(val) for k, val in env.items()})
    run_cocotb(design, "tb_sue_tx_queue", extra_env=e, testcase=testcase)


@pytest.mark.parametrize("limit", [2048, 274, 300])
@pytest.mark.parametrize("cfg", CONFIGS, ids=[f"w{w}-x{x}-v{v}-c{c}" for w, x, v, c in CONFIGS])
def test_random(cfg, limit):
    run(cfg, "random_traffic", TB_LIMIT=limit, TB_OPS=300)


@pytest.mark.parametrize("cfg", CONFIGS[:3], ids=[f"w{w}" for w, x, v, c in CONFIGS[:3]])
def test_idle_latency(cfg):
    run(cfg, "idle_latency", TB_EXPECT_LATENCY=4)  # desc t+3, first data beat t+4


# measured: 1.0 at W=256/512; 0.886 at W=1024 (0.94 before the flush merge; 1-2 cell PDUs: the
# pop -> flush -> close -> append -> grant loop is not fully hidden by the 8-entry prefetch; see
# QUEUES.md, known gaps)
@pytest.mark.parametrize("cfg,util", [(CONFIGS[0], 1.0), (CONFIGS[1], 1.0), (CONFIGS[2], 0.88)],
                         ids=["w256", "w512", "w1024"])
def test_back_to_back(cfg, util):
    run(cfg, "back_to_back", TB_OPS=150, TB_EXPECT_UTIL=util)


# the closed destination's backlog must fit the buffer (see QUEUES.md: mid-op cell exhaustion)
@pytest.mark.parametrize("cfg", [CONFIGS[3], (1024, 8, 4, 256)], ids=["w256-x8-v4-c256", "w1024-x8-v4-c256"])
def test_hol_and_pause(cfg):
    run(cfg, "hol_and_pause", TB_OPS=80)


@pytest.mark.parametrize("cfg", [CONFIGS[3]], ids=["w256-x8-v4-c256"])
def test_dest_limit(cfg):
    run(cfg, "dest_limit", TB_OPS=160)


@pytest.mark.parametrize("params", [
    {"dataWidth": 512, "xpus": 1024, "vcs": 4, "cells": 8192},
    {"dataWidth": 1024, "xpus": 1024, "vcs": 4, "cells": 8192},
], ids=["w512-1024x4", "w1024-1024x4"])
def test_lint_realistic(params):
    assert_lints_clean("sue_tx_queue", params)


@pytest.mark.parametrize("params,message", [
    ({"dataWidth": 512, "vcs": 3}, "vcs' = 3 is out of range"),
    ({"dataWidth": 256, "cells": 20}, "cells must be even, 24..65536"),
    ({"dataWidth": 256, "cells": 65}, "cells must be even, 24..65536"),
    ({"dataWidth": 2048}, "dataWidth' = 2048 is out of range"),
])
def test_rejects_invalid_parameters(params, message):
    with pytest.raises(GeneratorError, match=re.escape(message)):
        generate("sue_tx_queue", params)

# SPDX-License-Identifier: Apache-2.0
"""WordReadMux: reads of random words by index, two cycles of latency, out-of-range indices."""

import re

import pytest

from common import GeneratorError, generate, run_cocotb

# n = 1 (no index logic), 16 (one full group), 40 (partial last group, 3 groups).
CONFIGS = [(1, 8), (16, 32), (40, 32)]


@pytest.mark.parametrize("n,width", CONFIGS, ids=[f"n{n}-w{w}" for n, w in CONFIGS])
def test_word_read_mux(n, width):
    run_cocotb(generate("word_read_mux", {"n": n, "width": width}), "tb_word_read_mux",
               extra_env={"TB_N": str(n), "TB_WIDTH": str(width)})


@pytest.mark.parametrize("params,message", [({"n": 0}, "'n' = 0 is out of range"),
                                            ({"width": 65}, "'width' = 65 is out of range")])
def test_rejects_invalid_parameters(params, message):
    with pytest.raises(GeneratorError, match=re.escape(message)):
        generate("word_read_mux", params)

# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for WordReadMux: words change every cycle; each response must carry the value
the word had in the cycle after its request (the mux samples there), two cycles after it."""

import os
import random
from collections import deque

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge

from common.stream_bfm import start_clock_and_reset

N = int(os.environ["TB_N"])
WIDTH = int(os.environ["TB_WIDTH"])


@cocotb.test()
async def random_reads(dut):
    rng = random.Random(int(os.environ.get("TB_SEED", "1")))
    index_bits = len(dut.req_index)
    words = [getattr(dut, f"words_{i}") for i in range(N)]
    dut.req_valid.value = 0
    await start_clock_and_reset(dut)
    history = deque(maxlen=4)  # word values per cycle, newest last
    pending = deque()  # (cycle of the request, index)
    checked = bad_seen = 0
    for cycle in range(3000):
        values = [rng.getrandbits(WIDTH) for _ in range(N)]
        for w, v in zip(words, values):
            w.value = v
        req = rng.random() < 0.7
        index = rng.randrange(N + 3) if rng.random() < 0.1 else rng.randrange(N)
        index = min(index, (1 << index_bits) - 1)
        dut.req_valid.value = int(req)
        dut.req_index.value = index
        await ReadOnly()
        history.append(values)
        if int(dut.rsp_valid.value):
            assert pending and pending[0][0] == cycle - 2, f"cycle {cycle}: response without a request 2 cycles ago"
            _, want_index = pending.popleft()
            if want_index >= N:
                assert int(dut.rsp_bad.value) == 1 and int(dut.rsp_data.value) == 0, f"index {want_index} >= {N}"
                bad_seen += 1
            else:
                want = history[-2][want_index]  # sampled in the cycle after the request
                assert int(dut.rsp_bad.value) == 0
                assert int(dut.rsp_data.value) == want, \
                    f"cycle {cycle}: word {want_index} = {int(dut.rsp_data.value):#x}, expected {want:#x}"
            checked += 1
        else:
            assert not pending or pending[0][0] > cycle - 2, f"cycle {cycle}: response missing"
        if req:
            pending.append((cycle, index))
        await RisingEdge(dut.clk)
    assert checked > 1500
    if N + 3 <= (1 << index_bits) or N < (1 << index_bits):
        assert bad_seen > 0, "no out-of-range index exercised"

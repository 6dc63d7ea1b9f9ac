# SPDX-License-Identifier: Apache-2.0
"""Control frames through AXI4-Lite registers (spec 3.1; sue-rtl ControlFrames), on the
``sue_ctl_frames`` top: cocotbext-axi's AxiLiteMaster writes and reads the frame tables,
AxiStreamSink (with back-pressure) and AxiStreamSource carry the frames, scapy builds them, a
Python model of the documented drop rules predicts what is kept, sent and counted.

Matrix: (dataWidth, maxFrameBytes, txSlots, rxSlots): 64-bit bus (a 14-byte minimum spans two
beats), 512 (the endpoint default), 1024 with a small maximum frame and two receive slots.
"""

from __future__ import annotations

import pytest

from common import generate, run_cocotb

CASES = [(64, 1518, 2, 4), (512, 1518, 2, 4), (1024, 200, 4, 2)]


@pytest.mark.parametrize("width,max_frame,tx_slots,rx_slots", CASES,
                         ids=[f"w{w}-m{m}-t{t}-r{r}" for w, m, t, r in CASES])
def test_sue_ctl_frames(width, max_frame, tx_slots, rx_slots):
    params = {"dataWidth": width, "maxFrameBytes": max_frame, "txSlots": tx_slots, "rxSlots": rx_slots}
    design = generate("sue_ctl_frames", params)
    run_cocotb(design, "tb_sue_ctl_frames", extra_env={
        "TB_REGS_DIR": str(design.dir), "TB_WIDTH": str(width), "TB_MAX_FRAME": str(max_frame),
        "TB_TX_SLOTS": str(tx_slots), "TB_RX_SLOTS": str(rx_slots), "TB_SEED": str(width + max_frame)})

# SPDX-License-Identifier: Apache-2.0
"""One SUE endpoint with 1, 2 or 4 ports, its XPU writing to one destination per port: the transmit
side's aggregate throughput over the ports, and its latency (verif/bench/ports_bench.py).

A pair of endpoints cannot load several ports in strict mode (each peer is bound to one port), so
this bench has one endpoint and ``ports`` destinations, XPUs ``xpus - ports .. xpus - 1`` (the
default PORT_MAP, ``d mod ports``, puts each on its own port). Nobody answers: WINDOW is the
largest, RTO the longest, and the cell buffers hold every op of the run, so nothing is held back
for want of an ACK and nothing is sent twice. Every frame every MAC takes is decoded (R-CRC
checked, ops walked with the command table): a figure comes only from a run in which each op the
XPU sent left exactly once, on the port of its destination, byte for byte.

Scenarios (TB_SCENARIO):

* ``throughput``: TB_OPS writes of TB_DATA_LEN bytes (8 control bytes), round robin over the
  destinations and VCs, XPU never idle, MACs always ready. ``ops_per_cycle``: ops that left on
  the MACs per cycle, from the first op accepted to the last frame's end; ``ops_per_port``.
* ``latency``: one write at a time (idle system), to each destination in turn: the cycle the XPU's
  op is accepted (its last beat) to its frame's first MAC beat (``tx_cycles_min/max``).

Environment: TB_REGS_DIR, TB_XPUS, TB_VCS, TB_OPS, TB_DATA_LEN, TB_SCENARIO, TB_RESULTS (JSON),
TB_PREFIX ("a_": the endpoint is A of a pair model, ``common.pair_wrapper``, whose B stays idle: the
tests run this bench on a pair model they build anyway), and tb_sue_pair.py's configuration
variables (imported: ``setup_writes``).
"""

from __future__ import annotations

import json
import os
import random

import cocotb

from common import sue_frames
from common.mac_axis import FrameSink, MacFrame
from common.stream_bfm import ClockedBench, start_clock_and_reset
from common.sue_endpoint_bench import RegPort, View
from common.sue_ops import CommandTable, XpuTx, random_op, walk_ops
from tb_sue_pair import ENCAP, FCS, REGS, VCS, XPUS, mac_of, setup_writes

OWN = 0
WRITE_TYPE = 0xA4  # a write with 8 control bytes (4 units): type, length, a 48-bit address
WINDOW_MAX = 1024  # SueEndpoint.WINDOW_MAX
RTO_MAX = (1 << 23) - 1  # TxReliability: 1 .. 2^(TW-1) - 1
SCENARIO = os.environ.get("TB_SCENARIO", "throughput")
N_OPS = int(os.environ.get("TB_OPS", "400"))
DATA_LEN = int(os.environ.get("TB_DATA_LEN", "64"))
PREFIX = os.environ.get("TB_PREFIX", "")


def count_ports(dut) -> int:
    n = 0
    while hasattr(dut, f"mac_tx_{n}_tvalid"):
        n += 1
    return n


@cocotb.test()
async def ports_tx(dut):
    rng = random.Random(int(os.environ.get("TB_SEED", "1")))
    view = View(dut, PREFIX)
    ports = count_ports(view)
    wb, mac_wb = len(view.tx_data) // 8, len(view.mac_tx_0_tdata) // 8
    dests = [XPUS - ports + p for p in range(ports)]
    assert sorted(d % ports for d in dests) == list(range(ports)) and OWN not in dests
    table = CommandTable.random(rng)
    table.entries[WRITE_TYPE] = (1, 4)

    bench = ClockedBench(dut.clk)
    regs = bench.add(RegPort(view, REGS))
    xtx = bench.add(XpuTx(view, rng, wb))
    xtx.paused = True
    sent: dict[tuple[int, int], list[bytes]] = {}  # per {destination, VC}: ops in XPU order
    left: dict[tuple[int, int], list[bytes]] = {}  # per {destination, VC}: ops as they left
    dest_of_mac = {mac_of(d): d for d in dests}
    frames: list[tuple[int, MacFrame]] = []

    def on_frame_for(port: int):
        def on_frame(f: MacFrame) -> None:
            d = sue_frames.decode(f.data, ENCAP, False, FCS).check()
            ops = walk_ops(d.payload, table)
            if not ops:
                return
            dest = dest_of_mac[int(d.net["dst"].replace(":", ""), 16)]
            assert dest % ports == port, f"ops to {dest} left on port {port}, not {dest % ports} (PORT_MAP default)"
            frames.append((port, f))
            left.setdefault((dest, d.rh.vc), []).extend(ops)
        return on_frame

    class Probe:
        """Per cycle of the measured run: each port's MAC tvalid, and whether the XPU waits for
        credits (ops queued, no op being sent, none startable): where the figure's cycles go."""
        def __init__(self):
            self.on = False
            self.valid = [0] * ports
            self.credit_wait = 0
            self.cycles = 0

        def drive(self):
            pass

        def sample(self):
            if not self.on:
                return
            self.cycles += 1
            for p in range(ports):
                self.valid[p] += int(getattr(view, f"mac_tx_{p}_tvalid").value)
            if not xtx.beats and any(xtx.queues) and not any(q and xtx._startable(q[0]) for q in xtx.queues):
                self.credit_wait += 1

    probe = bench.add(Probe())
    for p in range(ports):
        bench.add(FrameSink(bench, dut, f"{PREFIX}mac_tx_{p}", mac_wb, 0.0, rng, on_frame_for(p)))
    # the pair's other endpoint (TB_PREFIX) gets the idle inputs this one gets, link down
    sides = [(view, (1 << ports) - 1)] + ([(View(dut, "b_" if PREFIX == "a_" else "a_"), 0)] if PREFIX else [])
    for side, link_up in sides:
        for p in range(ports):
            getattr(side, f"mac_rx_{p}_tvalid").value = 0
        side.vc_pause.value = 0
        side.link_up.value = link_up
        side.rx_credit.value = 0
        side.rx_reset_in.value = 0
        side.conn_state_dest.value = 0
    if PREFIX:
        peer = sides[1][0]
        for name in ("tx_valid", "tx_reset_in", "s_axil_awvalid", "s_axil_wvalid", "s_axil_arvalid"):
            getattr(peer, name).value = 0

    await start_clock_and_reset(dut)
    regs.queue.extend(setup_writes(OWN, table) + [(REGS.cfg.WINDOW.address, WINDOW_MAX),
                                                  (REGS.cfg.RTO.address, RTO_MAX)])
    await bench.run_until(lambda: not regs.busy, 200_000, "configuration")
    await bench.run(32)

    def op_for(i: int):
        d = dests[i % ports]
        op = random_op(rng, table, d, (i // ports) % VCS, data_len=DATA_LEN, cmd_type=WRITE_TYPE)
        sent.setdefault((d, op.vc), []).append(op.wire_bytes())
        return op

    results: dict = {"scenario": SCENARIO, "ports": ports, "data_width": wb * 8, "port_width": mac_wb * 8,
                     "data_len": DATA_LEN}
    if SCENARIO == "latency":
        lat = []
        for i in range(4 * ports):
            op = op_for(i)
            before = len(frames)
            xtx.submit(op)
            xtx.paused = False
            await bench.run_until(lambda: len(frames) > before, 5000, f"latency op {i}")
            xtx.paused = True
            lat.append(frames[-1][1].first_cycle - op.last_beat_cycle)
            await bench.run(64)
        results.update(tx_cycles_min=min(lat), tx_cycles_max=max(lat))
    else:
        for i in range(N_OPS):
            xtx.submit(op_for(i))
        xtx.paused = False
        probe.on = True
        first = bench.cycle
        await bench.run_until(lambda: sum(map(len, left.values())) >= N_OPS, 200 * N_OPS + 10_000, "every op sent")
        end = max(f.last_cycle for _, f in frames)
        cycles = end - first + 1
        probe.on = False
        per_port = [[f for q, f in frames if q == p] for p in range(ports)]
        results.update(frames_per_port=[len(fs) for fs in per_port],
                       frame_bytes_mean=[round(sum(len(f.data) for f in fs) / max(1, len(fs)), 1) for fs in per_port],
                       port_busy=[round(v / probe.cycles, 4) for v in probe.valid],
                       port_last_cycle=[max(f.last_cycle for f in fs) - first + 1 for fs in per_port],
                       xpu_credit_wait=round(probe.credit_wait / probe.cycles, 4))
        dut._log.info(f"frames per port {results['frames_per_port']}, mean bytes {results['frame_bytes_mean']}, "
                      f"MAC tvalid share {results['port_busy']}, port ends {results['port_last_cycle']}, "
                      f"XPU waiting for credits {results['xpu_credit_wait']}")
        results.update(ops=N_OPS, cycles=cycles, ops_per_cycle=N_OPS / cycles,
                       ops_per_port=[sum(len(v) for (d, _), v in left.items() if d % ports == p)
                                     for p in range(ports)])
        dut._log.info(f"{ports} port(s) x {mac_wb * 8} bits, XPU {wb * 8} bits, {DATA_LEN}-byte writes: "
                      f"{N_OPS} ops in {cycles} cycles = {N_OPS / cycles:.3f} ops/cycle, per port "
                      f"{results['ops_per_port']}")
    await bench.run(200)
    assert left.keys() == sent.keys(), f"ops left for {sorted(left)}, sent to {sorted(sent)}"
    for key, ops in sent.items():
        assert left[key] == ops, (f"destination, VC {key}: {len(left[key])} ops left, {len(ops)} sent, "
                                  f"or not the same bytes in order")
    if os.environ.get("TB_RESULTS"):
        with open(os.environ["TB_RESULTS"], "w") as fh:
            json.dump(results, fh)

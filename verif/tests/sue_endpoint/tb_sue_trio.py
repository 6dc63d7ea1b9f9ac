# SPDX-License-Identifier: Apache-2.0
"""Three SUE endpoints of 2 ports through a switch per port: failover per connection
(sue-rtl/DESIGN-PORTS.md, "Failover per connection").

Endpoints A (xpuid 1), B (2) and C (3) are three instances of one generated ``sue_endpoint``
(``pair_design`` with three prefixes), each with a Python XPU on both interfaces, in unordered
mode. Port p of every endpoint is cabled to a switch of port p: each frame goes to the endpoint
its destination MAC names (byte 4 of ``mac_of``), through a link model per {source, destination,
port}. From TB_LOSS_AT cycles into the traffic, port 1's switch loses every frame A -> B for good
(``link_up`` stays 1): a peer unreachable over one port while the plane's other peer (C) is
acknowledged there, so plane 1 of A keeps making progress and never becomes unreachable.

Checked (the oracle is the XPUs' own record of what they sent): every op delivered exactly once to
the XPU it was sent to (unordered mode: in any order), with the right source; A's plane 1 moved
its connection to B (``tx_rel.conn_moves``) and nothing else moved (neither plane of any endpoint
unreachable, no plane followed); after the move A's plane-1 frames to B leave on port 0, its
plane-1 frames to C still on port 1 (the connection moved, not the plane); C moved nothing.

Environment (the rest as tb_sue_pair.py, whose configuration writes this bench shares: TB_PORTS,
TB_UNORDERED, TB_UNREACH_TIME, TB_CONN_MOVE_RETRIES, TB_RTO, TB_RETRY_LIMIT): TB_OPS (ops per
source and destination), TB_LOSS_AT (cycles), TB_SEED, TB_TIMEOUT.
"""

from __future__ import annotations

import os
import random
from collections import defaultdict

import cocotb

from common import sue_frames
from common.link_model import Faults, LinkModel
from common.stream_bfm import ClockedBench, CycleProbe, start_clock_and_reset
from common.sue_endpoint_bench import MacTxSink, View
from common.sue_ops import CommandTable, random_op
from tb_sue_pair import (ENCAP, FCS, PORTS, Side, conn_move_of, plane_of, plane_words, setup_writes,
                         expect_accepted, take_any_order)

N_OPS = int(os.environ.get("TB_OPS", "300"))
LOSS_AT = int(os.environ.get("TB_LOSS_AT", "1000"))
TIMEOUT = int(os.environ.get("TB_TIMEOUT", "400000"))
IDS = {"a_": 1, "b_": 2, "c_": 3}
ID_A, ID_B, ID_C = 1, 2, 3
LOST_PORT = 1


def dest_of(frame: bytes) -> int:
    """The endpoint a frame is for: byte 4 of its destination MAC (tb_sue_pair.mac_of)."""
    return frame[4]


@cocotb.test()
async def trio(dut):
    assert PORTS == 2, "the trio bench runs endpoints of 2 ports (TB_PORTS=2)"
    seed = int(os.environ.get("TB_SEED", "1"))
    rng = random.Random(seed)
    wb = len(dut.a_tx_data) // 8
    mac_wb = len(dut.a_mac_tx_0_tdata) // 8
    table = CommandTable.random(rng)
    bench = ClockedBench(dut.clk)
    expected: dict[tuple[int, int, int], list] = defaultdict(list)  # (src, dst, vc) -> ops not yet delivered
    delivered = defaultdict(int)
    taken = defaultdict(int)
    sides: dict[int, Side] = {}
    # frames of plane 1 on the wire after the loss began: (source, destination, port) -> count
    plane1_after = defaultdict(int)
    loss = {"from": None, "frames": 0}
    # plane-1 frames that reached the switch's output, per (source, destination): (RH conn_move, port) -> count
    route_seen: dict = defaultdict(lambda: defaultdict(int))

    def absorb(src: int) -> None:
        expect_accepted(sides[src], taken, expected)

    def on_op_for(me: int):
        def on_op(src, vc, control, data, _first_cycle):
            absorb(src)
            take_any_order(expected[(src, me, vc)], table, control, data, f"XPU {me}: op from {src} VC {vc}")
            delivered[(src, me)] += 1
        return on_op

    # one link model per {source, destination, port}: the switch's path
    links = {(s, d, p): LinkModel(random.Random(seed + 10 * s + d + 100 * p), Faults(), latency=20)
             for s in IDS.values() for d in IDS.values() if s != d for p in range(PORTS)}

    def switch_from(src: int, port: int):
        def take(frame: bytes, cycle: int) -> None:
            kind = sue_frames.classify(frame, ENCAP, False, FCS)
            assert kind != sue_frames.OTHER, f"endpoint {src}: a frame that is not SUE's on port {port}"
            dst = dest_of(frame)
            assert dst in IDS.values() and dst != src, f"endpoint {src}: a frame for {dst} on port {port}"
            if loss["from"] is not None:
                if plane_of(frame, port) == LOST_PORT:
                    plane1_after[(src, dst, port)] += 1
                if src == ID_A and dst == ID_B and port == LOST_PORT:
                    loss["frames"] += 1
                    return  # lost for good: B is unreachable from A over port 1
            if plane_of(frame, port) == LOST_PORT:
                route_seen[(src, dst)][(conn_move_of(frame), port)] += 1
            links[(src, dst, port)].push(cycle, frame)
        return take

    for prefix, own in IDS.items():
        sides[own] = Side(bench, dut, prefix, own, 0, rng, table, wb, mac_wb, on_op_for(own))
        for p in range(PORTS):
            sides[own].mac_outs.append(bench.add(MacTxSink(bench, View(dut, prefix), rng, mac_wb, 0.1,
                                                           switch_from(own, p), p)))

    def move(cycle: int) -> None:
        for (s, d, p), link in links.items():
            for fr in link.due(cycle):
                sides[d].mac_ins[p].send(fr)
    bench.add(CycleProbe(move))

    await start_clock_and_reset(dut)
    for prefix in IDS:
        getattr(dut, f"{prefix}link_up").value = (1 << PORTS) - 1
    for s in sides.values():
        s.regs.queue.extend(setup_writes(s.own, table))
    await bench.run_until(lambda: not any(s.regs.busy for s in sides.values()), 100_000, "configuration")
    await bench.run(16)

    # traffic: every endpoint to both others, random ops on random VCs
    seq = defaultdict(int)
    for s in sides.values():
        for d in IDS.values():
            if d == s.own:
                continue
            for _ in range(N_OPS):
                vc = rng.randrange(2)
                op = random_op(rng, table, d, vc)
                op.seq = seq[(s.own, d, vc)]
                seq[(s.own, d, vc)] += 1
                s.xtx.submit(op)
        s.xtx.paused = False
    start = bench.cycle

    def lose(cycle: int) -> None:
        if loss["from"] is None and cycle - start >= LOSS_AT:
            loss["from"] = cycle
    bench.add(CycleProbe(lose))

    def all_done() -> bool:
        for src in sides:
            absorb(src)
        return all(s.xtx.idle_now for s in sides.values()) and not any(expected.values())
    await bench.run_until(all_done, TIMEOUT, "every op delivered with A -> B lost on port 1")
    assert loss["frames"] > 0, "no frame A -> B on port 1 after the loss began: the run ended too early"
    for src, s in sides.items():
        assert taken[src] == 2 * N_OPS, f"XPU {src}: {taken[src]} ops accepted of {2 * N_OPS}"
    for (src, dst), n in sorted(delivered.items()):
        assert n == N_OPS, f"{n} ops from {src} to {dst} delivered, {N_OPS} sent"

    dut._log.info(f"plane-1 frames by (conn_move, port): " + ", ".join(
        f"{a}->{b}: {dict(v)}" for (a, b), v in sorted(route_seen.items())))
    await bench.run(2000)
    for s in sides.values():
        s.regs.read_status()
    await bench.run_until(lambda: not any(s.regs.busy for s in sides.values()), 20_000, "status reads")
    raw = {own: s.regs.status() for own, s in sides.items()}
    for own, c in raw.items():
        assert c["steer.unreachable"] == 0 and c["steer.follows"] == 0, \
            f"endpoint {own}: a plane moved as a whole (steer.unreachable {c['steer.unreachable']:#x}, " \
            f"steer.follows {c['steer.follows']:#x})"
    moves = {own: [plane_words(c, q)["tx_rel.conn_moves"] for q in range(PORTS)] for own, c in raw.items()}
    follows = {own: [plane_words(c, q)["tx_rel.conn_follows"] for q in range(PORTS)] for own, c in raw.items()}
    assert moves[ID_A][LOST_PORT] >= 1 and moves[ID_A][1 - LOST_PORT] == 0, \
        f"A: connections moved per plane {moves[ID_A]}: only plane {LOST_PORT}'s (to B) should"
    assert moves[ID_C] == [0, 0], f"C: connections moved per plane {moves[ID_C]}: its paths are all fine"
    # the connection moved, not the plane: A's plane-1 frames to B left on port 0 after the move, those to C on port 1
    assert plane1_after[(ID_A, ID_B, 0)] > 0, f"A: no plane-1 frame to B on port 0 after the loss: {dict(plane1_after)}"
    assert plane1_after[(ID_A, ID_C, LOST_PORT)] > 0 and plane1_after[(ID_A, ID_C, 0)] == 0, \
        f"A: plane-1 frames to C after the loss by port: {plane1_after[(ID_A, ID_C, 0)]} on 0, " \
        f"{plane1_after[(ID_A, ID_C, 1)]} on 1 (the plane must stay on port 1)"
    assert route_seen[(ID_A, ID_B)][(1, 0)] > 0, \
        f"A: no plane-1 frame to B with RH conn_move 1 on port 0: {dict(route_seen[(ID_A, ID_B)])}"
    assert set(route_seen[(ID_A, ID_C)]) == {(0, LOST_PORT)}, \
        f"A: plane-1 frames to C by (conn_move, port) {dict(route_seen[(ID_A, ID_C)])}: its connection never moved"
    dut._log.info(f"failover per connection, three endpoints: {sum(delivered.values())} ops delivered exactly once; "
                  f"{loss['frames']} frames A -> B lost on port 1; "
                  f"connection moves per plane {moves}, follows {follows}; plane-1 frames after the loss "
                  f"(source, destination, port): {dict(plane1_after)}")

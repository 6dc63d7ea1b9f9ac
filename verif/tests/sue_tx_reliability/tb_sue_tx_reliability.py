# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for go-back-N transmit reliability (top ``sue_tx``, TxReliability.java).

The MAC output feeds a Python go-back-N RECEIVER written from ARCHITECTURE.md §4/§5 and
DESIGN-RELIABILITY.md (receive side), not from the RTL: per source it keeps the expected PSN,
accepts only that PSN (delivers its ops), drops duplicates (answering ACK(expected - 1)) and gaps
(answering NACK(expected) once, again after NACK_RETRY cycles while the gap persists), and
coalesces ACKs (every ACK_EVERY PDUs or ACK_DELAY cycles after the first unacknowledged one).
The network between drops data frames (random loss, bursts, a forced lost tail), and the
ACK/NACK messages back to the DUT's ``peer_ack`` are delayed at random (so they reorder), lost
and duplicated at random.

Checks: every op the XPU handed over is delivered exactly once, byte-identical, in order per
{destination, VC}; frames decode (scapy + §5 layers, R-CRC = zlib.crc32); the DUT's counters
match what the model saw (retransmissions = frames whose PSN was already on the wire, new PDUs =
distinct PSNs, ACK/NACK used + stale + lost = messages sent); after the last ACK every cell is
free and every credit is back with the XPU.

Scenarios (TB_SCENARIO): ``loss`` (random traffic over every destination with loss, then a lost
tail recovered by the retransmit timeout) and ``dead`` (one peer never answers: only its
connection enters the error state, its ops are dropped and counted, the others are unaffected,
cells and credits come back; a CONN write re-initialises it and traffic to it flows again).
"""

from __future__ import annotations

import os
import random
import sys
from collections import defaultdict
from pathlib import Path

import cocotb
from cocotb.triggers import RisingEdge

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sue_tx"))
from tb_sue_tx import CfgPort, Mac, Pulses, Setup, start  # noqa: E402  (the sue_tx bench's agents)

from common import sue_frames  # noqa: E402
from common.peer_ack import ACK, NACK, PeerAckDriver  # noqa: E402
from common.stream_bfm import ClockedBench, start_clock_and_reset  # noqa: E402
from common.sue_ops import XpuTx, random_op, walk_ops  # noqa: E402

SCENARIO = os.environ.get("TB_SCENARIO", "loss")
ENCAP, VLAN, FCS = 0, False, False
N_OPS = int(os.environ.get("TB_OPS", "400"))
CELLS = int(os.environ["TB_CELLS"])
LOSS = float(os.environ.get("TB_LOSS", "0.03"))
MSG_LOSS = float(os.environ.get("TB_MSG_LOSS", "0.05"))
WINDOW, RTO = int(os.environ.get("TB_WINDOW", "8")), int(os.environ.get("TB_RTO", "1500"))
RETRY_LIMIT = int(os.environ.get("TB_RETRY_LIMIT", "30"))
WINDOW_REG, RTO_REG, RETRY_REG = 0x220, 0x221, 0x222
CONN_REG = 0x9
# receiver parameters (DESIGN-RELIABILITY.md receive side)
ACK_EVERY, ACK_DELAY, NACK_RETRY = 4, 60, 400


class Receiver:
    """Go-back-N receivers, one per source connection (here: per destination of the DUT)."""

    def __init__(self, setup: Setup, mac: Mac, driver: PeerAckDriver, rng: random.Random):
        self.s, self.mac, self.drv, self.rng = setup, mac, driver, rng
        self.expected = dict(setup.next_psn)
        self.since_ack = defaultdict(int)
        self.ack_due: dict[int, int] = {}
        self.nack_at: dict[int, int] = {}  # dest -> cycle of the last NACK while a gap persists
        self.delivered: dict[tuple[int, int], list[bytes]] = defaultdict(list)
        self.on_wire: dict[tuple[int, int], int] = defaultdict(int)  # (dest, psn) -> copies seen
        self.seen = 0
        self.dead: set[int] = set()
        self.drop_next: set[int] = set()
        self.burst = 0
        self.lost = self.dups = self.gaps = self.empty = 0
        self.cycle = 0
        self.msgs = {ACK: 0, NACK: 0}
        self.archived = [0, 0]  # [PDUs, retransmissions] of connections re-initialised since

    def reinit(self, d, psn):
        """The connection to d restarts at psn: its old PSNs are forgotten (they may come again)."""
        for k in [k for k in self.on_wire if k[0] == d]:
            self.archived[0] += 1
            self.archived[1] += self.on_wire.pop(k) - 1
        self.expected[d] = psn
        self.since_ack[d] = 0
        self.ack_due.pop(d, None)
        self.nack_at.pop(d, None)

    def send(self, d, op, rpsn):
        if self.rng.random() < MSG_LOSS:
            return
        copies = 2 if self.rng.random() < 0.03 else 1
        for _ in range(copies):
            self.drv.post(d, op, rpsn, self.rng.randint(3, 80))
            self.msgs[op] += 1

    def frame(self, raw: bytes):
        f = sue_frames.decode(raw, ENCAP, VLAN, FCS)
        assert f.rcrc_ok, "R-CRC does not match zlib.crc32"
        d = self.s.dest_of(f)
        ops = walk_ops(f.payload, self.s.table)
        if not ops:
            self.empty += 1
            return
        psn = f.rh.psn
        self.on_wire[(d, psn)] += 1
        # the network
        if d in self.dead:
            return
        if d in self.drop_next:
            self.drop_next.discard(d)
            self.lost += 1
            return
        if self.burst == 0 and self.rng.random() < LOSS / 8:
            self.burst = self.rng.randint(2, 6)
        if self.burst or self.rng.random() < LOSS:
            self.burst = max(0, self.burst - 1)
            self.lost += 1
            return
        for _ in range(2 if self.rng.random() < 0.01 else 1):  # the network duplicates a frame now and then
            self.receive(d, psn, f.rh.vc, ops)

    def receive(self, d, psn, vc, ops):
        # the receiver (psn serial-number compare, half the 16-bit space)
        diff = (psn - self.expected[d]) & 0xFFFF
        if diff == 0:
            for o in ops:
                self.delivered[(d, vc)].append(o)
            self.expected[d] = (self.expected[d] + 1) & 0xFFFF
            self.nack_at.pop(d, None)
            self.since_ack[d] += 1
            if self.since_ack[d] >= ACK_EVERY:
                self.ack(d)
            elif self.since_ack[d] == 1:
                self.ack_due[d] = self.cycle + ACK_DELAY
        elif diff >= 0x8000:
            self.dups += 1
            self.ack(d)
        else:
            self.gaps += 1
            last = self.nack_at.get(d)
            if last is None or self.cycle - last >= NACK_RETRY:
                self.nack_at[d] = self.cycle
                self.send(d, NACK, self.expected[d])

    def ack(self, d):
        self.since_ack[d] = 0
        self.ack_due.pop(d, None)
        self.send(d, ACK, self.expected[d] - 1)

    def drive(self):
        while self.seen < len(self.mac.frames):
            self.frame(self.mac.frames[self.seen])
            self.seen += 1
        for d, due in list(self.ack_due.items()):
            if self.cycle >= due:
                self.ack(d)

    def sample(self):
        self.cycle += 1


class ErrWatch:
    def __init__(self, dut):
        self.dut, self.events = dut, []

    def drive(self):
        pass

    def sample(self):
        if int(self.dut.conn_err_valid.value):
            self.events.append(int(self.dut.conn_err_payload.value))


def counter(dut, name):
    return int(getattr(dut, f"cnt_tx_rel_{name}").value)


async def drain(bench, dut, xpu, drv, rx, what, skip=(), extra=lambda: True, timeout=600_000):
    def done():
        if not extra() or not xpu.idle_now or drv.busy or int(dut.free_cells.value) != CELLS:
            return False
        live = sum(1 for o in xpu.accepted if o.dest not in skip)
        return sum(len(v) for k, v in rx.delivered.items() if k[0] not in skip) >= live
    await bench.run_until(done, timeout, what)
    await bench.run(200)  # late duplicates of ACKs, nothing may be left
    assert not drv.busy and int(dut.free_cells.value) == CELLS, f"{what}: cells still held"


def check_delivery(rx: Receiver, xpu: XpuTx, skip=()):
    want = defaultdict(list)
    for o in xpu.accepted:
        if o.dest not in skip:
            want[(o.dest, o.vc)].append(o.wire_bytes())
    keys = set(want) | {k for k in rx.delivered if k[0] not in skip}
    for k in sorted(keys):
        got = rx.delivered.get(k, [])
        assert len(got) == len(want[k]), f"{k}: {len(got)} ops delivered, {len(want[k])} sent"
        for i, (g, w) in enumerate(zip(got, want[k])):
            assert g == w, f"{k} op #{i}: delivered {g.hex()}, sent {w.hex()}"


def check_counters(dut, rx: Receiver, drv: PeerAckDriver):
    retx = sum(n - 1 for n in rx.on_wire.values()) + rx.archived[1]
    assert counter(dut, "retx") == retx, f"cnt_tx_rel_retx {counter(dut, 'retx')}, model saw {retx} repeated PSNs"
    pdus = len(rx.on_wire) + rx.archived[0]
    assert counter(dut, "pdus") == pdus, f"cnt_tx_rel_pdus {counter(dut, 'pdus')}, {pdus} on the wire"
    acks = sum(1 for _, _, op, _ in drv.sent if op == ACK)
    nacks = len(drv.sent) - acks
    lost = counter(dut, "ack_merged")
    assert counter(dut, "ack_used") + counter(dut, "ack_stale") + counter(dut, "nack_used") + \
        counter(dut, "nack_stale") + lost == len(drv.sent), "ACK/NACK messages not all accounted for"
    assert counter(dut, "nack_used") + counter(dut, "nack_stale") <= nacks
    assert counter(dut, "ack_used") + counter(dut, "ack_stale") <= acks
    assert counter(dut, "empty") == rx.empty


@cocotb.test()
async def run(dut):
    seed = cocotb.RANDOM_SEED
    rng = random.Random(seed)
    xpus, vcs = int(os.environ["TB_XPUS"]), int(os.environ["TB_VCS"])
    setup = Setup(rng, xpus)
    bench = ClockedBench(dut.clk)
    cfg = bench.add(CfgPort(dut))
    xpu = XpuTx(dut, rng, len(dut.tx_data) // 8, idle=0.3)
    xpu.paused = True
    bench.add(xpu)
    mac = bench.add(Mac(bench, dut, rng, 0.2, len(dut.mac_tx_0_tdata) // 8))
    bench.add(Pulses(dut, "ack_req", ["dest", "op", "rpsn"]))
    drv = bench.add(PeerAckDriver(dut))
    rx = bench.add(Receiver(setup, mac, drv, random.Random(seed + 5)))
    errs = bench.add(ErrWatch(dut))
    dut.vc_pause.value = 0
    dut.conn_state_dest.value = 0
    await start_clock_and_reset(dut)
    retry = RETRY_LIMIT if SCENARIO == "loss" else 2
    # out-of-range values first: ignored (the good writes after them set the registers) and counted
    bad = [(WINDOW_REG, 0), (RTO_REG, 0), (RETRY_REG, 256), (WINDOW_REG, 1 << 20)]
    cfg.queue.extend(bad + setup.writes() + [(WINDOW_REG, WINDOW), (RTO_REG, RTO), (RETRY_REG, retry)])
    await bench.run_until(lambda: not cfg.busy, 100_000, "configuration")
    await bench.run(300)
    assert counter(dut, "bad_cfg") == len(bad), f"cnt_bad_cfg {counter(dut, 'bad_cfg')}, {len(bad)} bad writes"
    credits0 = dict(xpu.credits)
    xpu.paused = False
    dests = list(range(xpus))

    if SCENARIO == "loss":
        for _ in range(N_OPS):
            xpu.submit(random_op(rng, setup.table, rng.choice(dests), rng.randrange(vcs)))
        await drain(bench, dut, xpu, drv, rx, "traffic with loss")
        check_delivery(rx, xpu)
        assert rx.lost > 0 and counter(dut, "retx") > 0, "no loss, no retransmission: the test proves nothing"
        assert counter(dut, "nack_used") > 0, "no NACK was used"
        # a lost tail: the only PDU to t is lost, no later PDU reveals the gap: only the RTO recovers it
        t = rng.choice(dests)
        before = counter(dut, "timeouts")
        rx.drop_next.add(t)
        xpu.submit(random_op(rng, setup.table, t, 0))
        await drain(bench, dut, xpu, drv, rx, "a lost tail")
        assert counter(dut, "timeouts") > before, "the lost tail was not recovered by a timeout"
        check_delivery(rx, xpu)
        assert not errs.events and counter(dut, "retry_err") == 0, f"connections in error: {errs.events}"
    elif SCENARIO == "dead":
        dead = rng.choice(dests)
        rx.dead.add(dead)
        for _ in range(N_OPS):
            xpu.submit(random_op(rng, setup.table, rng.choice(dests), rng.randrange(vcs)))
        await drain(bench, dut, xpu, drv, rx, "traffic with a dead peer", skip={dead})
        assert errs.events == [dead], f"conn_err events {errs.events}, only {dead} expected"
        assert counter(dut, "retry_err") == 1
        dut.conn_state_dest.value = dead
        await bench.run(1)
        assert int(dut.conn_state.value) & 2, "the dead connection's error bit is not set"
        dut.conn_state_dest.value = (dead + 1) % xpus
        await bench.run(1)
        assert not int(dut.conn_state.value) & 2, "a live connection reads as in error"
        check_delivery(rx, xpu, skip={dead})
        assert not rx.delivered.get((dead, 0)) and not rx.delivered.get((dead, 1))
        to_dead = [o for o in xpu.accepted if o.dest == dead]
        on_wire_ops = counter(dut, "err_drop_ops")
        sent_ops = len(to_dead) - on_wire_ops
        assert 0 < on_wire_ops <= len(to_dead), f"{on_wire_ops} ops dropped of {len(to_dead)} to the dead peer"
        assert sent_ops >= 1, "nothing was sent to the dead peer before its error"
        # re-initialise it with a new PSN; the peer is alive again
        new_psn = 0xFFFE
        cfg.queue.append((0x4000 | dead << 4 | CONN_REG, new_psn))
        await bench.run_until(lambda: not cfg.busy, 1000, "CONN write")
        await bench.run(4)
        dut.conn_state_dest.value = dead
        await bench.run(1)
        assert int(dut.conn_state.value) == 0, "CONN write did not clear the error"
        rx.dead.discard(dead)
        rx.reinit(dead, new_psn)
        n0 = len(xpu.accepted)
        for _ in range(30):
            xpu.submit(random_op(rng, setup.table, dead, rng.randrange(vcs)))
        dead_base = sum(len(rx.delivered.get((dead, v), [])) for v in range(vcs))
        await drain(bench, dut, xpu, drv, rx, "traffic to the re-initialised peer", skip={dead},
                    extra=lambda: sum(len(rx.delivered.get((dead, v), [])) for v in range(vcs)) - dead_base >= 30)
        again = defaultdict(list)
        for o in xpu.accepted[n0:]:
            again[(o.dest, o.vc)].append(o.wire_bytes())
        for k, v in again.items():
            assert rx.delivered.get(k, []) == v, f"{k}: after re-init delivered {len(rx.delivered.get(k, []))} of {len(v)}"
    else:
        raise AssertionError(f"unknown TB_SCENARIO {SCENARIO}")
    check_counters(dut, rx, drv)
    assert xpu.credits == credits0, f"credits not all returned: {xpu.credits} vs {credits0}"
    dut._log.info(f"{len(xpu.accepted)} ops, {len(mac.frames)} frames, lost {rx.lost}, dups {rx.dups}, gaps "
                  f"{rx.gaps}, retx {counter(dut, 'retx')}, timeouts {counter(dut, 'timeouts')}, acks used/stale "
                  f"{counter(dut, 'ack_used')}/{counter(dut, 'ack_stale')}, nacks used/stale "
                  f"{counter(dut, 'nack_used')}/{counter(dut, 'nack_stale')}, err drop ops "
                  f"{counter(dut, 'err_drop_ops')}")
    await RisingEdge(dut.clk)


@cocotb.test()
async def ack_info_merge(dut):
    """ACK information waiting for a peer (ack_req) merges as the peer merges what it receives
    (DESIGN-RELIABILITY.md): NACK(r) acknowledges r - 1, the message that acknowledges more wins
    (serial arithmetic), a NACK wins a tie. Each case sends two requests for one peer in
    consecutive cycles on an idle system; the empty PDU that carries them must hold the winner.
    (An ACK(r - 1) arriving after NACK(r) once replaced it: the NACK never left, and the gap
    waited for the receiver's NACK_RETRY.)"""
    # the sue_tx bench's set-up (its XPU has nothing to send; its peer acknowledges data frames only)
    rng, setup, bench, _, mac, req, _, _ = await start(dut, cocotb.RANDOM_SEED)
    xpus = int(os.environ["TB_XPUS"])
    await bench.run(300)
    r = rng.randrange(1 << 16)
    cases = [  # (first, second, the one that must be carried), each (op, rpsn)
        ((NACK, r), (ACK, r - 1), (NACK, r)),  # the coalesced ACK after the NACK: a tie
        ((NACK, r), (ACK, r - 3), (NACK, r)),  # an older ACK
        ((ACK, r), (NACK, r + 1), (NACK, r + 1)),  # a tie the other way round
        ((NACK, r), (ACK, r + 4), (ACK, r + 4)),  # the gap filled meanwhile
        ((ACK, r), (ACK, r - 2), (ACK, r)),
        ((ACK, 0xFFFE), (ACK, 3), (ACK, 3)),  # newer across the wrap
        ((ACK, 3), (ACK, 0xFFFE), (ACK, 3)),  # older across the wrap
    ]
    for first, second, want in cases:
        dest = rng.randrange(xpus)
        n = len(mac.frames)
        req.queue.extend({"dest": dest, "op": op, "rpsn": rpsn & 0xFFFF} for op, rpsn in (first, second))
        await bench.run_until(lambda: len(mac.frames) > n, 2000, "the empty PDU carrying the ACK information")
        await bench.run(200)
        assert len(mac.frames) == n + 1, f"{len(mac.frames) - n} frames for one peer's ACK information"
        f = sue_frames.decode(mac.frames[-1], ENCAP, VLAN, FCS)
        f.check()
        got = (f.rh.op, f.rh.rpsn)
        assert setup.dest_of(f) == dest and not any(f.payload), f"expected an empty PDU (padding only) to {dest}"
        assert got == (want[0], want[1] & 0xFFFF), f"{first} then {second}: carried {got}, expected {want}"

# SPDX-License-Identifier: Apache-2.0
"""Two SUE endpoints back to back through a fault-injecting link (top ``sue_endpoint_pair``).

Endpoint A (xpuid ``ID_A``) and endpoint B (``ID_B``) each get a Python XPU on both interfaces
(``common.sue_ops.XpuTx`` on ``tx_*``, ``common.sue_endpoint_bench.XpuRxSink`` on ``rx_*``). Every
frame A's MAC sends goes through ``common.link_model.LinkModel`` (drop, corrupt, duplicate,
delay/reorder, ACK-only loss, link down) into B's MAC RX, and the other way round.

Checked (the oracle is the XPUs' own record of what they sent, never the RTL):

* scoreboard: every op an XPU sent is delivered to the peer XPU exactly once, byte-identical
  (control bytes and data), in order per {source, VC}, with the right source xpuid; nothing
  else is delivered;
* frame accounting on both sides, from the status words read through the AXI4-Lite target
  (``s_axil_*``, cocotbext-axi; addresses from the generated ``sue_endpoint_regs.py``): frames the RX MAC port took = parser frames = pass + control +
  every drop reason; every passed PDU lands in exactly one reliability outcome; accepted PDUs =
  stored PDUs; ops delivered by the RTL = ops the XPU received; control frames counted = frames
  on ``ctl``; frames sent by the framer = frames the MAC took;
* faults really happened (link statistics) and, with loss, retransmissions were counted;
* the XPU TX credits each XPU holds once everything is quiet are those it held before the traffic
  (no credit made or lost), and with several ports exactly one plane's pool (the dispatcher passes
  the planes' credits on less (ports - 1) pools, sue-rtl/DESIGN-PORTS.md), and with several ports the
  same again after a ``tx_reset_in`` pulse on the idle endpoint;
* with several ports (TB_PORTS): PORT_MAP refuses a missing port, LINK_STATUS and link_change per
  port (``check_port_registers``), frames with ops only on the mapped port, accounting per port.

Scenarios (TB_SCENARIO): ``traffic`` (default: random ops both ways), ``throughput`` (64-byte
writes both ways, XPUs never idle: delivered ops per cycle), ``writes`` (TB_DATA_LEN-byte writes
A -> B only, on VC 0 like the AXI4 interface's requests or, TB_WRITE_VCS=2, on VC 0 and 1 in
turn, each with 18 control bytes like the AXI4 interface's write op, XPU never idle, MACs always
ready: delivered data bytes per cycle), ``latency`` (idle system, one op at a
time A -> B: command in -> command out, last MAC beat in -> first XPU beat out), ``recovery`` (a
steady A -> B stream, data frame TB_LOSE_DATA_FRAME lost on purpose: extra latency of the ops
behind it), ``soak`` (like traffic, memory kept flat), ``conn_error`` (the link A -> B cut:
A's connection to B reaches the error state, which must raise ``irq``; ``conn_error_irq``), ``unreach_never``
(unordered mode, UNREACH_TIME 0, TB_PORT_LOSS on port 1: the plane stays, its connection ends in error;
``unreach_never``). Figures go to TB_RESULTS (JSON).

Configuration goes through the AXI4-Lite target as well (``common.sue_endpoint_bench.RegPort``).

Environment: TB_REGS_DIR (the design's directory: ``sue_endpoint_regs.py``), TB_OPS (per side), TB_SEED, TB_DROP, TB_CORRUPT, TB_DUP, TB_DELAY, TB_REORDER,
TB_ACK_DROP, TB_LINK_DOWN (cycles, 0 none), TB_PORTS (the endpoints' ports: one link model per port
and direction, accounting per port, sue-rtl/DESIGN-PORTS.md), TB_PORT_MAP_A / TB_PORT_MAP_B (the
value A / B writes to PORT_MAP of its peer, 0 default: every frame with ops from that side must leave
on that port), TB_ENCAP, TB_FCS (SUE appends and checks the FCS),
TB_PORT_LOSS ("port:start:length:dir", dir ab, ba or both: that port's link models lose
everything while link_up stays 1), TB_UNREACH_TIME and TB_CONN_MOVE_RETRIES (written at both ends when
set), TB_EXPECT_CONN_MOVE (1: the loss is healed by failover per connection, checked), TB_STEER_WITHIN /
TB_RECOVER_WITHIN (failover bounds, cycles), TB_RTO, TB_RETRY_LIMIT,
TB_PSN_START, TB_XPU_RATE (credit rate of the receiving XPUs), TB_PACK_LIMIT, TB_WINDOW,
TB_SOAK_DATA ("lo,hi": data bytes of the soak's ops), TB_MAC_BP (fraction of cycles each MAC TX
refuses a beat), TB_TIMEOUT, TB_STALL (cycles without a delivered op before the run fails as a hang;
0 none), TB_PROGRESS (log the ops delivered every this many; 0 never), TB_REG_CHECK (1: ``check_registers`` on endpoint A while the
traffic runs; TB_CELLS and TB_RX_BUF give the generator's cells and rxBufBytes for the ID check).
"""

from __future__ import annotations

import os
import random
import zlib
from collections import defaultdict, deque

import cocotb

from common import sue_frames
from common.link_model import Faults, LinkModel
from common.stream_bfm import BenchTimeout, ClockedBench, CycleProbe, start_clock_and_reset
from cocotb.triggers import RisingEdge
from common.mac_axis import MacSource
from common.sue_endpoint_bench import (ControlSoftware, MacTxSink, RegPort, StatusWords, View, XpuRxSink,
                                      block_registers, control_frame, load_regs)
from common.sue_ops import CommandTable, XpuTx, random_op
from cocotbext.axi.constants import AxiResp

ENCAP = int(os.environ.get("TB_ENCAP", "0"))
FCS = os.environ.get("TB_FCS", "0") == "1"
N_OPS = int(os.environ.get("TB_OPS", "300"))
PSN_START = int(os.environ.get("TB_PSN_START", "65500"))
XPU_RATE = float(os.environ.get("TB_XPU_RATE", "1.0"))
TIMEOUT = int(os.environ.get("TB_TIMEOUT", "400000"))
REGS = load_regs(os.environ["TB_REGS_DIR"])
XPUS = int(os.environ.get("TB_XPUS", "4"))
VCS = int(os.environ.get("TB_VCS", "2"))
ID_A, ID_B = 1, 2
SCENARIO = os.environ.get("TB_SCENARIO", "traffic")
RESULTS = os.environ.get("TB_RESULTS")
LINK_LATENCY = int(os.environ.get("TB_LINK_LATENCY", "20"))
PDU_LIMIT = int(os.environ.get("TB_PACK_LIMIT", "2048"))
WINDOW_PDUS = int(os.environ.get("TB_WINDOW", "32"))
# soak: data bytes of every op, uniform in this range
REG_CHECK = os.environ.get("TB_REG_CHECK", "0") == "1"
CTL = int(os.environ.get("TB_CTL", "0"))  # control frames each way (exchange_control_frames)
CTL_LEN = int(os.environ.get("TB_CTL_LEN", "0"))  # their length (0: a mix of 14..max)
WRITE_TYPE = 0xA0  # the "writes" scenario's command type
PORTS = int(os.environ.get("TB_PORTS", "1"))
# unordered mode (PORT_MODE.unordered): ops load balanced over the ports, exactly once, order per port only
UNORDERED = os.environ.get("TB_UNORDERED", "0") == "1"
# link outages in unordered mode (failover): "port:start:length" windows, comma separated, start in
# cycles after the traffic starts, length 0 = down for good; both directions' link models lose every
# frame and both ends' link_up bit is 0 during the window. TB_FLAP = "port:period:duration": the port
# goes down and up every period cycles for duration cycles.
OUTAGES = [tuple(int(x) for x in w.split(":")) for w in os.environ.get("TB_PORT_DOWN", "").split(",") if w]
FLAP = tuple(int(x) for x in os.environ["TB_FLAP"].split(":")) if os.environ.get("TB_FLAP") else None
# TB_PORT_LOSS = "port:start:length:dir": the port's link model(s) (dir "ab", "ba" or "both") lose every
# frame in the window while link_up stays 1 at both ends (a peer unreachable over that port); length 0 = for good
LOSSES = [(int(p), int(a), int(n), d) for p, a, n, d in
          (w.split(":") for w in os.environ.get("TB_PORT_LOSS", "").split(",") if w)]
# UNREACH_TIME written at both ends when set (0 = never unreachable; absent: the reset value)
UNREACH_TIME = int(os.environ["TB_UNREACH_TIME"]) if os.environ.get("TB_UNREACH_TIME") else None
# CONN_MOVE_RETRIES written at both ends when set (0 = connections never move; absent: the reset value)
CONN_MOVE_RETRIES = int(os.environ["TB_CONN_MOVE_RETRIES"]) if os.environ.get("TB_CONN_MOVE_RETRIES") else None
# the loss is healed by failover per connection, not by the plane (UNREACH_TIME 0): A's connection to B
# moves, and with writes A -> B only B's frames to A follow it (sue-rtl/DESIGN-PORTS.md)
EXPECT_CONN_MOVE = os.environ.get("TB_EXPECT_CONN_MOVE", "0") == "1"
RTO = int(os.environ.get("TB_RTO", "3000"))
# failover bounds (cycles, absent = none): the plane's first frame on another port at most TB_STEER_WITHIN
# after the outage (after the loss began + UNREACH_TIME with TB_PORT_LOSS), the last op outstanding
# at the outage delivered at most TB_RECOVER_WITHIN after it (the move starts when the plane is found
# dead, not at its next go-back-N timeout: sue-rtl/DESIGN-PORTS.md "Failover")
STEER_WITHIN = int(os.environ["TB_STEER_WITHIN"]) if os.environ.get("TB_STEER_WITHIN") else None
RECOVER_WITHIN = int(os.environ["TB_RECOVER_WITHIN"]) if os.environ.get("TB_RECOVER_WITHIN") else None
RETRY_LIMIT = int(os.environ.get("TB_RETRY_LIMIT", "100"))
PORT_MAP_VALUE = {1: int(os.environ.get("TB_PORT_MAP_A", "0")), 2: int(os.environ.get("TB_PORT_MAP_B", "0"))}
SOAK_DATA = tuple(int(x) for x in os.environ.get("TB_SOAK_DATA", "1,64").split(","))
# A hang shows as no op delivered for this long (far beyond a go-back-N timeout and its replay),
# so a long run fails in minutes instead of at TB_TIMEOUT.
STALL = int(os.environ.get("TB_STALL", "0"))
PROGRESS = int(os.environ.get("TB_PROGRESS", "0"))

def mac_of(x: int) -> int:
    return 0x02_00_5E_00_00_00 | x << 8 | 0x11


def ip_of(x: int) -> int:
    return (0xFD00 << 112 | x) if ENCAP == 1 else (10 << 24 | x)


def partition_of(a: int, b: int) -> int:
    lo, hi = min(a, b), max(a, b)
    return (lo * 37 + hi * 101) & 0x3FF


def first_psn(src: int, dst: int) -> int:
    return (PSN_START + 3 * src + dst) & 0xFFFF


def setup_writes(own: int, table: CommandTable) -> list[tuple[int, int]]:
    """The configuration of one end, (byte address, word), by the generated register names."""
    c = REGS.cfg
    ip_words = 4 if ENCAP == 1 else 1
    w = [(c.OWN_MAC_LO.address, mac_of(own) & 0xFFFFFFFF), (c.OWN_MAC_HI.address, mac_of(own) >> 32),
         (c.OWN_XPUID.address, own)]
    w += [(getattr(c, f"OWN_IP_{i}").address, ip_of(own) >> 32 * i & 0xFFFFFFFF) for i in range(ip_words)]
    w += [(c.PACK_LIMIT.address, PDU_LIMIT), (c.MIN_FRAME.address, 64), (c.FCS_BY_SUE.address, int(FCS)),
          (c.RX_FCS.address, int(FCS))]
    w += [(c.WINDOW.address, WINDOW_PDUS), (c.RTO.address, RTO), (c.RETRY_LIMIT.address, RETRY_LIMIT),
          (c.ACK_PIGGYBACK_WAIT.address, 64)]
    w += [(c.ACK_EVERY.address, 4), (c.ACK_DELAY.address, 64), (c.NACK_RETRY.address, 1500)]
    w += [(c.CMD_TYPE.at(t - 1), table.cfg_word(t)) for t in table.entries]
    for d in range(XPUS):
        w += [(c.DST_MAC_LO.at(d), mac_of(d) & 0xFFFFFFFF), (c.DST_MAC_HI.at(d), mac_of(d) >> 32),
              (c.PARTITION.at(d), partition_of(own, d)), (c.NEXT_PSN.at(d), first_psn(own, d)),
              (c.EXPECTED_PSN.at(d), first_psn(d, own))]
        w += [(getattr(c, f"DST_IP_{i}").at(d), ip_of(d) >> 32 * i & 0xFFFFFFFF) for i in range(ip_words)]
    if PORTS > 1 and PORT_MAP_VALUE.get(own, 0):
        w += [(c.PORT_MAP.at(peer_of(own)), PORT_MAP_VALUE[own])]
    if UNORDERED:
        w += [(c.PORT_MODE.address, 1)]
        if UNREACH_TIME is not None:
            w += [(c.UNREACH_TIME.address, UNREACH_TIME)]
        if CONN_MOVE_RETRIES is not None:
            w += [(c.CONN_MOVE_RETRIES.address, CONN_MOVE_RETRIES)]
    return w


def peer_of(own: int) -> int:
    return ID_B if own == ID_A else ID_A


def port_of(own: int) -> int:
    """The port own's ops to its peer leave on (PORT_MAP: 0 = peer mod ports, p + 1 = port p)."""
    v = PORT_MAP_VALUE[own]
    return v - 1 if v else peer_of(own) % PORTS


def plane_of(frame: bytes, port: int) -> int:
    """The plane a frame is for (sue-rtl/DESIGN-PORTS.md, failover): the RH plane field (byte 4 bits
    5:4) of a frame with the encapsulation's EtherType that reaches it, else the arrival port's."""
    at = sue_frames.header_bytes(ENCAP, False) + 4
    if len(frame) > at and frame[12:14] == (b"\x86\xdd" if ENCAP == 1 else b"\x08\x00"):
        field = frame[at] >> 4 & 3
        if field < PORTS:
            return field
    return port


def move_of(frame: bytes) -> int | None:
    """The RH move field (byte 4 bits 3:2: the sender's own moves of the plane, modulo 4) of a SUE
    frame, None for another frame."""
    at = sue_frames.header_bytes(ENCAP, False) + 4
    if len(frame) > at and frame[12:14] == (b"\x86\xdd" if ENCAP == 1 else b"\x08\x00"):
        return frame[at] >> 2 & 3
    return None


def conn_move_of(frame: bytes) -> int | None:
    """The RH conn_move field (byte 0 bits 3:2: the sender's own moves of the frame's connection,
    modulo 4) of a SUE frame, None for another frame."""
    at = sue_frames.header_bytes(ENCAP, False)
    if len(frame) > at and frame[12:14] == (b"\x86\xdd" if ENCAP == 1 else b"\x08\x00"):
        return frame[at] >> 2 & 3
    return None


def expect_accepted(s: "Side", taken: dict, expected: dict) -> None:
    """Moves the ops the XPU of side ``s`` accepted since last time (``taken[s.own]`` of them were
    moved before) into ``expected[(source, destination, vc)]``."""
    while taken[s.own] < len(s.xtx.accepted):
        op = s.xtx.accepted[taken[s.own]]
        expected[(s.own, op.dest, op.vc)].append(op)
        taken[s.own] += 1
        s.accepted_total += 1


def take_any_order(waiting, table: CommandTable, control: bytes, data: bytes, who: str):
    """Removes from ``waiting`` (the ops still expected from one source on one VC) the op delivered
    with ``control`` and ``data``, in any order (unordered mode keeps order per port only), and
    returns it; none matching is a repeat or a corrupt op."""
    units = table.entries[control[0]][1] if control[0] in table.entries else 0
    match = next((o for o in waiting if o.control[:2 * units] == control and o.data == data), None)
    assert match is not None, f"{who} matches none still expected (a repeat or corrupt): {control.hex()}"
    waiting.remove(match)
    return match


def link_name(direction: str, port: int) -> str:
    return direction if port == 0 else f"{direction}{port}"


def plane_words(c, port: int):
    """The status words of one port's plane by their one-port names (``port<p>.`` dropped)."""
    if PORTS == 1:
        return c
    prefix = f"port{port}_"
    return StatusWords({k[len(prefix):]: v for k, v in c.items() if k.startswith(prefix)})


def total_words(c):
    """Every status word summed over the planes, by its one-port name."""
    if PORTS == 1:
        return c
    out = StatusWords()
    for p in range(PORTS):
        for k, v in plane_words(c, p).items():
            out[k] = out.get(k, 0) + v
    return out


class Side:
    """One endpoint and its XPU, MAC and configuration agents."""

    def __init__(self, bench, dut, prefix: str, own: int, peer: int, rng, table, wb: int, mac_wb: int, on_op):
        self.own, self.peer = own, peer
        view = View(dut, prefix)
        self.regs = bench.add(RegPort(view, REGS))
        self.xtx = bench.add(XpuTx(view, rng, wb, idle=0.2))
        self.xtx.paused = True
        self.xrx = bench.add(XpuRxSink(view, rng, wb, table, VCS,
                                   on_op, rate=XPU_RATE))
        self.mac_ins = [bench.add(MacSource(bench, dut, f"{prefix}mac_rx_{p}", rng, mac_wb, idle=0.05))
                        for p in range(PORTS)]
        self.mac_in = self.mac_ins[0]
        self.op_frames = [0] * PORTS  # frames carrying ops this endpoint's MAC sent, per port
        self.op_frame_ends: list[int] = []  # the bench cycle of each such frame's last MAC beat
        self.moves = defaultdict(set)  # per plane, the RH move fields of the frames its MACs sent
        self.conn_moves = defaultdict(set)  # per plane, the RH conn_move fields of the frames its MACs sent
        self.tx_by_plane = defaultdict(int)  # frames its MACs sent, by plane_of (-1: not SUE)
        self.rx_by_plane = defaultdict(int)  # frames its MACs received, by the plane plane_of routes them to
        self.ctl_sw = ControlSoftware(self.regs.master, REGS.ctl)
        self.ctl_out: list[bytes] = []  # control frames this endpoint's MAC sent, in order
        getattr(dut, f"{prefix}vc_pause").value = 0
        self.mac_out = None  # set by the bench (needs the link): port 0's
        self.mac_outs: list = []
        self.accepted_total = 0  # ops the XPU had accepted (the soak clears xtx.accepted)


@cocotb.test()
async def pair(dut):
    import json

    seed = int(os.environ.get("TB_SEED", "1"))
    rng = random.Random(seed)
    wb = len(dut.a_tx_data) // 8
    mac_wb = len(dut.a_mac_tx_0_tdata) // 8  # the MAC ports' width (portWidth; dataWidth by default)
    table = CommandTable.random(rng)
    if SCENARIO == "writes":
        table.entries[WRITE_TYPE] = (1, 9)  # 18 control bytes: the AXI write op's (DESIGN-AXI.md)
    faults = Faults(drop=float(os.environ.get("TB_DROP", "0")), corrupt=float(os.environ.get("TB_CORRUPT", "0")),
                    duplicate=float(os.environ.get("TB_DUP", "0")), delay=float(os.environ.get("TB_DELAY", "0")),
                    max_delay=int(os.environ.get("TB_MAX_DELAY", "64")),
                    reorder=os.environ.get("TB_REORDER", "0") == "1",
                    ack_only_drop=float(os.environ.get("TB_ACK_DROP", "0")))

    def carries_ops(frame: bytes) -> bool:
        return sue_frames.classify(frame, ENCAP, False, FCS) == sue_frames.OPS

    def ack_only(frame: bytes) -> bool:
        return sue_frames.classify(frame, ENCAP, False, FCS) == sue_frames.ACK_ONLY

    links = {link_name(d, p): LinkModel(random.Random(seed + 1 + i + 2 * p), faults, latency=LINK_LATENCY,
                                        is_ack_only=ack_only)
             for p in range(PORTS) for i, d in enumerate(("ab", "ba"))}
    down = int(os.environ.get("TB_LINK_DOWN", "0"))
    # recovery: the data frame with this index (0-based, A -> B) is lost on purpose
    lose_data_frame = int(os.environ.get("TB_LOSE_DATA_FRAME", "-1"))
    data_frames_ab = [0]
    forced_loss: list[int] = []  # cycles at which the chosen frame was lost

    # failover figures: the first outage's start, the ops outstanding then, when the last of them
    # arrived, and the first frame after it that left on another port than its plane's
    # (the plane watched: the first window's port)
    failover: dict = {"down_at": None, "outstanding": set(), "recovered": None, "steered": None, "moved_by": set(),
                      "plane": min([(a, p) for p, a, _ in OUTAGES] + [(a, p) for p, a, _, _ in LOSSES]
                                   + ([(1000, FLAP[0])] if FLAP else []), default=(0, None))[1]}
    expected: dict[tuple[int, int, int], deque] = defaultdict(deque)  # (src, dst, vc) -> ops in order
    delivered = defaultdict(int)
    recent: dict[tuple[int, int, int], deque] = defaultdict(lambda: deque(maxlen=256))  # for failure messages
    latencies: list[tuple] = []  # (src, op, first rx beat cycle)
    taken = {ID_A: 0, ID_B: 0}

    bench = ClockedBench(dut.clk)
    sides: dict[int, Side] = {}

    def absorb(src: int) -> None:
        s = sides[src]
        expect_accepted(s, taken, expected)
        if SCENARIO == "soak":
            s.xtx.accepted.clear()  # keep memory flat over a million ops
            taken[src] = 0

    def on_op_for(me: int):
        def on_op(src, vc, control, data, first_cycle):
            absorb(src)
            q = expected[(src, me, vc)]
            assert q, f"XPU {me}: op from {src} on VC {vc} that was never sent (or twice): {control.hex()}"
            if UNORDERED:  # order is kept per port only: the op may overtake any op still to come
                match = take_any_order(q, table, control, data, f"XPU {me}: op from {src} VC {vc}")
                delivered[(src, vc)] += 1
                if id(match) in failover["outstanding"]:
                    failover["outstanding"].discard(id(match))
                    if not failover["outstanding"]:
                        failover["recovered"] = bench.cycle
                return
            want = q.popleft()
            units = table.entries[want.control[0]][1]
            if control != want.control[:2 * units] or data != want.data:
                later = [o.seq for o in q if o.control[:len(control)] == control and o.data == data]
                before = [seq for seq, c, d in recent[(src, me, vc)] if c == control and d == data]
                raise AssertionError(
                    f"XPU {me}: op #{want.seq} from {src} VC {vc} differs: got control {control.hex()} data "
                    f"{data[:32].hex()}..., expected {want.control[:2 * units].hex()} {want.data[:32].hex()}...; "
                    f"the op got is " + (f"#{later[0]}, still to come (ops skipped)" if later else
                                         f"#{before[-1]}, delivered before (a repeat)" if before else
                                         "none of the last ops sent or the next ones (corrupt)"))
            recent[(src, me, vc)].append((want.seq, control, data))
            delivered[(src, vc)] += 1
            if SCENARIO in ("latency", "recovery"):
                latencies.append((src, want, first_cycle))
        return on_op

    def watch_mac(s: "Side", frame: bytes, port: int, cycle: int) -> None:
        """Every frame a MAC takes: a valid FCS when SUE appends it (zlib), control frames kept."""
        if FCS:
            assert zlib.crc32(frame[:-4]) == int.from_bytes(frame[-4:], "little"), \
                f"endpoint {s.own}: frame with a bad FCS on mac_tx_{port}: {frame[:64].hex()}"
        if PORTS > 1:
            s.tx_by_plane[plane_of(frame, -1)] += 1
            if move_of(frame) is not None:
                s.moves[plane_of(frame, -1)].add(move_of(frame))
                s.conn_moves[plane_of(frame, -1)].add(conn_move_of(frame))
            q = plane_of(frame, port)
            if q == failover["plane"] != port and failover["down_at"] is not None:
                failover["moved_by"].add(s.own)
                if failover["steered"] is None:
                    failover["steered"] = bench.cycle
        kind = sue_frames.classify(frame, ENCAP, False, FCS)
        if kind == sue_frames.OTHER:  # not the encapsulation's EtherType: a control frame
            assert port == 0, f"endpoint {s.own}: a control frame left on port {port} (they use port 0)"
            s.ctl_out.append(frame)
        elif kind == sue_frames.OPS:
            s.op_frames[port] += 1
            s.op_frame_ends.append(cycle)

    def a_to_b_on(port: int):
        def a_to_b(frame: bytes, cycle: int) -> None:
            watch_mac(sides[ID_A], frame, port, cycle)
            if lose_data_frame >= 0 and carries_ops(frame):
                data_frames_ab[0] += 1
                if data_frames_ab[0] - 1 == lose_data_frame:
                    forced_loss.append(cycle)
                    return
            links[link_name("ab", port)].push(cycle, frame)
        return a_to_b

    mac_bp = float(os.environ.get("TB_MAC_BP", 0.0 if SCENARIO in ("latency", "recovery", "throughput", "writes")
                                                else 0.1))
    sides[ID_A] = Side(bench, dut, "a_", ID_A, ID_B, rng, table, wb, mac_wb, on_op_for(ID_A))
    sides[ID_B] = Side(bench, dut, "b_", ID_B, ID_A, rng, table, wb, mac_wb, on_op_for(ID_B))
    def b_to_a_on(port: int):
        def b_to_a(frame: bytes, cycle: int) -> None:
            watch_mac(sides[ID_B], frame, port, cycle)
            links[link_name("ba", port)].push(cycle, frame)
        return b_to_a

    for p in range(PORTS):
        sides[ID_A].mac_outs.append(bench.add(MacTxSink(bench, View(dut, "a_"), rng, mac_wb, mac_bp, a_to_b_on(p), p)))
        sides[ID_B].mac_outs.append(bench.add(MacTxSink(bench, View(dut, "b_"), rng, mac_wb, mac_bp, b_to_a_on(p), p)))
    for s in sides.values():
        s.mac_out = s.mac_outs[0]
    if SCENARIO in ("latency", "recovery", "throughput", "writes"):
        for s in sides.values():
            for m in s.mac_ins:
                m.idle = 0.0
            s.xtx.idle = 0.0 if SCENARIO in ("throughput", "writes") else s.xtx.idle

    def move(cycle: int) -> None:
        for p in range(PORTS):
            for fr in links[link_name("ab", p)].due(cycle):
                sides[ID_B].mac_ins[p].send(fr)
                sides[ID_B].rx_by_plane[plane_of(fr, p)] += 1
            for fr in links[link_name("ba", p)].due(cycle):
                sides[ID_A].mac_ins[p].send(fr)
                sides[ID_A].rx_by_plane[plane_of(fr, p)] += 1
    bench.add(CycleProbe(move))

    await start_clock_and_reset(dut)
    if REG_CHECK:  # inside the bench: the XPU agents count the credits returned after reset
        check = cocotb.start_soon(check_config_before_setup(sides[ID_A].regs, rng))
        await bench.run_until(check.done, 200_000, "configuration checks after reset")
        check.result()
    if PORTS > 1:
        check = cocotb.start_soon(check_port_registers(dut, sides[ID_A].regs))
        await bench.run_until(check.done, 200_000, "port registers")
        check.result()
    if UNORDERED:  # every port up at both ends (the port register checks left A's down)
        dut.a_link_up.value = dut.b_link_up.value = (1 << PORTS) - 1
    for s in sides.values():
        s.regs.queue.extend(setup_writes(s.own, table))
    await bench.run_until(lambda: not any(s.regs.busy for s in sides.values()), 100_000, "configuration")
    await bench.run(16)
    # the XPU TX credits each XPU holds on an idle endpoint: the same after the run (none made or lost)
    credits_idle = {k: dict(s.xtx.credits) for k, s in sides.items()}
    if PORTS > 1 and "TB_CELLS" in os.environ:
        # one plane's pool (sue-rtl/DESIGN-PORTS.md), not one per port: SueTx.creditsPerVc at `ports`, documented
        # in sue-rtl/README.md (cells less the packer's, spare list's and reuse reserve, over 2 x VCs, at most
        # ports x 64 and 1024 / (2 x VCs), the deepest XPU interface FIFO: a plane takes the pool ports
        # one-port planes would)
        reserve = 2 * (-(-274 // wb) + 1) + 8
        pool = min(64 * PORTS, 1024 // (2 * VCS), (int(os.environ["TB_CELLS"]) - reserve) // (2 * VCS))
        for k, held in credits_idle.items():
            assert held == {(vc, kind): pool if vc < VCS else 0 for vc in range(4) for kind in range(2)}, \
                f"XPU {k} holds {held} TX credits with {PORTS} ports, expected {pool} per VC and kind"

    seq = defaultdict(int)

    def new_op(s: Side, vc: int | None = None, **kw):
        vc = rng.randrange(VCS) if vc is None else vc
        op = random_op(rng, table, s.peer, vc, **kw)
        op.seq = seq[(s.own, vc)]
        seq[(s.own, vc)] += 1
        return op

    if SCENARIO == "unreach_never":
        check = cocotb.start_soon(unreach_never(dut, bench, sides, links, new_op, failover))
        await bench.run_until(check.done, TIMEOUT, "the UNREACH_TIME = 0 checks")
        check.result()
        return
    if SCENARIO == "conn_error":
        check = cocotb.start_soon(conn_error_irq(dut, bench, sides, links, new_op))
        await bench.run_until(check.done, TIMEOUT, "the conn_error checks")
        check.result()
        return

    remaining: dict[int, int] = {}
    tasks: dict = {}  # background software (register checks, control frames): traffic lasts while they run

    def all_done() -> bool:
        for src in sides:
            absorb(src)
        return (not any(remaining.values()) and all(s.xtx.idle_now for s in sides.values())
                and all(t.done() for t in tasks.values())
                and not any(expected.values()))

    results: dict = {"scenario": SCENARIO, "data_width": wb * 8}
    if SCENARIO == "latency":
        # Idle system, A -> B, one op at a time: the XPU's op accepted (last beat) -> B's XPU
        # sees its first beat, and B's MAC RX last beat of the frame -> that first beat. The
        # link's share, A's MAC TX last beat of the frame -> B's MAC RX last beat, is measured:
        # the link model stores a whole frame and delivers it LINK_LATENCY cycles after its last
        # beat, and B's MAC source drives it from the next cycle on, so the frame's beats pass a
        # second time (a wire passes them once, beside the sender's)
        dlen = int(os.environ.get("TB_DATA_LEN", "64"))
        sides[ID_A].xtx.paused = False
        e2e, e2e_first, rx, link = [], [], [], []
        for _ in range(N_OPS):
            n = len(latencies)
            sides[ID_A].xtx.submit(new_op(sides[ID_A], data_len=dlen or None, data_present=int(dlen > 0)))
            await bench.run_until(lambda: len(latencies) > n, 20_000, "one op on an idle system")
            _, op, first = latencies[-1]
            e2e.append(first - op.last_beat_cycle)
            e2e_first.append(first - op.accepted_cycle)
            rx_end = sides[ID_B].mac_in.frame_end_cycles[-1]
            rx.append(first - rx_end)
            link.append(rx_end - sides[ID_A].op_frame_ends[-1])
            assert link[-1] > LINK_LATENCY, f"the op's frame left A's MAC at {sides[ID_A].op_frame_ends[-1]}, B's at {rx_end}"
            await bench.run(300)  # ACKs settle; the system is idle again
        results.update({"data_len": dlen, "e2e_cycles_max": max(e2e), "e2e_cycles_min": min(e2e),
                        "e2e_from_first_beat_max": max(e2e_first), "rx_cycles_max": max(rx), "rx_cycles_min": min(rx),
                        "sue_cycles_max": max(e - k for e, k in zip(e2e, link)),
                        "link_cycles_min": min(link), "link_cycles_max": max(link), "link_latency": LINK_LATENCY})
        dut._log.info(f"latency {dlen}-byte ops: command in (last beat) -> command out {min(e2e)}..{max(e2e)} cycles "
                      f"(incl. {LINK_LATENCY} link cycles); last MAC beat in -> first XPU beat out {min(rx)}..{max(rx)}")
    elif SCENARIO == "recovery":
        # A -> B ops at a steady low rate; one data frame is lost: the ops behind it arrive late.
        sides[ID_A].xtx.idle = 0.9
        for _ in range(N_OPS):
            sides[ID_A].xtx.submit(new_op(sides[ID_A], data_len=64))
        sides[ID_A].xtx.paused = False
        await bench.run_until(all_done, TIMEOUT, "every op delivered after one loss")
        assert forced_loss, "the chosen data frame was never sent"
        lat = sorted(first - op.last_beat_cycle for _, op, first in latencies)
        base = lat[len(lat) // 2]
        worst = lat[-1]
        results.update({"baseline_cycles": base, "worst_cycles": worst, "recovery_cycles": worst - base,
                        "link_latency": LINK_LATENCY})
        dut._log.info(f"recovery: baseline op latency {base} cycles, worst {worst} (one PDU lost): "
                      f"recovery {worst - base} cycles")
    else:
        # traffic / throughput / soak: both directions; writes: A -> B
        remaining = {k: N_OPS if SCENARIO != "writes" or k == ID_A else 0 for k in sides}
        write_len = int(os.environ.get("TB_DATA_LEN", "256"))
        write_vcs = int(os.environ.get("TB_WRITE_VCS", "1"))
        made = {k: 0 for k in sides}

        def feed(_cycle: int) -> None:
            # ops are made as the XPUs need them (a soak of a million ops stays small in memory)
            for k, s in sides.items():
                while remaining[k] and sum(len(q) for q in s.xtx.queues) < 64:
                    s.xtx.submit(new_op(s, data_len=64) if SCENARIO == "throughput"
                                 else new_op(s, vc=made[k] % write_vcs, data_len=write_len, cmd_type=WRITE_TYPE)
                                 if SCENARIO == "writes"
                                 else new_op(s, data_len=rng.randint(*SOAK_DATA)) if SCENARIO == "soak"
                                 else new_op(s))
                    made[k] += 1
                    if remaining[k] > 1 or not any(not t.done() for t in tasks.values()):
                        remaining[k] -= 1
        feed(0)
        bench.add(CycleProbe(feed))
        progress = {"ops": 0, "cycle": bench.cycle, "logged": 0}

        def watchdog(_cycle: int) -> None:
            ops = sum(delivered.values())
            if ops != progress["ops"]:
                progress.update(ops=ops, cycle=bench.cycle)
                if PROGRESS and ops >= progress["logged"] + PROGRESS:
                    progress["logged"] = ops
                    dut._log.info(f"progress: {ops} ops delivered of {sum(made.values())} made, cycle {bench.cycle}, "
                                  f"link stats ab {dict(links['ab'].stats)} ba {dict(links['ba'].stats)}")
            elif STALL and bench.cycle - progress["cycle"] > STALL:
                left = {k: len(q) for k, q in expected.items() if q}
                raise AssertionError(f"no op delivered for {STALL} cycles (last at cycle {progress['cycle']}): "
                                     f"delivered {ops} of {sum(made.values())}, waiting {left}, "
                                     f"link stats ab {dict(links['ab'].stats)} ba {dict(links['ba'].stats)}")
        bench.add(CycleProbe(watchdog))
        for s in sides.values():
            s.xtx.paused = False
            if SCENARIO == "soak":
                s.xtx.idle = 0.1
        if OUTAGES or FLAP or LOSSES:
            def outstanding_ids() -> list[int]:
                for src in sides:
                    absorb(src)
                return [id(o) for q in expected.values() for o in q]
            schedule_outages(dut, bench, links, failover, outstanding_ids)
        if down:
            start = bench.cycle + 2000
            for link in links.values():
                link.down(start, start + down)
        if REG_CHECK:
            tasks["register checks"] = cocotb.start_soon(check_registers(dut, sides[ID_A].regs, rng, table))
        if CTL:
            tasks["control frames"] = cocotb.start_soon(exchange_control_frames(dut, bench, sides, rng, results))
        first_cycle = bench.cycle
        beats_before = {k: sum(m.beats_out for m in s.mac_outs) for k, s in sides.items()}
        try:
            await bench.run_until(all_done, TIMEOUT, "every op delivered")
        except BenchTimeout:  # (a failing check inside an agent propagates as itself)
            left = {k: len(q) for k, q in expected.items() if q}
            raise AssertionError(f"not every op delivered within {TIMEOUT} cycles: delivered {sum(delivered.values())} "
                                 f"of {sum(made.values())}, waiting {left}, link stats "
                                 f"{ {k: dict(v.stats) for k, v in links.items()} }")
        cycles = bench.cycle - first_cycle
        for task in tasks.values():
            task.result()  # done (the traffic lasted while it ran); raises what failed inside
        # MAC TX beats per cycle of each side: 1.0 is a link-bound run (the MACs never push back here)
        results.update({"ops": sum(delivered.values()), "cycles": cycles,
                        "ops_per_cycle": sum(delivered.values()) / cycles,
                        "data_bytes_per_cycle": sum(delivered.values()) * write_len / cycles
                        if SCENARIO == "writes" else None,
                        "mac_tx_utilisation": {k: (sum(m.beats_out for m in s.mac_outs) - beats_before[k]) / cycles
                                               for k, s in sides.items()}})
    assert sum(delivered.values()) == (N_OPS if SCENARIO in ("latency", "recovery") else sum(made.values()))

    # Quiet period: the last ACKs settle, nothing is left in flight.
    await bench.run(8000)
    assert all(link.in_flight == 0 for link in links.values())
    for k, s in sides.items():
        assert s.xtx.credits == credits_idle[k], \
            f"XPU {k}: TX credits {s.xtx.credits} after the run, {credits_idle[k]} before (made or lost)"
    if PORTS > 1:
        # tx_reset_in on an idle endpoint: the XPU drops its credits (those of the reset cycle too), and
        # the endpoint advertises its pool again: exactly one plane's, whatever the planes re-advertise
        for k, side in sides.items():
            pin = getattr(dut, f"{'a_' if k == ID_A else 'b_'}tx_reset_in")
            pin.value = 1
            await bench.run(1)
            side.xtx.credits = {key: 0 for key in side.xtx.credits}
            pin.value = 0
            await bench.run(400)
            assert side.xtx.credits == credits_idle[k], \
                f"XPU {k}: TX credits {side.xtx.credits} after tx_reset_in, {credits_idle[k]} before"
    for s in sides.values():
        s.regs.read_status()
        s.regs.read(r.address for r in (REGS.ctl.RX_FRAMES, REGS.ctl.RX_DROPS_FULL, REGS.ctl.RX_DROPS_BAD,
                                        REGS.ctl.TX_FRAMES))
    await bench.run_until(lambda: not any(s.regs.busy for s in sides.values()), 20_000, "status reads")
    counters, raw = {}, {}
    for s in sides.values():
        c = s.regs.status()
        check_accounting(dut, s, c)
        counters[s.own] = total_words(c)
        raw[s.own] = c
    if failover["down_at"] is not None:
        assert failover["steered"] is not None, "no frame left on another port than its plane's after the outage"
        assert failover["recovered"] is not None, "the ops outstanding at the outage were never delivered"
        results.update({"steer_cycles": failover["steered"] - failover["down_at"],
                        "recovery_cycles": failover["recovered"] - failover["down_at"]})
        if LOSSES and not OUTAGES and not FLAP:
            # link_up stayed 1: the plane may move only once it is unreachable, UNREACH_TIME cycles
            # without an ACK freeing a cell (the last one can only come after the loss began)
            assert results["steer_cycles"] >= UNREACH_TIME, \
                f"plane {failover['plane']} steered {results['steer_cycles']} cycles after the loss began, " \
                f"before UNREACH_TIME = {UNREACH_TIME}"
        found = (UNREACH_TIME or 0) if LOSSES and not OUTAGES and not FLAP else 0
        if STEER_WITHIN is not None:
            assert results["steer_cycles"] - found <= STEER_WITHIN, \
                f"plane {failover['plane']} steered {results['steer_cycles']} cycles after the outage: more than " \
                f"{found} + {STEER_WITHIN}"
        if RECOVER_WITHIN is not None:
            assert results["recovery_cycles"] <= RECOVER_WITHIN, \
                f"the last op outstanding at the outage delivered {results['recovery_cycles']} cycles after it: " \
                f"more than {RECOVER_WITHIN} (RTO {RTO})"
        dut._log.info(f"failover: port down at cycle {failover['down_at']}: first frame steered to another port after "
                      f"{results['steer_cycles']} cycles, the last op outstanding then delivered after "
                      f"{results['recovery_cycles']} cycles")
    if EXPECT_CONN_MOVE:
        # failover per connection (UNREACH_TIME 0: no plane moves as a whole): A's connection to B moved
        # after CONN_MOVE_RETRIES timeouts, its frames announce the move (RH conn_move)
        q = failover["plane"]
        for s in sides.values():
            assert raw[s.own]["steer.unreachable"] == 0 and raw[s.own]["steer.follows"] == 0, \
                f"endpoint {s.own}: the plane moved as a whole (steer.unreachable " \
                f"{raw[s.own]['steer.unreachable']:#x}, steer.follows {raw[s.own]['steer.follows']:#x})"
        moved_a = plane_words(raw[ID_A], q)["tx_rel.conn_moves"]
        assert moved_a >= 1, f"A: port{q}.tx_rel.conn_moves {moved_a}: the connection never moved"
        assert 1 in sides[ID_A].conn_moves[q], f"A: RH conn_move fields of plane {q}: {sides[ID_A].conn_moves[q]}"
        if SCENARIO == "writes":
            # B has nothing of its own to send: it follows A's move from the RH conn_move field
            follows_b = plane_words(raw[ID_B], q)["tx_rel.conn_follows"]
            assert follows_b >= 1, f"B: port{q}.tx_rel.conn_follows {follows_b}: B never followed A"
            assert failover["moved_by"] == {ID_A, ID_B}, \
                f"plane {q}'s frames left on another port only at {sorted(failover['moved_by'])}: B must follow A"
            assert all(m == {0} for m in sides[ID_B].conn_moves.values()), \
                f"B: RH conn_move fields {dict(sides[ID_B].conn_moves)} (a follow is not a move)"
        dut._log.info(f"failover per connection: A moved {moved_a} time(s); RH conn_move fields A "
                      f"{dict(sides[ID_A].conn_moves)} B {dict(sides[ID_B].conn_moves)}")
    elif LOSSES and SCENARIO == "writes":
        # one way only (A -> B): B, with nothing of its own to send, learns plane q's new port from the
        # RH move field of A's frames and sends its ACKs there (DESIGN-PORTS.md, "Follow")
        q = failover["plane"]
        assert failover["moved_by"] == {ID_A, ID_B}, \
            f"plane {q}'s frames left on another port only at {sorted(failover['moved_by'])}: B must follow A"
        assert raw[ID_B]["steer.follows"] >> q & 1, f"B: steer.follows {raw[ID_B]['steer.follows']:#x}"
        assert not raw[ID_A]["steer.follows"] >> q & 1, "A moved plane q itself; it follows nobody"
        # on the wire: A's frames of plane q announce its one move, B's none (a follow is not a move)
        assert sides[ID_A].moves[q] == {0, 1}, f"A: RH move fields of plane {q}: {sides[ID_A].moves[q]}"
        assert all(m == {0} for m in sides[ID_B].moves.values()), f"B: RH move fields {dict(sides[ID_B].moves)}"
    if PORTS > 1 and UNORDERED:
        for s in sides.values():
            if not s.accepted_total:
                continue  # a side without ops of its own (writes: A -> B)
            assert all(s.op_frames), f"endpoint {s.own}: frames with ops per port {s.op_frames}: a port left idle"
            dut._log.info(f"endpoint {s.own}: frames with ops per port {s.op_frames} (unordered)")
    elif PORTS > 1:
        for s in sides.values():
            want = port_of(s.own)
            assert s.op_frames[want] > 0 and not any(n for p, n in enumerate(s.op_frames) if p != want), \
                f"endpoint {s.own}: frames with ops per port {s.op_frames}, all expected on port {want}"
            dut._log.info(f"endpoint {s.own}: frames with ops per port {s.op_frames} (PORT_MAP: port {want})")
    stats = {k: dict(v.stats) for k, v in links.items()}
    dut._log.info(f"{sum(delivered.values())} ops delivered exactly once in order; link faults {stats}")
    injected = {"drop": "dropped", "corrupt": "corrupted", "duplicate": "duplicated", "delay": "delayed",
                "ack_only_drop": "dropped_ack_only"}
    for k, stat in injected.items():
        if getattr(faults, k) > 0:
            assert sum(v.get(stat, 0) for v in stats.values()) > 0, f"fault {k} configured but never injected"
    if down:
        assert sum(v.get("lost_link_down", 0) for v in stats.values()) > 0, "the link-down window lost no frame"
    if forced_loss:
        assert counters[ID_A]["tx_rel.retx"] > 0, "a PDU was lost but A retransmitted nothing"
    pdus = {k: c["tx_rel.pdus"] for k, c in counters.items()}
    results.update({"link": stats, "forced_losses": len(forced_loss),
                    "retransmissions": {k: c["tx_rel.retx"] for k, c in counters.items()},
                    "timeouts": {k: c["tx_rel.timeouts"] for k, c in counters.items()},
                    "new_pdus": pdus,
                    "psn_wraps": {k: (first_psn(k, sides[k].peer) + n) >> 16 for k, n in pdus.items()},
                    "verdict": "pass"})
    if RESULTS:
        with open(RESULTS, "w") as fh:
            json.dump(results, fh, indent=1)


# The documented identification value (sue-rtl/README.md, "Register map"): "SUE1".
MAGIC = 0x53554531


def random_legal(r, rng: random.Random) -> int:
    """A random legal word of a register: every writable field in its range, other bits 0."""
    return r.pack(**{f.name: rng.randint(f.min, f.max) for f in r.fields if f.access == "rw"})


def readable(r, word: int) -> int:
    """What a read of ``r`` returns after ``word`` was written: its readable fields."""
    return word & sum(f.mask for f in r.fields if f.access != "wo")


def config_entries(r) -> list[int]:
    """Byte addresses of every entry of a configuration register (one, or a table's)."""
    return [r.at(i) for i in range(r.count)] if r.count > 1 else [r.address]


def okay_access(m):
    """``read(addr)`` and ``write(addr, value)`` of one 32-bit word through ``m`` (cocotbext-axi
    ``AxiLiteMaster``), each failing unless the target answers OKAY."""

    async def read(addr: int) -> int:
        rsp = await m.read(addr, 4)
        assert rsp.resp == AxiResp.OKAY, f"read {addr:#x}: {rsp.resp!r}"
        return int.from_bytes(rsp.data, "little")

    async def write(addr: int, value: int) -> None:
        rsp = await m.write(addr, value.to_bytes(4, "little"))
        assert rsp.resp == AxiResp.OKAY, f"write {value:#x} to {addr:#x}: {rsp.resp!r}"

    return read, write


async def check_config_before_setup(port: RegPort, rng: random.Random) -> None:
    """The ``cfg`` block after reset, before any traffic (changing live configuration would break
    the link): every register and table entry reads its reset value (tables are cleared), every
    scalar register and a sample of table entries read back random legal values, then the reset
    value is written back (the setup writes follow)."""
    m, cfg = port.master, block_registers(port.regs.cfg)

    read, write = okay_access(m)

    for r in cfg:
        for a in config_entries(r):
            assert await read(a) == readable(r, r.reset), f"{r.name} at {a:#x}: not its reset value {r.reset:#x}"
    for r in cfg:
        if not any(f.access == "rw" for f in r.fields):
            continue  # CONN: a command, not a setting
        entries = config_entries(r)
        for a in entries if len(entries) == 1 else rng.sample(entries, min(3, len(entries))):
            for _ in range(2):
                value = random_legal(r, rng)
                await write(a, value)
                got = await read(a)
                assert got == value, f"{r.name} at {a:#x}: wrote {value:#x}, read {got:#x}"
            await write(a, r.reset)


async def check_registers(dut, port: RegPort, rng: random.Random, table: CommandTable) -> None:
    """The register map of one endpoint through cocotbext-axi while traffic runs: identification
    against the generator's parameters, read-after-write of every rw register, every configuration
    register reading what the setup wrote (its reset value otherwise), read-after-write of the
    configuration entries the traffic does not use, every status word read (counters never go
    back), bad addresses DECERR, illegal writes SLVERR (nothing changed), and the target's error
    counters equal to the error responses seen here."""
    m, regs = port.master, port.regs
    ep = regs.endpoint
    errors = {AxiResp.SLVERR: 0, AxiResp.DECERR: 0}

    async def read(addr: int, expect=AxiResp.OKAY) -> int:
        rsp = await m.read(addr, 4)
        assert rsp.resp == expect, f"read {addr:#x}: {rsp.resp!r}, expected {expect!r}"
        errors[rsp.resp] = errors.get(rsp.resp, 0) + 1
        return int.from_bytes(rsp.data, "little")

    async def write(addr: int, value: int, expect=AxiResp.OKAY, nbytes: int = 4) -> None:
        rsp = await m.write(addr, value.to_bytes(4, "little")[:nbytes])
        assert rsp.resp == expect, f"write {value:#x} to {addr:#x}: {rsp.resp!r}, expected {expect!r}"
        errors[rsp.resp] = errors.get(rsp.resp, 0) + 1

    # identification
    assert await read(ep.ID.address) == MAGIC
    buses = ep.BUSES.unpack(await read(ep.BUSES.address))
    assert buses == {"data_width": len(dut.a_tx_data), "vcs": VCS, "encap": ENCAP, "vlan": 0}, buses
    assert await read(ep.XPUS.address) == XPUS
    assert await read(ep.CELLS.address) == int(os.environ["TB_CELLS"])
    assert await read(ep.RX_BUF_BYTES.address) == int(os.environ["TB_RX_BUF"])
    assert ep.VERSION.unpack(await read(ep.VERSION.address))["major"] >= 1

    # read-after-write of every rw register (random legal values), then the reset-time value back
    rw_regs = [r for r in block_registers(ep) if any(f.access == "rw" for f in r.fields)]
    assert {r.name for r in rw_regs} >= {"endpoint_IRQ_ENABLE", "endpoint_SCRATCH"}, rw_regs
    for r in rw_regs:
        for _ in range(4):
            values = {f.name: rng.randint(f.min, f.max) for f in r.fields if f.access == "rw"}
            await write(r.address, r.pack(**values))
            got = r.unpack(await read(r.address))
            assert all(got[k] == v for k, v in values.items()), f"{r.name}: wrote {values}, read {got}"
        await write(r.address, r.reset)

    # configuration: what the setup wrote (else the reset value) reads back, under traffic
    cfg = regs.cfg
    written = dict(setup_writes(ID_A, table))
    for r in block_registers(cfg):
        for a in config_entries(r):
            want = readable(r, written.get(a, r.reset))
            assert await read(a) == want, f"{r.name} at {a:#x}: expected {want:#x}"
    # read-after-write where the traffic does not look: destinations other than A and B, unused
    # command types; then the setup's value back
    unused = [d for d in range(XPUS) if d not in (ID_A, ID_B)]
    spare_types = [t for t in range(1, cfg.CMD_TYPE.count + 1) if t not in table.entries]
    targets = [(r, r.at(d)) for r in block_registers(cfg) if r.count == XPUS and r.address >= cfg.DST_MAC_LO.address
               and any(f.access == "rw" for f in r.fields) for d in unused]
    targets += [(cfg.CMD_TYPE, cfg.CMD_TYPE.at(t - 1)) for t in rng.sample(spare_types, 4)]
    for r, a in targets:
        value = random_legal(r, rng)
        await write(a, value)
        assert await read(a) == value, f"{r.name} at {a:#x}: wrote {value:#x}"
        await write(a, written.get(a, r.reset))
    # illegal configuration writes: SLVERR, nothing changes (nothing reaches the blocks)
    window = cfg.WINDOW.field("pdus")
    illegal = [(cfg.WINDOW, window.min - 1), (cfg.WINDOW, window.max + 1), (cfg.ACK_EVERY, 0),
               (cfg.OWN_MAC_HI, 1 << 16), (cfg.CMD_TYPE, cfg.CMD_TYPE.field("units").max + 1),
               (cfg.PACK_LIMIT, cfg.PACK_LIMIT.field("bytes").min - 1)]
    for r, value in illegal:
        a = r.at(spare_types[0] - 1) if r.count > 1 else r.address
        before = await read(a)
        await write(a, value, AxiResp.SLVERR)
        assert await read(a) == before, f"{r.name}: the refused {value:#x} changed it"
    # holes of the configuration window: DECERR
    cfg_holes = [cfg.BASE + 4 * 0x14, cfg.CMD_TYPE.address - 4, cfg.DST_MAC_LO.at(0) + 4 * 0xA]
    if cfg.DST_MAC_LO.address + XPUS * cfg.DST_MAC_LO.stride < cfg.BASE + cfg.BYTES:
        cfg_holes.append(cfg.DST_MAC_LO.address + XPUS * cfg.DST_MAC_LO.stride)
    for a in cfg_holes:
        await read(a, AxiResp.DECERR)
        await write(a, 0, AxiResp.DECERR)

    # every status word, twice: all answer OKAY, counters do not go back
    status = block_registers(regs.status)
    first = {r.name: await read(r.address) for r in status}
    for r in status:
        again = await read(r.address)
        f = r.fields[0]
        if f.width == 32:
            assert again >= first[r.name], f"{r.name} went back from {first[r.name]} to {again}"

    # bad addresses: DECERR for reads and writes
    scratch = await read(ep.SCRATCH.address)
    used = {r.address for r in block_registers(ep)}
    holes = [a for a in range(ep.BASE, ep.BASE + ep.BYTES, 4) if a not in used]
    beyond_status = [regs.status.BASE + 4 * len(status)] if 4 * len(status) < regs.status.BYTES else []
    outside = [ep.BASE + ep.BYTES, (1 << regs.BYTE_ADDRESS_BITS) - 4, regs.status.BASE + regs.status.BYTES]
    for a in holes + beyond_status + outside:
        await read(a, AxiResp.DECERR)
        await write(a, 0x12345678, AxiResp.DECERR)

    # illegal writes and reads: SLVERR, nothing changes
    await write(ep.ID.address, 0, AxiResp.SLVERR)
    await write(ep.IRQ_PENDING.address, 1, AxiResp.SLVERR)
    await write(status[0].address, 0, AxiResp.SLVERR)
    enable_bits = sum(f.mask for f in ep.IRQ_ENABLE.fields)
    await write(ep.IRQ_ENABLE.address, (enable_bits << 1) & ~enable_bits & 0xFFFFFFFF or 1 << 31, AxiResp.SLVERR)
    await write(ep.SCRATCH.address, scratch ^ 0xFFFF, AxiResp.SLVERR, nbytes=2)  # wstrb 0011
    assert await read(ep.ID.address) == MAGIC
    assert await read(ep.SCRATCH.address) == scratch
    assert await read(ep.IRQ_ENABLE.address) == ep.IRQ_ENABLE.reset

    # link events: LINK_STATUS follows link_up, every change sets IRQ_CAUSE.link_change (w1c), irq
    # while it is enabled
    link_bit = ep.IRQ_CAUSE.field("link_change").mask
    await write(ep.IRQ_ENABLE.address, ep.IRQ_ENABLE.pack(link_change=1))
    for level in (1, 0):
        dut.a_link_up.value = level
        for _ in range(4):
            await RisingEdge(dut.clk)
        assert ep.LINK_STATUS.unpack(await read(ep.LINK_STATUS.address))["up"] == level
        assert await read(ep.IRQ_CAUSE.address) & link_bit, f"link_up -> {level}: no link_change cause"
        assert int(dut.a_irq.value) == 1, f"link_up -> {level}: link_change enabled but no irq"
        await write(ep.IRQ_CAUSE.address, link_bit)
        assert not await read(ep.IRQ_CAUSE.address) & link_bit, "link_change not cleared by writing 1"
        await RisingEdge(dut.clk)
        await RisingEdge(dut.clk)
        assert int(dut.a_irq.value) == 0, "irq stays after its only cause was cleared"
    await write(ep.IRQ_ENABLE.address, ep.IRQ_ENABLE.reset)

    # the target counts every error response once
    slverr, decerr = errors[AxiResp.SLVERR], errors[AxiResp.DECERR]
    assert await read(ep.AXI_SLVERR.address) == slverr
    assert await read(ep.AXI_DECERR.address) == decerr
    assert int(dut.a_irq.value) == 0, "irq with no cause enabled"
    dut._log.info(f"registers: {len(status)} status words, {len(rw_regs)} rw registers, "
                  f"{len(block_registers(cfg))} configuration registers, {slverr} SLVERR and "
                  f"{decerr} DECERR answered and counted, under traffic")


async def check_port_registers(dut, port: RegPort) -> None:
    """The registers of a multi-port endpoint (A, before the setup): a PORT_MAP value naming a
    missing port is refused (SLVERR, counted in AXI_SLVERR, the entry unchanged), the largest
    legal one is kept; LINK_STATUS has a bit per port following link_up, and every change of
    any bit sets IRQ_CAUSE.link_change."""
    m, regs = port.master, port.regs
    ep, entry = regs.endpoint, regs.cfg.PORT_MAP.at(XPUS - 1)

    async def read(addr: int) -> int:
        rsp = await m.read(addr, 4)
        assert rsp.resp == AxiResp.OKAY, f"read {addr:#x}: {rsp.resp!r}"
        return int.from_bytes(rsp.data, "little")

    async def write(addr: int, value: int) -> AxiResp:
        return (await m.write(addr, value.to_bytes(4, "little"))).resp

    slverr = await read(ep.AXI_SLVERR.address)
    assert await write(entry, PORTS + 1) == AxiResp.SLVERR, f"PORT_MAP = {PORTS + 1} (no such port) accepted"
    assert await read(entry) == 0, "a refused PORT_MAP write changed the entry"
    assert await read(ep.AXI_SLVERR.address) == slverr + 1, "the refused PORT_MAP write was not counted"
    assert await write(entry, PORTS) == AxiResp.OKAY, f"PORT_MAP = {PORTS} (port {PORTS - 1}) refused"
    assert await read(entry) == PORTS
    assert await write(entry, 0) == AxiResp.OKAY

    link_bit = ep.IRQ_CAUSE.field("link_change").mask
    for level in [1 << p for p in range(PORTS)] + [(1 << PORTS) - 1, 0]:
        await write(ep.IRQ_CAUSE.address, link_bit)
        dut.a_link_up.value = level
        for _ in range(4):
            await RisingEdge(dut.clk)
        assert ep.LINK_STATUS.unpack(await read(ep.LINK_STATUS.address))["up"] == level, f"LINK_STATUS for {level:#x}"
        assert await read(ep.IRQ_CAUSE.address) & link_bit, f"link_up -> {level:#x}: no link_change cause"
    await write(ep.IRQ_CAUSE.address, link_bit)
    dut._log.info(f"port registers: PORT_MAP range checked, LINK_STATUS and link_change over {PORTS} ports")


async def conn_error_irq(dut, bench, sides: dict, links: dict, new_op) -> None:
    """A connection that reaches the error state raises ``irq`` (sue-rtl/DESIGN-RELIABILITY.md,
    "Retry limit"; README "Register map"): the link A -> B is cut, so B never sees A's PDUs and
    never acknowledges them; with a small RTO and RETRY_LIMIT, A's connection to B rewinds
    RETRY_LIMIT times and the next timeout puts it in error. Checked: one ``conn_err`` event naming
    B, IRQ_CAUSE.conn_error, IRQ_PENDING = cause & enable (masking by IRQ_ENABLE), ``irq`` while
    enabled, ``conn_state`` {error, rewinding} of B reporting error (other connections clean),
    the status counters (timeouts = RETRY_LIMIT, retry_err = 1), an op to B in error dropped and
    counted, w1c clearing the cause and ``irq`` falling, the error bit sticky until CONN[B]."""
    a = sides[ID_A]
    m, cfg, ep, st = a.regs.master, REGS.cfg, REGS.endpoint, REGS.status
    rto, retry_limit = 400, 2
    err_bit = ep.IRQ_CAUSE.field("conn_error").mask
    events: list[tuple[int, int]] = []  # (cycle, conn_err_payload)

    def watch_conn_err(cycle: int) -> None:
        if int(dut.a_conn_err_valid.value):
            events.append((cycle, int(dut.a_conn_err_payload.value)))
    bench.add(CycleProbe(watch_conn_err))

    read, write = okay_access(m)

    async def conn_state(dest: int) -> dict[str, int]:
        dut.a_conn_state_dest.value = dest
        await cycles(2)
        word = int(dut.a_conn_state.value)  # {error, rewinding} (sue-rtl/README.md, sue_endpoint ports)
        return {"error": word >> 1 & 1, "rewinding": word & 1}

    async def cycles(n: int) -> None:
        for _ in range(n):
            await RisingEdge(dut.clk)

    async def wait_for(done, limit: int, what: str) -> None:  # the bench steps the agents meanwhile
        for _ in range(limit):
            if done():
                return
            await RisingEdge(dut.clk)
        raise AssertionError(f"{what}: not within {limit} cycles")

    await write(cfg.RTO.address, rto)
    await write(cfg.RETRY_LIMIT.address, retry_limit)
    await write(ep.IRQ_ENABLE.address, ep.IRQ_ENABLE.pack(conn_error=1))
    assert not await read(ep.IRQ_CAUSE.address) & err_bit, "conn_error set before any connection failed"
    assert int(dut.a_irq.value) == 0, "irq before any cause"
    before = {r: await read(getattr(st, r).address) for r in ("TX_REL_TIMEOUTS", "TX_REL_RETRY_ERR",
                                                             "TX_REL_ERR_DROP_OPS", "TX_REL_RETX")}

    links["ab"].down(0, 1 << 62)  # B never receives anything from A again
    for _ in range(4):
        a.xtx.submit(new_op(a))
    a.xtx.paused = False
    # RETRY_LIMIT rewinds, then the error: (RETRY_LIMIT + 1) RTOs plus a scan round each, at most
    limit = (retry_limit + 1) * (rto + 4 * XPUS + 200) + 2000
    start = bench.cycle
    await wait_for(lambda: int(dut.a_irq.value) == 1, limit, "irq after the retry limit")
    assert events and events[0][1] == ID_B, f"conn_err events {events}: expected one naming {ID_B}"
    assert bench.cycle - start >= (retry_limit + 1) * rto, \
        f"error after {bench.cycle - start} cycles, before {retry_limit + 1} RTOs of {rto} had passed"
    assert await read(ep.IRQ_CAUSE.address) & err_bit, "irq high but IRQ_CAUSE.conn_error clear"
    assert await read(ep.IRQ_PENDING.address) == err_bit, "IRQ_PENDING is not IRQ_CAUSE & IRQ_ENABLE"
    assert (await conn_state(ID_B))["error"] == 1, "connection to B not reported in error"
    others = {d: await conn_state(d) for d in range(XPUS) if d != ID_B}
    assert all(s == {"error": 0, "rewinding": 0} for s in others.values()), f"other connections touched: {others}"
    await cycles(2 * rto)  # the error is reported once, stays, and nothing retries any more
    assert len(events) == 1, f"conn_err events {events}: expected exactly one"
    after = {r: await read(getattr(st, r).address) for r in before}
    assert after["TX_REL_TIMEOUTS"] - before["TX_REL_TIMEOUTS"] == retry_limit, f"timeouts {before} -> {after}"
    assert after["TX_REL_RETRY_ERR"] - before["TX_REL_RETRY_ERR"] == 1, f"retry_err {before} -> {after}"
    assert after["TX_REL_RETX"] > before["TX_REL_RETX"], f"nothing retransmitted before the error: {after}"

    # an op to a connection in error is dropped and counted
    a.xtx.submit(new_op(a))
    await wait_for(lambda: a.xtx.idle_now, 5000, "the op to B in error accepted")
    await cycles(500)
    dropped = await read(st.TX_REL_ERR_DROP_OPS.address)
    assert dropped > after["TX_REL_ERR_DROP_OPS"], f"op to B in error not counted as dropped ({dropped})"

    # masking: IRQ_ENABLE off lowers irq and IRQ_PENDING, the cause stays; on again raises them
    await write(ep.IRQ_ENABLE.address, 0)
    await cycles(2)
    assert int(dut.a_irq.value) == 0, "irq with conn_error disabled"
    assert await read(ep.IRQ_PENDING.address) == 0
    assert await read(ep.IRQ_CAUSE.address) & err_bit, "disabling conn_error cleared the cause"
    await write(ep.IRQ_ENABLE.address, ep.IRQ_ENABLE.pack(conn_error=1))
    await cycles(2)
    assert int(dut.a_irq.value) == 1, "irq not back when conn_error is enabled again"

    # w1c: writing 0 changes nothing, writing 1 clears the cause and irq falls
    await write(ep.IRQ_CAUSE.address, 0)
    assert await read(ep.IRQ_CAUSE.address) & err_bit, "writing 0 cleared conn_error"
    await write(ep.IRQ_CAUSE.address, err_bit)
    assert not await read(ep.IRQ_CAUSE.address) & err_bit, "conn_error not cleared by writing 1"
    assert await read(ep.IRQ_PENDING.address) == 0
    await cycles(2)
    assert int(dut.a_irq.value) == 0, "irq stays after its only cause was cleared"
    assert (await conn_state(ID_B))["error"] == 1, "the error bit is not sticky (cleared with the interrupt)"

    # only CONN[B] (re-initialisation at a new PSN) leaves the error
    await write(cfg.CONN.at(ID_B), first_psn(ID_A, ID_B))
    await cycles(8)
    assert (await conn_state(ID_B))["error"] == 0, "CONN[B] did not clear the error state"
    await cycles(2 * rto)
    assert int(dut.a_irq.value) == 0 and len(events) == 1, f"a new error after re-initialisation: {events}"
    dut._log.info(f"conn_error: connection {ID_A} -> {ID_B} in error after {retry_limit} rewinds "
                  f"(RTO {rto}), event at cycle {events[0][0]}; irq, IRQ_PENDING, masking, w1c, "
                  f"sticky error bit, CONN re-initialisation checked")


async def unreach_never(dut, bench, sides: dict, links: dict, new_op, failover: dict) -> None:
    """Unordered mode with UNREACH_TIME = 0 (never unreachable, sue-rtl/DESIGN-PORTS.md "Failover"):
    port 1's link models lose every frame for good (TB_PORT_LOSS, both directions) while link_up
    stays 1. Plane 1 stays live, so nothing moves: its frames keep leaving on port 1 (none of plane 1
    on another port, checked on every frame the MACs take), go-back-N rewinds RETRY_LIMIT times and
    the next timeout puts A's plane-1 connection to B in the error state: a conn_err event naming B,
    not before RETRY_LIMIT RTOs after the loss, conn_state of B reporting error, and the retry_err
    counter of plane 1 only. Ops delivered meanwhile
    are checked as in every unordered run (none twice, none corrupt)."""
    a = sides[ID_A]
    events: list[tuple[int, int]] = []

    def watch_conn_err(cycle: int) -> None:
        if int(dut.a_conn_err_valid.value):
            events.append((cycle, int(dut.a_conn_err_payload.value)))
    bench.add(CycleProbe(watch_conn_err))
    assert len(LOSSES) == 1 and LOSSES[0][0] == 1 and UNREACH_TIME == 0, "unreach_never: TB_PORT_LOSS on port 1, " \
                                                                         "TB_UNREACH_TIME = 0"
    for _ in range(N_OPS):
        a.xtx.submit(new_op(a))
    a.xtx.idle = 0.9  # light load: no timeout before the loss
    a.xtx.paused = False
    schedule_outages(dut, bench, links, failover, lambda: [])
    start = bench.cycle + LOSSES[0][1]
    limit = LOSSES[0][1] + (RETRY_LIMIT + 1) * (RTO + 4 * XPUS + 200) + 4000
    for _ in range(limit):
        if events:
            break
        await RisingEdge(dut.clk)
    assert events, f"no conn_err within {limit} cycles of the traffic's start with port 1 losing everything"
    assert events[0][1] == ID_B, f"conn_err events {events}: expected one naming {ID_B}"
    # the first timeout may come soon after the loss (its deadline ran from a PDU sent before it), each
    # of the RETRY_LIMIT rewinds after it waits a whole RTO
    assert events[0][0] - start >= RETRY_LIMIT * RTO, \
        f"error {events[0][0] - start} cycles after the loss, before {RETRY_LIMIT} RTOs of {RTO}"
    dut.a_conn_state_dest.value = ID_B
    for _ in range(2):
        await RisingEdge(dut.clk)
    assert int(dut.a_conn_state.value) >> 1 & 1, "the connection to B is not reported in error"
    assert failover["steered"] is None, \
        f"a frame of plane 1 left on another port at cycle {failover['steered']} with UNREACH_TIME = 0"
    a.regs.read_status()
    for _ in range(20_000):
        if not a.regs.busy:
            break
        await RisingEdge(dut.clk)
    c = a.regs.status()
    errs = [plane_words(c, p)["tx_rel.retry_err"] for p in range(PORTS)]
    assert errs == [0, 1], f"retry_err per plane {errs}: expected plane 1's connection only"
    assert any(s.op_frames[1] for s in sides.values()), "port 1 carried no ops before the loss"
    dut._log.info(f"UNREACH_TIME = 0: port 1 lost everything from cycle {start}; plane 1 never moved; A's connection "
                  f"to B in error at cycle {events[0][0]} ({events[0][0] - start} cycles, RETRY_LIMIT {RETRY_LIMIT}, "
                  f"RTO {RTO}); {sum(len(q) for q in a.xtx.queues)} ops not yet taken by the XPU")


async def exchange_control_frames(dut, bench, sides: dict, rng: random.Random, results: dict) -> None:
    """Control frames through both endpoints' ``ctl`` blocks while SUE traffic runs (TB_CTL each way):

    * scapy frames (ARP, LLDP; 14..1514 bytes) written by software into the sender's TX buffer
      leave its MAC byte-exact, padded with zeros to 60 bytes, with the FCS (zlib) when SUE adds
      it, in order, between SUE frames (the scoreboard and the R-CRC/FCS checks see every PDU
      intact);
    * the receiver's software, woken by ``irq`` (IRQ_ENABLE.ctl_frame), reads each byte-exact
      (what its MAC delivered: with the FCS when RX_FCS is 1) and pops it; ``mac_rx_0_tready``
      stays 1 throughout (SUE reception never waits);
    * overflow: with the receiver not reading, RX_SLOTS + 3 frames arrive: the first RX_SLOTS are
      kept, 3 are dropped and counted (RX_DROPS_FULL, IRQ_CAUSE.ctl_drop);
    * lengths outside 14..max are refused (SLVERR) and nothing leaves.
    """
    ctl, ep = REGS.ctl, REGS.endpoint
    limits = ctl.LIMITS.unpack(await sides[ID_A].ctl_sw.read(ctl.LIMITS.address))
    slots, max_len = limits["rx_slots"], limits["max_frame_bytes"] - (4 if FCS else 0)
    stalls = []

    def watch_ready(_cycle: int) -> None:
        for p in ("a_", "b_"):
            if int(getattr(dut, f"{p}mac_rx_0_tready").value) != 1:
                stalls.append(p)
    bench.add(CycleProbe(watch_ready))

    def wire(frame: bytes) -> bytes:
        padded = frame.ljust(60, b"\0")
        return padded + zlib.crc32(padded).to_bytes(4, "little") if FCS else padded

    def lengths(n: int) -> list[int]:
        if CTL_LEN:
            return [CTL_LEN] * n
        fixed = [14, 59, 60, 61, max_len]
        return (fixed + [rng.randint(14, max_len) for _ in range(n)])[:n]

    async def receive(side, n: int) -> list[bytes]:
        got = []
        while len(got) < n:
            while int(getattr(dut, f"{'a_' if side.own == ID_A else 'b_'}irq").value) == 0:
                await RisingEdge(dut.clk)
            while (f := await side.ctl_sw.receive()) is not None:
                got.append(f)
            await side.ctl_sw.write(ep.IRQ_CAUSE.address, ep.IRQ_CAUSE.pack(ctl_frame=1))
        return got

    for s in sides.values():
        await s.ctl_sw.write(ep.IRQ_ENABLE.address, ep.IRQ_ENABLE.pack(ctl_frame=1))
    # each way, sender and receiver concurrently
    sent = {k: [control_frame(rng, n) for n in lengths(CTL)] for k in sides}
    results["ctl"] = {}
    for k, s in sides.items():
        peer = sides[s.peer]
        start = bench.cycle
        senders = cocotb.start_soon(_send_all(s.ctl_sw, sent[k]))
        got = await receive(peer, len(sent[k]))
        await senders
        # one direction: the sender's first word written -> the receiver's last frame popped
        results["ctl"][f"{s.own}_to_{peer.own}"] = {"frames": len(got), "cycles": bench.cycle - start,
                                                    "bytes": [len(f) for f in sent[k]]}
        expect = [wire(f) for f in sent[k]]
        assert got == expect, f"endpoint {peer.own} received control frames that differ"
        assert s.ctl_out[-len(expect):] == expect, f"endpoint {s.own}: control frames on mac_tx_0 differ"

    # overflow at B: not read while RX_SLOTS + 3 frames arrive
    a, b = sides[ID_A], sides[ID_B]
    await b.ctl_sw.write(ep.IRQ_ENABLE.address, 0)
    drops0 = await b.ctl_sw.read(ctl.RX_DROPS_FULL.address)
    burst = [control_frame(rng, rng.randint(14, 200)) for _ in range(slots + 3)]
    before = len(a.ctl_out)
    await _send_all(a.ctl_sw, burst)
    while len(a.ctl_out) < before + len(burst):
        await RisingEdge(dut.clk)
    for _ in range(LINK_LATENCY + 200):
        await RisingEdge(dut.clk)
    assert await b.ctl_sw.read(ctl.RX_DROPS_FULL.address) - drops0 == 3, "overflow drops not counted"
    assert ep.IRQ_CAUSE.unpack(await b.ctl_sw.read(ep.IRQ_CAUSE.address))["ctl_drop"] == 1
    kept = [await b.ctl_sw.receive() for _ in range(slots)]
    assert kept == [wire(f) for f in burst[:slots]], "the frames kept on overflow are not the first ones"
    assert await b.ctl_sw.receive() is None
    await b.ctl_sw.write(ep.IRQ_CAUSE.address, ep.IRQ_CAUSE.pack(ctl_frame=1, ctl_drop=1))

    # bad lengths: refused, nothing sent
    frames_before = await a.ctl_sw.read(ctl.TX_FRAMES.address)
    for bad in (13, limits["max_frame_bytes"] + 1):
        await a.ctl_sw.write(ctl.TX_SEND.address, ctl.TX_SEND.pack(length=bad), expect=AxiResp.SLVERR)
    assert await a.ctl_sw.read(ctl.TX_FRAMES.address) == frames_before
    assert not stalls, f"mac_rx_0_tready low in {len(stalls)} cycles: SUE reception waited"
    dut._log.info(f"control frames: {CTL} each way byte-exact ({results['ctl']}), "
                  f"{slots + 3} into {slots} free slots: 3 dropped and counted")


async def _send_all(sw: ControlSoftware, frames: list[bytes]) -> None:
    for f in frames:
        await sw.send(f)


def schedule_outages(dut, bench, links: dict, failover: dict, outstanding) -> None:
    """The TB_PORT_DOWN and TB_FLAP windows from now: the port's link models lose every frame, both
    ends' link_up bit is 0; at the first window's start, the ops outstanding (``outstanding()``, ids)
    are recorded for the recovery figure."""
    now = bench.cycle
    windows = [(port, now + start, now + start + length if length else 1 << 62) for port, start, length in OUTAGES]
    losses = [(port, now + start, now + start + length if length else 1 << 62, d) for port, start, length, d in LOSSES]
    for port, a, b, d in losses:  # the link models lose everything, link_up stays 1
        for direction in (("ab", "ba") if d == "both" else (d,)):
            links[link_name(direction, port)].down(a, b)
    if FLAP:
        port, period, duration = FLAP
        windows += [(port, k, k + period) for k in range(now + 1000, now + 1000 + duration, 2 * period)]
    for port, a, b in windows:
        for d in ("ab", "ba"):
            links[link_name(d, port)].down(a, b)
    first = min([a for _, a, _ in windows] + [a for _, a, _, _ in losses])

    class LinkUpDriver:  # link_up is driven in the drive phase (a CycleProbe samples in ReadOnly)
        mask = (1 << PORTS) - 1

        def drive(self) -> None:
            cycle = bench.cycle
            mask = (1 << PORTS) - 1
            for port, a, b in windows:
                if a <= cycle < b:
                    mask &= ~(1 << port)
            if mask != self.mask:
                self.mask = mask
                dut.a_link_up.value = dut.b_link_up.value = mask
            if cycle >= first and failover["down_at"] is None:
                failover["down_at"] = cycle
                failover["outstanding"] = set(outstanding())
                if not failover["outstanding"]:
                    failover["recovered"] = cycle

        def sample(self) -> None:
            pass
    bench.add(LinkUpDriver())


def check_accounting(dut, s: Side, words: dict[str, int]) -> None:
    """Frame accounting of every port's plane against its MAC ports, ops against the XPUs."""
    totals = total_words(words)
    who = f"endpoint {s.own}"
    assert totals["rx_deliver.ops"] == s.xrx.ops, f"{who}: RTL delivered {totals['rx_deliver.ops']} ops, XPU took {s.xrx.ops}"
    assert totals["tx_xpu.ok"] == s.accepted_total, f"{who}: interface committed {totals['tx_xpu.ok']} ops of {s.accepted_total}"
    if UNORDERED:
        # frames by plane (the RH plane field, plane_of), whatever port carried them: each plane's
        # framer against the frames of its plane the MACs took, its parser against the frames routed
        # to it, less those the steering dropped (a plane receiving from another port)
        drops = sum(words[f"steer.rx_drop{p}"] for p in range(PORTS))
        parsed = [plane_words(words, q)["rx_parser.frames"] for q in range(PORTS)]
        for q in range(PORTS):
            assert parsed[q] <= s.rx_by_plane[q], f"endpoint {s.own} plane {q}: parsed {parsed[q]} frames, " \
                                                  f"{s.rx_by_plane[q]} were for it"
        assert sum(s.rx_by_plane.values()) == sum(parsed) + drops, \
            f"endpoint {s.own}: frames in {dict(s.rx_by_plane)}, parsed {parsed}, steering drops {drops}"
        dut._log.info(f"endpoint {s.own}: frames by plane sent {dict(s.tx_by_plane)} received {dict(s.rx_by_plane)}; "
                      f"steering drops {drops}, frames sent away {[words[f'steer.tx_away{q}'] for q in range(PORTS)]}")
    for port in range(PORTS):
        check_plane(dut, s, plane_words(words, port), port)


def check_plane(dut, s: Side, c: dict[str, int], port: int) -> None:
    who = f"endpoint {s.own} port {port}"
    frames_in = c["rx_parser.frames"] if UNORDERED else s.mac_ins[port].sent_frames
    drops = sum(c[f"rx_parser.{r}"] for r in ("mac_err", "fcs", "trunc", "over", "hdr", "len", "csum", "rcrc",
                                              "ver", "op", "src", "part"))
    assert c["rx_parser.frames"] == frames_in, f"{who}: parser counted {c['rx_parser.frames']} frames, MAC gave {frames_in}"
    assert c["rx_parser.frames"] == c["rx_parser.pass"] + c["rx_parser.ctl"] + drops, f"{who}: frames not accounted: {c}"
    outcomes = sum(c[f"rx_rel.{r}"] for r in ("accepted", "dup", "gap", "nobuf", "empty", "unknown"))
    assert c["rx_parser.pass"] == outcomes, f"{who}: {c['rx_parser.pass']} PDUs passed, {outcomes} reliability outcomes"
    assert c["rx_rel.accepted"] == c["rx_deliver.stored"], f"{who}: accepted {c['rx_rel.accepted']} != stored"
    assert c["rx_deliver.bad_op"] == 0, f"{who}: a good peer's PDU had a malformed op"
    r = s.regs.results
    ctl = REGS.ctl
    # control frames are sent and received on port 0 only (another port's plane drops what its parser
    # passes as not SUE, e.g. a frame whose EtherType the link corrupted)
    ctl_out = len(s.ctl_out) if port == 0 else 0
    if port == 0:
        ctl_in = r[ctl.RX_FRAMES.address] + r[ctl.RX_DROPS_FULL.address] + r[ctl.RX_DROPS_BAD.address]
        assert c["rx_parser.ctl"] == ctl_in, f"{who}: parser passed {c['rx_parser.ctl']} control frames, the buffer saw {ctl_in}"
        assert r[ctl.TX_FRAMES.address] == ctl_out, f"{who}: {r[ctl.TX_FRAMES.address]} control frames sent, MAC took {ctl_out}"
    sue_out = s.tx_by_plane[port] if UNORDERED else s.mac_outs[port].frames_out - ctl_out
    assert c["tx_framer.frames"] == sue_out, f"{who}: framer {c['tx_framer.frames']} frames, MAC took {sue_out} SUE frames"
    dut._log.info(f"{who}: rx frames {frames_in} pass {c['rx_parser.pass']} ctl {c['rx_parser.ctl']} drops {drops} "
                  f"(fcs {c['rx_parser.fcs']} rcrc {c['rx_parser.rcrc']}); accepted {c['rx_rel.accepted']} dup "
                  f"{c['rx_rel.dup']} gap {c['rx_rel.gap']} nobuf {c['rx_rel.nobuf']} empty {c['rx_rel.empty']}; "
                  f"tx pdus {c['tx_rel.pdus']} retx {c['tx_rel.retx']} timeouts {c['tx_rel.timeouts']} "
                  f"nack used {c['tx_rel.nack_used']} empty {c['tx_rel.empty']}")

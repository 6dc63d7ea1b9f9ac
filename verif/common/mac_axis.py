# SPDX-License-Identifier: Apache-2.0
"""The SUE tops' AXI4-Stream MAC and control ports, driven and watched with cocotbext-axi.

``mac_tx_<p>_t*``, ``mac_rx_0_t*`` and ``ctl_t*`` (sue-rtl/README.md, "MAC and control
ports") are AXI4-Stream with ``tdata`` byte 0 in bits 7:0, ``tkeep`` and a 1-bit ``tuser``
(RX: MAC error on the last beat; TX: "abort", held 0). cocotbext-axi's ``AxiStreamSource``,
``AxiStreamSink`` and ``AxiStreamMonitor`` drive and watch them; ``pause`` generators
(``random_pause``) insert idle cycles on a source and back-pressure on a sink.

What cocotbext-axi does not do, and this module adds (each for the reason given):

* ``mac_frame``: the beats a MAC may send, beyond what ``AxiStreamFrame(bytes)`` gives: junk
  in the byte lanes past ``tkeep`` and a random ``tuser`` on beats other than the last (the
  RTL must ignore both), so a DUT that reads them is caught.
* ``frame_of``: a received frame back to (bytes, tuser of its last beat), checking the
  ``tkeep`` rules of our ports (full but on the last beat, contiguous from byte 0 there), which
  cocotbext's ``compact()`` would silently accept.
* ``AxisProtocolCheck``: the stream rules on a DUT output (``tvalid`` held and the payload
  stable while stalled); cocotbext's sink and monitor record transfers but do not check them.
* ``OneReadMonitor`` / ``OneReadSink``: cocotbext's monitor and sink with the same frames, but
  reading each signal once per beat instead of once per byte lane (``_transfer``).
* ``FrameSink`` / ``FrameWatch``: cocotbext's queues polled once per cycle from a
  ``ClockedBench`` (``common.stream_bfm``), with each frame's transfer time converted to the
  bench cycle (``ClockedBench.cycle_at``), so scoreboards and latency figures keep the bench's
  cycle numbers.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Callable, Iterator

from cocotb.triggers import RisingEdge
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamMonitor, AxiStreamSink, AxiStreamSource


def random_pause(probability: float, rng: random.Random) -> Iterator[bool]:
    """A cocotbext pause generator: True (pause) in each cycle with ``probability``."""
    while True:
        yield rng.random() < probability


_SIGNALS = ("tready", "tvalid", "tlast", "tkeep", "tid", "tdest", "tuser")


def _transfer(self, frame: AxiStreamFrame | None) -> AxiStreamFrame | None:
    """One transferred beat, as cocotbext-axi 0.1.28's monitor and sink loops take it (byte lane by
    byte lane: tdata's byte, tkeep's bit, tid/tdest/tuser whole; a frame queued on tlast), reading
    each signal once per beat where cocotbext reads every signal once per byte lane (192 reads of a
    512-bit beat): that was the largest Python cost of the benches watching MAC ports (28 % of the
    sue_rx 512-bit fuzz run, py-spy, 2026-11). Returns the frame still open, or None."""
    lanes, size, bus, has = self.byte_lanes, self.byte_size, self.bus, self._has
    if not frame:
        frame = AxiStreamFrame(bytearray() if size == 8 else [], [], [], [], [])
        frame.sim_time_start = get_sim_time()
        self.active = True
    data = int(bus.tdata.value)
    if size == 8:
        frame.tdata.extend((data & ((1 << 8 * lanes) - 1)).to_bytes(lanes, "little"))
    else:
        frame.tdata.extend((data >> (o * size)) & self.byte_mask for o in range(lanes))
    if has["tkeep"]:
        keep = int(bus.tkeep.value)
        frame.tkeep.extend((keep >> o) & 1 for o in range(lanes))
    for name in ("tid", "tdest", "tuser"):
        if has[name]:
            getattr(frame, name).extend([int(getattr(bus, name).value)] * lanes)
    if has["tlast"] and not bus.tlast.value:
        return frame
    frame.sim_time_end = get_sim_time()
    self.log.info("RX frame: %s", frame)
    self.queue_occupancy_bytes += len(frame)
    self.queue_occupancy_frames += 1
    self.queue.put_nowait(frame)
    self.active_event.set()
    return None


class OneReadMonitor(AxiStreamMonitor):
    """``AxiStreamMonitor`` reading each signal once per beat (``_transfer``): the same frames. The
    loop is cocotbext-axi 0.1.28's ``AxiStreamMonitor._run``."""

    async def _run(self):
        frame = None
        self.active = False
        self._has = {n: hasattr(self.bus, n) for n in _SIGNALS}
        edge, wake_event = RisingEdge(self.clock), self.wake_event.wait()
        while True:
            await edge
            if ((not self._has["tready"]) or self.bus.tready.value) and ((not self._has["tvalid"]) or self.bus.tvalid.value):
                frame = _transfer(self, frame)
            else:
                self.active = bool(frame)
                self.wake_event.clear()
                await wake_event


class OneReadSink(AxiStreamSink):
    """``AxiStreamSink`` reading each signal once per beat (``_transfer``): the same frames, pauses
    and ``tready``. The loop is cocotbext-axi 0.1.28's ``AxiStreamSink._run``."""

    async def _run(self):
        frame = None
        self.active = False
        self._has = has = {n: hasattr(self.bus, n) for n in _SIGNALS}
        edge, wake_event = RisingEdge(self.clock), self.wake_event.wait()
        while True:
            pause_sample = bool(self.pause)
            await edge
            tvalid_sample = (not has["tvalid"]) or self.bus.tvalid.value
            if ((not has["tready"]) or self.bus.tready.value) and tvalid_sample:
                frame = _transfer(self, frame)
            else:
                self.active = bool(frame)
            if has["tready"]:
                paused = self.full() or pause_sample
                self.bus.tready.value = not paused
                if (not tvalid_sample or paused) and (pause_sample == bool(self.pause)):
                    self.wake_event.clear()
                    await wake_event
            elif not tvalid_sample:
                self.wake_event.clear()
                await wake_event


def axis_bus(dut, prefix: str) -> AxiStreamBus:
    """``<prefix>_tvalid/_tready/_tdata/_tkeep/_tlast/_tuser`` of ``dut``."""
    return AxiStreamBus.from_prefix(dut, prefix)


def quiet(agent):
    """cocotbext-axi logs every frame (all its bytes) at INFO: on long runs that is most of the
    simulation's time and log. Only its warnings are kept."""
    agent.log.setLevel(logging.WARNING)
    return agent


def mac_source(dut, prefix: str) -> AxiStreamSource:
    """An ``AxiStreamSource`` on ``<prefix>_t*`` (clock ``clk``, reset ``rst``)."""
    return quiet(AxiStreamSource(axis_bus(dut, prefix), dut.clk, dut.rst))


def mac_frame(frame: bytes, err: int, width_bytes: int, rng: random.Random) -> AxiStreamFrame:
    """``frame`` as a MAC delivers it: ``err`` on the last beat's ``tuser``, a random ``tuser`` on
    the others, random junk in the last beat's lanes past ``tkeep``."""
    if not frame:
        raise ValueError("a frame has at least one byte")
    n = len(frame)
    beats = -(-n // width_bytes)
    pad = beats * width_bytes - n
    tuser = []
    for b in range(beats):
        tuser += [err if b == beats - 1 else rng.getrandbits(1)] * width_bytes
    return AxiStreamFrame(tdata=frame + rng.randbytes(pad), tkeep=[1] * n + [0] * pad, tuser=tuser)


def frame_of(f: AxiStreamFrame, width_bytes: int, what: str) -> tuple[bytes, int]:
    """(bytes, tuser of the last beat) of a frame received with ``compact=False``; asserts the
    ``tkeep`` rules: all ones but on the last beat, contiguous from byte 0 there."""
    keep = f.tkeep
    n = len(keep)
    assert n % width_bytes == 0, f"{what}: {n} byte lanes is not whole beats of {width_bytes}"
    last_start = n - width_bytes
    assert all(keep[:last_start]), f"{what}: a beat before the last has a partial tkeep"
    tail = keep[last_start:]
    kept = sum(tail)
    assert kept > 0 and tail == [1] * kept + [0] * (width_bytes - kept), \
        f"{what}: last beat's tkeep {tail} is not a run from byte 0"
    user = f.tuser[-1] if isinstance(f.tuser, list) else int(f.tuser or 0)
    return bytes(f.tdata[:last_start + kept]), int(user)


class AxisProtocolCheck:
    """A ``ClockedBench`` agent asserting the stream rules on a DUT output ``<prefix>_t*``: once
    ``tvalid`` is high without ``tready``, ``tvalid`` and the payload hold until the transfer."""

    def __init__(self, dut, prefix: str):
        self.name = prefix
        self.tvalid = getattr(dut, f"{prefix}_tvalid")
        self.tready = getattr(dut, f"{prefix}_tready")
        self.payload = [getattr(dut, f"{prefix}_{s}") for s in ("tdata", "tkeep", "tlast", "tuser")
                        if hasattr(dut, f"{prefix}_{s}")]
        self._stalled = None
        self.cycle = 0

    def drive(self) -> None:
        pass

    def sample(self) -> None:
        valid = int(self.tvalid.value)
        if self._stalled is not None:
            assert valid, f"{self.name}: tvalid fell before the transfer (cycle {self.cycle})"
            now = [int(h.value) for h in self.payload]
            assert now == self._stalled, f"{self.name}: payload changed while stalled (cycle {self.cycle})"
        self._stalled = [int(h.value) for h in self.payload] if valid and not int(self.tready.value) else None
        self.cycle += 1


@dataclass
class MacFrame:
    """A frame taken from a DUT output: its bytes, the ``tuser`` of its last beat, its beats and the
    bench cycles of its first and last transfers."""
    data: bytes
    user: int
    beats: int
    first_cycle: int
    last_cycle: int


class FrameSink:
    """Takes frames from a DUT output ``<prefix>_t*`` with cocotbext's ``AxiStreamSink``
    (back-pressure ``backpressure``: the probability that ``tready`` is low in a cycle;
    ``paused`` holds it low) and, as a ``ClockedBench`` agent, hands each one to
    ``on_frame(MacFrame)`` in the sample phase of the bench cycle after its last beat. Without
    ``on_frame`` the frames collect in ``frames``. Checks the stream rules on the way
    (``AxisProtocolCheck``)."""

    def __init__(self, bench, dut, prefix: str, width_bytes: int, backpressure: float = 0.0,
                 rng: random.Random | None = None, on_frame: Callable[[MacFrame], None] | None = None):
        self.bench, self.wb, self.name = bench, width_bytes, prefix
        self.sink = quiet(OneReadSink(axis_bus(dut, prefix), dut.clk, dut.rst))
        self.rng = rng or random.Random(1)
        self._backpressure, self._paused = backpressure, False
        self._apply_pause()
        self.check = AxisProtocolCheck(dut, prefix)
        self.on_frame = on_frame
        self.frames: list[MacFrame] = []
        self.frames_out = 0
        self.beats_out = 0

    @property
    def backpressure(self) -> float:
        return self._backpressure

    @backpressure.setter
    def backpressure(self, probability: float) -> None:
        self._backpressure = probability
        self._apply_pause()

    @property
    def paused(self) -> bool:
        return self._paused

    @paused.setter
    def paused(self, value: bool) -> None:
        self._paused = value
        self._apply_pause()

    def _apply_pause(self) -> None:
        if self._backpressure and not self._paused:
            self.sink.set_pause_generator(random_pause(self._backpressure, self.rng))
        else:
            self.sink.clear_pause_generator()
            self.sink.pause = self._paused

    def drive(self) -> None:
        pass

    def sample(self) -> None:
        self.check.sample()
        sink = self.sink
        while not sink.empty():
            f = sink.recv_nowait(compact=False)
            data, user = frame_of(f, self.wb, self.name)
            frame = MacFrame(data, user, len(f.tkeep) // self.wb, self.bench.cycle_at(f.sim_time_start),
                             self.bench.cycle_at(f.sim_time_end))
            self.frames_out += 1
            self.beats_out += frame.beats
            if self.on_frame is None:
                self.frames.append(frame)
            else:
                self.on_frame(frame)


class FrameWatch:
    """An ``AxiStreamMonitor`` on a DUT input ``<prefix>_t*`` (what a source really delivered,
    after the DUT's back-pressure), polled as a ``ClockedBench`` agent: ``count`` frames
    transferred and ``end_cycles``, the bench cycle of each one's last beat."""

    def __init__(self, bench, dut, prefix: str):
        self.bench = bench
        self.monitor = quiet(OneReadMonitor(axis_bus(dut, prefix), dut.clk, dut.rst))
        self.count = 0
        self.end_cycles: list[int] = []

    def drive(self) -> None:
        pass

    def sample(self) -> None:
        while not self.monitor.empty():
            f = self.monitor.recv_nowait(compact=False)
            self.count += 1
            self.end_cycles.append(self.bench.cycle_at(f.sim_time_end))


class MacSource:
    """Frames into a DUT input ``<prefix>_t*`` with cocotbext-axi: an ``AxiStreamSource`` (an idle
    cycle at random with probability ``idle``; ``send(frame, err)`` puts ``err`` on the last
    beat's ``tuser``, ``mac_frame``) and an ``AxiStreamMonitor`` for what the DUT really took
    (``sent_frames``, ``frame_end_cycles``: the bench cycle of each frame's last beat). A
    ``ClockedBench`` agent: the monitor is polled in the sample phase."""

    def __init__(self, bench, dut, prefix: str, rng: random.Random, width_bytes: int, idle: float = 0.0):
        self.rng, self.wb = rng, width_bytes
        self.source = mac_source(dut, prefix)
        self.watch = FrameWatch(bench, dut, prefix)
        self._idle = 0.0
        self.idle = idle

    @property
    def idle(self) -> float:
        return self._idle

    @idle.setter
    def idle(self, probability: float) -> None:
        self._idle = probability
        if probability:
            self.source.set_pause_generator(random_pause(probability, self.rng))
        else:
            self.source.clear_pause_generator()
            self.source.pause = False

    def send(self, frame: bytes, err: int = 0) -> None:
        self.source.send_nowait(mac_frame(frame, int(err), self.wb, self.rng))

    @property
    def waiting(self) -> int:
        """Frames queued and not started."""
        return self.source.count()

    @property
    def idle_now(self) -> bool:
        """Nothing queued and nothing on the wires."""
        return self.source.idle()

    @property
    def sent_frames(self) -> int:
        return self.watch.count

    @property
    def frame_end_cycles(self) -> list[int]:
        return self.watch.end_cycles

    def drive(self) -> None:
        pass

    def sample(self) -> None:
        self.watch.sample()

# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for StreamFilterDemo (top ``stream_filter_demo``).

The DUT is ``m = s.haltWhen(halt).throwWhen(drop_now).map(p + 1)`` (TB_HALT_FIRST=1)
or ``s.throwWhen(drop_now).haltWhen(halt).map(p + 1)`` (TB_HALT_FIRST=0), with
``drop_now = drop | (drop_odd & s_payload[0])``.

Stimulus: random idle cycles on the source, random backpressure on the sink,
random ``drop``/``drop_odd``/``halt``. The controls act combinationally on
``m_valid``, so they may change only where the stream rules allow: freely when
``m`` was not stalled (valid, not ready) in the previous cycle; after a stall only
to values that keep the stalled beat valid (``halt`` low and the drop condition
false for the held payload). The sink's protocol check and the DUT's SVA both
watch this.

Checks, every cycle (the DUT is combinational, latency 0):
  * ``m_valid``, ``s_ready`` and ``m_payload`` equal the model's values;
  * a beat accepted on ``s`` while the drop condition holds is dropped (no
    transfer on ``m``); any other accepted beat transfers on ``m`` in the same
    cycle as ``payload + 1 mod 2^width``;
  * with ``halt`` high nothing transfers on ``m``; halt-first, nothing on ``s``
    either (throw-first, only beats that are dropped are accepted);
and at the end: the output is exactly the kept input beats, in order, mapped.
"""

from __future__ import annotations

import os
import random

import cocotb

from common.stream_bfm import ClockedBench, CycleProbe, StreamSink, StreamSource, start_clock_and_reset

HALT_FIRST = os.environ.get("TB_HALT_FIRST", "1") == "1"
BEATS = 600


def mapped(payload: int, width: int) -> int:
    """The map: payload + 1, wrapping at width bits."""
    return (payload + 1) & ((1 << width) - 1)


class Controls:
    """Drives drop, drop_odd and halt; holds whatever would withdraw a stalled beat."""

    def __init__(self, dut, rng: random.Random):
        self.dut, self.rng = dut, rng
        self.drop = self.drop_odd = self.halt = 0
        self.stalled_payload: int | None = None  # m's payload if m stalled last cycle
        self.held_back = 0  # proposed changes refused because m was stalled
        self.raised_while_stalled = 0  # legal changes made while m was stalled
        self._apply()

    def _apply(self) -> None:
        self.dut.drop.value = self.drop
        self.dut.drop_odd.value = self.drop_odd
        self.dut.halt.value = self.halt

    def drive(self) -> None:
        if self.rng.random() >= 0.25:
            return
        drop = int(self.rng.random() < 0.15)
        drop_odd = int(self.rng.random() < 0.35)
        halt = int(self.rng.random() < 0.2)
        if self.stalled_payload is not None:
            # m still offers the stalled beat: it must stay valid (s_payload is held, so bit 0 is too).
            lsb = (self.stalled_payload - 1) & 1  # m_payload = s_payload + 1
            if halt or drop or (drop_odd and lsb):
                self.held_back += 1
                return
            if drop_odd and not self.drop_odd:
                self.raised_while_stalled += 1
        self.drop, self.drop_odd, self.halt = drop, drop_odd, halt
        self._apply()

    def sample(self) -> None:
        stalled = int(self.dut.m_valid.value) and not int(self.dut.m_ready.value)
        self.stalled_payload = int(self.dut.m_payload.value) if stalled else None


class Scoreboard:
    """The Python model, checked every cycle in the ReadOnly phase."""

    def __init__(self, dut, width: int):
        self.dut, self.width = dut, width
        self.dropped: list[int] = []
        self.kept: list[int] = []
        self.cycles_halted = self.halted_with_valid = self.dropped_while_halted = 0

    def __call__(self, cycle: int) -> None:
        d = self.dut
        s_valid, s_ready, s_payload = int(d.s_valid.value), int(d.s_ready.value), int(d.s_payload.value)
        m_valid, m_ready, m_payload = int(d.m_valid.value), int(d.m_ready.value), int(d.m_payload.value)
        drop, drop_odd, halt = int(d.drop.value), int(d.drop_odd.value), int(d.halt.value)
        drop_now = drop or (drop_odd and (s_payload & 1))
        where = f"cycle {cycle}: s v{s_valid} r{s_ready} p{s_payload:#x}, m v{m_valid} r{m_ready} p{m_payload:#x}, " \
                f"drop {drop} drop_odd {drop_odd} halt {halt}"

        exp_m_valid = int(s_valid and not halt and not drop_now)
        if HALT_FIRST:
            exp_s_ready = int(not halt and (m_ready or drop_now))
        else:
            exp_s_ready = int(drop_now or (m_ready and not halt))
        assert m_valid == exp_m_valid, f"m_valid != s_valid & !halt & !drop_now; {where}"
        assert s_ready == exp_s_ready, f"s_ready wrong for this filter order; {where}"
        assert m_payload == mapped(s_payload, self.width), f"m_payload != s_payload + 1; {where}"

        s_fire, m_fire = s_valid and s_ready, m_valid and m_ready
        if halt:
            self.cycles_halted += 1
            self.halted_with_valid += s_valid
            assert not m_fire, f"transfer on m while halted; {where}"
            if HALT_FIRST:
                assert not s_fire, f"transfer on s while halted (halt first); {where}"
        if s_fire and drop_now:
            assert not m_fire, f"a dropped beat reached m; {where}"
            self.dropped.append(s_payload)
            self.dropped_while_halted += halt
        elif s_fire:
            assert m_fire, f"a kept beat was accepted on s without a transfer on m; {where}"
            self.kept.append(s_payload)
        else:
            assert not m_fire, f"transfer on m without one on s; {where}"


@cocotb.test(timeout_time=5, timeout_unit="ms")
@cocotb.parametrize(idle=[0.0, 0.5], backpressure=[0.0, 0.5])
async def filter_halt_map_match_model(dut, idle, backpressure):
    width = len(dut.s_payload)
    rng = random.Random(width * 1000 + int(idle * 10) * 10 + int(backpressure * 10) + HALT_FIRST)
    bench = ClockedBench(dut.clk)
    source = bench.add(StreamSource(dut, "s", ("payload",), random.Random(rng.random()), idle))
    sink = bench.add(StreamSink(dut, "m", ("payload",), random.Random(rng.random()), backpressure))
    controls = bench.add(Controls(dut, random.Random(rng.random())))
    board = Scoreboard(dut, width)
    bench.add(CycleProbe(board))
    await start_clock_and_reset(dut)

    sent = [rng.getrandbits(width) for _ in range(BEATS)]
    source.send_all({"payload": p} for p in sent)
    await bench.run_until(lambda: source.idle_now, timeout=100 * BEATS, what="the source sending every beat")
    await bench.run(5)

    accepted = [b["payload"] for _, b in source.sent]
    assert accepted == sent, "the source's record differs from what was queued"
    # Every input beat is either dropped or kept, in order.
    assert len(board.dropped) + len(board.kept) == len(sent)
    assert [b["payload"] for b in sink.beats] == [mapped(p, width) for p in board.kept], \
        "output is not the kept beats, in order, mapped"
    # The drop decisions themselves are checked per cycle; make sure each path was exercised.
    assert board.dropped and board.kept, f"dropped {len(board.dropped)}, kept {len(board.kept)}"
    assert board.halted_with_valid > 0, "halt never met a valid beat"
    if backpressure:
        assert controls.held_back > 0, "no control change was ever refused during a stall"
    dut._log.info(f"idle {idle} backpressure {backpressure}: {len(sent)} beats, {len(board.dropped)} dropped "
                  f"({board.dropped_while_halted} while halted), {len(board.kept)} kept, "
                  f"{board.cycles_halted} halted cycles ({board.halted_with_valid} with s_valid), "
                  f"{controls.held_back} changes held back during stalls, "
                  f"{controls.raised_while_stalled} drop_odd raised during stalls")

# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for CreditSender + CreditReceiver (top ``credit_link``), loop closed here.

The testbench plays everything between the two blocks: a link that delays
data beats and returned credits by random amounts, and the receive buffer,
popped at random rates. Configuration comes from the environment (TB_CAPACITY,
TB_INITIAL, TB_MAX_RETURN, TB_MAX_FREE).

Checked every cycle, against counters kept here:
* never sent without credit: a beat never arrives into a full buffer, and the
  sender never fires with zero credits;
* no credit lost or invented: sender credits + beats on the link + buffer
  occupancy + credits owed by the receiver + credits on the link == capacity;
* the receiver returns min(owed, max per cycle) each cycle and its occupancy
  matches the buffer;
and at the end, after draining, the sender holds every credit again and the
beats were delivered in order, unchanged.
"""

from __future__ import annotations

import os
import random
from collections import deque

import cocotb

from common.stream_bfm import ClockedBench, StreamSink, StreamSource, start_clock_and_reset

CAPACITY = int(os.environ.get("TB_CAPACITY", "8"))
INITIAL = int(os.environ.get("TB_INITIAL", str(CAPACITY)))
MAX_RETURN = int(os.environ.get("TB_MAX_RETURN", "2"))
MAX_FREE = int(os.environ.get("TB_MAX_FREE", "2"))


class LinkAndBuffer:
    """Delays beats sender -> receiver and credits receiver -> sender; models the buffer."""

    def __init__(self, dut, link: StreamSink, rng: random.Random, max_delay: int, pop_rate: float):
        self.dut, self.link, self.rng = dut, link, rng
        self.max_delay, self.pop_rate = max_delay, pop_rate
        self.cycle = 0
        self.beats_on_link: deque[tuple[int, int]] = deque()  # (arrival cycle, payload)
        self.credits_on_link: deque[tuple[int, int]] = deque()  # (arrival cycle, count)
        self.credits_arrived = 0  # delivered to the link end, not yet given to the sender
        self.buffer: deque[int] = deque()
        self.consumed: list[int] = []
        self.seen_link_beats = 0
        # Totals of events in earlier cycles, for the conservation check.
        self.fired = self.received = self.returned = self.delivered = 0
        self.received_now = self.freed_now = self.delivered_now = 0
        self.max_owed = 0
        dut.rx_received.value = 0
        dut.rx_freed.value = 0
        dut.tx_credits_returned.value = 0

    def drive(self) -> None:
        self.occupancy_before = len(self.buffer)
        self.received_now = 0
        if self.beats_on_link and self.beats_on_link[0][0] <= self.cycle:
            _, payload = self.beats_on_link.popleft()
            assert len(self.buffer) < CAPACITY, f"cycle {self.cycle}: beat arrived into a full buffer (sent without credit)"
            self.received_now = 1
            self.buffer.append(payload)
        self.dut.rx_received.value = self.received_now
        # Pop only what was there at the start of the cycle (a registered FIFO).
        self.freed_now = 0
        if self.rng.random() < self.pop_rate:
            self.freed_now = self.rng.randint(0, min(MAX_FREE, self.occupancy_before))
        for _ in range(self.freed_now):
            self.consumed.append(self.buffer.popleft())
        self.dut.rx_freed.value = self.freed_now
        while self.credits_on_link and self.credits_on_link[0][0] <= self.cycle:
            self.credits_arrived += self.credits_on_link.popleft()[1]
        self.delivered_now = min(MAX_RETURN, self.credits_arrived)
        self.credits_arrived -= self.delivered_now
        self.dut.tx_credits_returned.value = self.delivered_now

    def sample(self) -> None:
        d = self.dut
        credits, occupancy, owed = int(d.tx_credits.value), int(d.rx_occupancy.value), int(d.rx_pending.value)
        returning = int(d.rx_credits_returned.value)
        self.max_owed = max(self.max_owed, owed)
        c = self.cycle
        assert occupancy == self.occupancy_before, f"cycle {c}: rx occupancy {occupancy}, buffer {self.occupancy_before}"
        assert returning == min(owed, MAX_RETURN), f"cycle {c}: returns {returning} with {owed} owed"
        on_link = (self.fired - self.received) + (self.returned - self.delivered)
        total = credits + on_link + occupancy + owed
        assert total == CAPACITY, (f"cycle {c}: credits not conserved: sender {credits} + on link {on_link} + "
                                   f"buffer {occupancy} + owed {owed} = {total} != {CAPACITY}")
        fire = int(d.m_valid.value) and int(d.m_ready.value)
        if fire:
            assert credits > 0, f"cycle {c}: sender fired with no credit"
        # Events of this cycle count from the next one on.
        if len(self.link.beats) > self.seen_link_beats:  # the link sink took a beat this cycle
            self.seen_link_beats += 1
            last_arrival = self.beats_on_link[-1][0] if self.beats_on_link else 0
            arrival = max(last_arrival + 1, c + self.rng.randint(1, self.max_delay))
            self.beats_on_link.append((arrival, self.link.beats[-1]["payload"]))
        self.fired += fire
        self.received += self.received_now
        if returning:
            self.credits_on_link.append((c + self.rng.randint(1, self.max_delay), returning))
        self.returned += returning
        self.delivered += self.delivered_now
        self.cycle += 1


@cocotb.test(timeout_time=5, timeout_unit="ms")
@cocotb.parametrize(idle=[0.0, 0.5], backpressure=[0.0, 0.5])
async def credits_are_conserved(dut, idle, backpressure):
    rng = random.Random(int(idle * 10) * 10 + int(backpressure * 10) + CAPACITY)
    width = len(dut.s_payload)
    bench = ClockedBench(dut.clk)
    source = bench.add(StreamSource(dut, "s", ("payload",), random.Random(rng.random()), idle))
    link = bench.add(StreamSink(dut, "m", ("payload",), random.Random(rng.random()), backpressure))
    model = bench.add(LinkAndBuffer(dut, link, random.Random(rng.random()), max_delay=6, pop_rate=0.6))
    await start_clock_and_reset(dut)

    # A small buffer makes every beat wait for a credit round trip: fewer beats keep the run short.
    words = [rng.getrandbits(width) for _ in range(min(1500, 300 * CAPACITY))]
    for w in words:
        source.send({"payload": w})
    await bench.run_until(lambda: len(model.consumed) >= len(words), timeout=40 * len(words),
                          what="delivering every beat")
    await bench.run_until(lambda: int(dut.tx_credits.value) == CAPACITY, timeout=1000,
                          what="returning every credit after the traffic")
    await bench.run(5)
    assert model.consumed == words, "beats lost, duplicated, reordered or changed on the way"
    assert int(dut.tx_credits.value) == CAPACITY and int(dut.rx_pending.value) == 0
    assert int(dut.rx_occupancy.value) == 0
    dut._log.info("most credits owed at once: %d", model.max_owed)

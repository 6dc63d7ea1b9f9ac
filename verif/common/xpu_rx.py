# SPDX-License-Identifier: Apache-2.0
"""The XPU side of the SUE receive interface of spec Table 2 (``rx_*``, encodings of
sue-rtl/DESIGN-RX.md).

* ``RxCredits``: the XPU's end of the ``rx_credit`` loop (free buffer entries it advertises,
  credits SUE holds), shared by both XPU models below.
* ``XpuRx``: receives and checks every beat against a model's exact expectation (the
  ``sue_rx_deliver`` and ``sue_rx`` benches).

``common.sue_endpoint_bench.XpuRxSink`` is the collector for scoreboards (the endpoint pair).
"""

from __future__ import annotations

import random

from common.rx_deliver_model import expected_beats

CMD, DATA = 0, 1  # credit kinds on rx_credit


class RxCredits:
    """Credits of the receive interface, as the XPU keeps them.

    The XPU has ``cmd`` command and ``data`` data buffer entries per VC; ``free`` holds those it
    has not advertised yet, ``given`` the credits SUE holds. ``message()`` is this cycle's
    ``rx_credit`` value ({valid, kind, vc, count-1}, one message of 1..4 credits, with
    probability ``rate``); ``take`` asserts that SUE had a credit for what it sends;
    ``release`` returns a received op's entries to ``free``.

    ``chunks``: ``"random"`` advertises a random VC and kind, 1..4 credits (covers every
    message); ``"greedy"`` the VC and kind with the most free entries, as many as fit (up to 4).
    One message per cycle carries at most 4 credits and an op of one data beat needs two (a
    command and a data credit), so an XPU that advertises each entry as it frees caps delivery
    near half an op per cycle; a throughput bench must use ``"greedy"``. VCs in ``stalled`` get
    no credits.
    """

    def __init__(self, rng: random.Random, vcs: int, cmd: int, data: int, rate: float = 1.0, chunks: str = "random"):
        if chunks not in ("random", "greedy"):
            raise ValueError(f"chunks must be 'random' or 'greedy', got {chunks!r}")
        self.rng, self.vcs, self.rate, self.chunks = rng, vcs, rate, chunks
        self.free = {(vc, k): (cmd if k == CMD else data) for vc in range(vcs) for k in (CMD, DATA)}
        self.given = {key: 0 for key in self.free}
        self.stalled: set[int] = set()

    def message(self) -> int:
        if self.rng.random() >= self.rate:
            return 0
        cands = [key for key, n in self.free.items() if n and key[0] not in self.stalled]
        if not cands:
            return 0
        if self.chunks == "greedy":
            most = max(self.free[key] for key in cands)
            vc, kind = self.rng.choice([key for key in cands if self.free[key] == most])
            n = min(4, most)
        else:
            vc, kind = self.rng.choice(cands)
            n = min(4, self.free[(vc, kind)], self.rng.randint(1, 4))
        self.free[(vc, kind)] -= n
        self.given[(vc, kind)] += n
        return 1 << 5 | kind << 4 | vc << 2 | (n - 1)

    def take(self, vc: int, kind: int, who: str = "") -> None:
        what = "an op" if kind == CMD else "a data beat"
        assert self.given[(vc, kind)] >= 1, f"{who}{what} on VC {vc} without a {('command', 'data')[kind]} credit"
        self.given[(vc, kind)] -= 1

    def release(self, vc: int, cmd: int, data: int) -> None:
        self.free[(vc, CMD)] += cmd
        self.free[(vc, DATA)] += data

    def reclaim(self) -> None:
        """After ``rx_reset_in``: SUE dropped the credits it held; they are free again."""
        for key, n in self.given.items():
            self.free[key] += n
            self.given[key] = 0


class XpuRx:
    """The XPU side of Table 2: returns credits at a random rate, receives and checks ops.

    ``model.expect[vc]``: a deque of ``(xpuid, (control, data), pdu_id)``, the ops SUE must
    deliver on that VC in order; ``model.op_done(vc, pdu_id)`` is called after an op's last beat.
    The XPU starts with ``init_cmd``/``init_data`` free buffer entries per VC (``credits``, an
    ``RxCredits`` advertising 1..4 at a time with probability ``rate`` per cycle); each op it
    receives frees its entries again. Asserts: every beat matches (rx_valid, rx_cycle, xpuid,
    control, data), an op's beats are consecutive, and SUE never sends beyond the credits it holds.
    """

    def __init__(self, dut, rng, bpb, model, *, vcs: int, init_cmd: int, init_data: int, rate: float):
        self.dut, self.bpb, self.m = dut, bpb, model
        self.credits = RxCredits(rng, vcs, init_cmd, init_data, rate)
        self.cur = None  # (vc, src, expected beats, index)
        self.beats_out = 0
        self.first_out = None
        self.last_out = None
        self.cycle = 0
        dut.rx_credit.value = 0
        dut.rx_reset_in.value = 0

    def drive(self):
        self.dut.rx_credit.value = self.credits.message()

    def sample(self):
        d = self.dut
        valid = int(d.rx_valid.value)
        self.cycle += 1
        if valid == 0:
            assert self.cur is None, f"idle cycle inside an op (rx_cycle must be consecutive): {self.cur}"
            return
        assert valid in (1, 2), f"rx_valid = {valid}"
        vc, cyc, src = int(d.rx_vc.value), int(d.rx_cycle.value), int(d.rx_xpuid.value)
        ctl = int(d.rx_control.value).to_bytes(18, "little")
        data = int(d.rx_data.value).to_bytes(self.bpb, "little")
        if self.first_out is None:
            self.first_out = self.cycle
        self.last_out = self.cycle
        self.beats_out += 1
        if self.cur is None:
            assert cyc == 0, f"op starts with rx_cycle {cyc}"
            q = self.m.expect[vc]
            assert q, f"unexpected op on VC {vc}: control {ctl.hex()}"
            src_exp, op, pdu = q.popleft()
            self.credits.take(vc, CMD)
            self.cur = [vc, src_exp, expected_beats(op, self.bpb), 0, pdu, op]
        vc0, src_exp, beats, i, pdu, op = self.cur
        assert vc == vc0, f"rx_vc changed inside an op ({vc0} -> {vc})"
        ev, ec, ectl, edata = beats[i]
        assert (valid, cyc, src, ctl, data) == (ev, ec, src_exp, ectl, edata), (
            f"VC {vc} op beat {i}: got valid {valid} cycle {cyc} xpuid {src} control {ctl.hex()} data {data.hex()}; "
            f"expected valid {ev} cycle {ec} xpuid {src_exp} control {ectl.hex()} data {edata.hex()}")
        if valid == 2:
            self.credits.take(vc, DATA)
        self.cur[3] += 1
        if self.cur[3] == len(beats):
            self.cur = None
            self.credits.release(vc, 1, len(beats) if op[1] else 0)
            self.m.op_done(vc, pdu)

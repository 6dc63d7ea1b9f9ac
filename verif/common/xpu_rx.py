"""A Python XPU on the SUE receive interface of spec Table 2 (``rx_*``, encodings of
sue-rtl/DESIGN-RX.md): credit returns and per-beat checks against expected ops. Used by the
``sue_rx_deliver`` and ``sue_rx`` benches."""

from __future__ import annotations

from common.rx_deliver_model import expected_beats


class XpuRx:
    """The XPU side of Table 2: returns credits at a random rate, receives and checks ops.

    ``model.expect[vc]``: a deque of ``(xpuid, (control, data), pdu_id)``, the ops SUE must
    deliver on that VC in order; ``model.op_done(vc, pdu_id)`` is called after an op's last beat.
    The XPU starts with ``init_cmd``/``init_data`` free buffer entries per VC and returns them as
    credits (1..4 at a time, with probability ``rate`` per cycle); each op it receives frees its
    entries again. Asserts: every beat matches (rx_valid, rx_cycle, xpuid, control, data), an op's
    beats are consecutive, and SUE never sends beyond the credits it holds. VCs in ``stalled``
    get no credits.
    """

    def __init__(self, dut, rng, bpb, model, *, vcs: int, init_cmd: int, init_data: int, rate: float):
        self.dut, self.rng, self.bpb, self.m = dut, rng, bpb, model
        self.vcs, self.init_cmd, self.init_data = vcs, init_cmd, init_data
        self.pending = {(v, k): (init_cmd if k == 0 else init_data) for v in range(4) for k in range(2)}
        self.held = {(v, k): 0 for v in range(4) for k in range(2)}  # credits SUE has (XPU's view)
        self.stalled = set()
        self.rate = rate
        self.cur = None  # (vc, src, expected beats, index)
        self.beats_out = 0
        self.first_out = None
        self.last_out = None
        self.cycle = 0
        dut.rx_credit.value = 0
        dut.rx_reset_in.value = 0

    def drive(self):
        d, r = self.dut, self.rng
        d.rx_credit.value = 0
        if r.random() < self.rate:
            cands = [key for key, n in self.pending.items() if n and key[0] not in self.stalled and key[0] < self.vcs]
            if cands:
                vc, kind = r.choice(cands)
                n = min(4, self.pending[(vc, kind)], r.randint(1, 4))
                self.pending[(vc, kind)] -= n
                self.held[(vc, kind)] += n
                d.rx_credit.value = 1 << 5 | kind << 4 | vc << 2 | (n - 1)

    def sample(self):
        d = self.dut
        valid = int(d.rx_valid.value)
        self.cycle += 1
        if valid == 0:
            assert self.cur is None, f"idle cycle inside an op (rx_cycle must be consecutive): {self.cur}"
            return
        assert valid in (1, 2), f"rx_valid = {valid}"
        vc, cyc, src = int(d.rx_vc.value), int(d.rx_cycle.value), int(d.xpuid.value)
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
            assert self.held[(vc, 0)] >= 1, f"op on VC {vc} without a command credit"
            self.held[(vc, 0)] -= 1
            self.cur = [vc, src_exp, expected_beats(op, self.bpb), 0, pdu, op]
        vc0, src_exp, beats, i, pdu, op = self.cur
        assert vc == vc0, f"rx_vc changed inside an op ({vc0} -> {vc})"
        ev, ec, ectl, edata = beats[i]
        assert (valid, cyc, src, ctl, data) == (ev, ec, src_exp, ectl, edata), (
            f"VC {vc} op beat {i}: got valid {valid} cycle {cyc} xpuid {src} control {ctl.hex()} data {data.hex()}; "
            f"expected valid {ev} cycle {ec} xpuid {src_exp} control {ectl.hex()} data {edata.hex()}")
        if valid == 2:
            assert self.held[(vc, 1)] >= 1, f"data beat on VC {vc} without a data credit"
            self.held[(vc, 1)] -= 1
        self.cur[3] += 1
        if self.cur[3] == len(beats):
            self.cur = None
            self.pending[(vc, 0)] += 1
            self.pending[(vc, 1)] += len(beats) if op[1] else 0
            self.m.op_done(vc, pdu)

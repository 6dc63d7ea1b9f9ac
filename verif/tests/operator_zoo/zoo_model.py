# SPDX-License-Identifier: Apache-2.0
"""Plain-integer model of OperatorZoo (hdl-dsl/.../demo/OperatorZoo.java).

Every output is computed with Python's unbounded integers and then reduced to
its width with an explicit mask; signed inputs are converted from their bit
patterns with ``signed()``. Nothing here is derived from the generator: the
derived constants (shift amounts, slice bounds, ...) are recomputed from the
formulas in OperatorZoo's Javadoc, and the testbench checks they agree with the
parameters recorded in the report.
"""

from __future__ import annotations

from dataclasses import dataclass

# ZooOp codes (binary encoding, declaration order).
PASS_A, PASS_B, ADD, XOR, NOT_A = range(5)


def mask(width: int) -> int:
    return (1 << width) - 1


def signed(bits: int, width: int) -> int:
    """Two's-complement value of a *width*-bit pattern."""
    bits &= mask(width)
    return bits - (1 << width) if bits >> (width - 1) else bits


def log2up(n: int) -> int:
    return max(1, (n - 1).bit_length())


@dataclass(frozen=True)
class ZooParams:
    width: int

    @property
    def k1(self) -> int:
        return min(3, self.width - 1)

    @property
    def k2(self) -> int:
        return self.width - 1

    @property
    def slice_hi(self) -> int:
        return 2 * self.width // 3

    @property
    def slice_lo(self) -> int:
        return self.width // 3

    @property
    def trunc_w(self) -> int:
        return max(1, self.width // 2)

    @property
    def ext_w(self) -> int:
        return self.width + 5

    @property
    def bit_pos(self) -> int:
        return self.width // 2

    @property
    def pattern(self) -> int:
        return sum(1 << i for i in range(0, self.width, 2))

    @property
    def amt_width(self) -> int:
        return log2up(self.width) + 1

    @property
    def bit_idx_width(self) -> int:
        return log2up(self.width)

    def report_params(self) -> dict[str, int]:
        """The derived constants as OperatorZoo records them with param()."""
        return {
            "width": self.width, "k1": self.k1, "k2": self.k2, "sliceHi": self.slice_hi,
            "sliceLo": self.slice_lo, "truncW": self.trunc_w, "extW": self.ext_w, "bitPos": self.bit_pos,
        }


def model(p: ZooParams, i: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Expected outputs as {name: (unsigned bit pattern, width)} for inputs *i* (bit patterns)."""
    w = p.width
    m = mask(w)
    a, b, x = i["a"], i["b"], i["x"]
    sa_bits, sb_bits = i["sa"], i["sb"]
    sa, sb = signed(sa_bits, w), signed(sb_bits, w)
    c0, c1, c2 = i["c0"], i["c1"], i["c2"]
    amt, idx = i["amt"], i["bit_idx"]
    sel, nsel = i["sel"], i["nsel"]
    pat = p.pattern
    hi, lo = p.slice_hi, p.slice_lo
    sum_u = (a + b) & m  # wrapped W-bit results reused by several outputs
    sum_s = signed(sa + sb, w)
    out: dict[str, tuple[int, int]] = {}

    def put(name: str, value: int, width: int) -> None:
        assert name not in out, name
        out[name] = (value & mask(width), width)

    def flag(name: str, cond: bool) -> None:
        put(name, int(bool(cond)), 1)

    def bits_of(v: int, h: int, l: int) -> int:  # v[h:l]
        return (v >> l) & mask(h - l + 1)

    # UInt arithmetic
    put("u_add", a + b, w)
    put("u_sub", a - b, w)
    put("u_add_expand", a + b, w + 1)
    put("u_mul", a * b, 2 * w)
    put("u_add_lit", a + 1, w)
    put("u_sub_lit", a - 1, w)
    put("u_add_ones", a + m, w)
    put("u_xor_pat", a ^ pat, w)
    # SInt arithmetic
    put("s_add", sa + sb, w)
    put("s_sub", sa - sb, w)
    put("s_add_expand", sa + sb, w + 1)
    put("s_mul", sa * sb, 2 * w)
    put("s_neg", -sa, w)
    put("s_add_lit", sa - 1, w)
    put("s_sub_lit", sa + 1, w)
    # comparisons
    flag("u_lt", a < b)
    flag("u_le", a <= b)
    flag("u_gt", a > b)
    flag("u_ge", a >= b)
    flag("u_eq", a == b)
    flag("u_ne", a != b)
    flag("s_lt", sa < sb)
    flag("s_le", sa <= sb)
    flag("s_gt", sa > sb)
    flag("s_ge", sa >= sb)
    flag("s_eq", sa == sb)
    flag("s_ne", sa != sb)
    le_gt_lit = 0 if w == 1 else 1
    flag("u_lt_lit", a < 1)
    flag("u_le_lit", a <= le_gt_lit)
    flag("u_gt_lit", a > le_gt_lit)
    flag("u_ge_lit", a >= 1)
    flag("u_lt_msb", a < (1 << (w - 1)))
    flag("u_eq_lit", a == 0)
    flag("u_ne_lit", a != 0)
    flag("s_lt_lit", sa < -1)
    flag("s_ge_lit", sa >= 0)
    flag("s_eq_lit", sa == -1)
    flag("s_lt_expr", sum_s < signed(sb - sa, w))
    flag("s_mixed_lt", a < sa)
    near = a ^ (b >> (w // 2))
    flag("lut_gt", a > b)
    flag("lut_lt", a < b)
    flag("lut_gt_near", a > near)
    flag("lut_lt_near", a < near)
    flag("lut_gt_narrow", a > (b & mask(max(1, w // 2))))
    put("oh_lowest_gates", a & -a, w)
    low = a & -a
    put("oh_above_gates", 0 if low == 0 else ~(low | (low - 1)), w)
    put("lut_add", a + b, w)
    put("lut_add_narrow", a + (b & mask(max(1, w // 2))), w)
    put("lut_add_carry", a + (b & mask(max(1, w // 2))) + c0, w)
    put("lut_add_one", a + b + 1, w)
    flag("b_eq", c0 == c1)
    flag("b_ne", c0 != c1)
    flag("e_is_add", sel == ADD)
    flag("e_is_not_xor", sel != XOR)
    # bitwise
    put("u_and", a & b, w)
    put("u_or", a | b, w)
    put("u_xor", a ^ b, w)
    put("u_not", ~a, w)
    put("s_and", sa_bits & sb_bits, w)
    put("s_or", sa_bits | sb_bits, w)
    put("s_xor", sa_bits ^ sb_bits, w)
    put("s_not", ~sa_bits, w)
    put("x_and", x & b, w)
    put("x_or", x | b, w)
    put("x_xor", x ^ b, w)
    put("x_not", ~x, w)
    flag("b_and", c0 and c1)
    flag("b_or", c0 or c1)
    flag("b_xor", c0 != c1)
    flag("b_not", not c0)
    flag("b_and_not", c0 and not c1)
    # reductions
    flag("red_and", a == m)
    flag("red_or", a != 0)
    flag("red_xor", bin(a).count("1") % 2)
    flag("red_xor_expr", bin(a ^ b).count("1") % 2)
    flag("red_and_s", sa_bits == m)
    flag("red_or_x", x != 0)
    # static shifts (Python's >> on negative ints is arithmetic)
    put("shc_u_shl_k1", a << p.k1, w)
    put("shc_u_shr_k1", a >> p.k1, w)
    put("shc_u_shl_k2", a << p.k2, w)
    put("shc_s_shl_k1", sa_bits << p.k1, w)
    put("shc_s_shr_k1", sa >> p.k1, w)
    put("shc_s_shr_k2", sa >> p.k2, w)
    put("shc_x_shr_k1", x >> p.k1, w)
    # dynamic shifts: amounts >= W shift everything out (sign fill for SInt shr)
    put("shd_u_shl", a << amt, w)
    put("shd_u_shr", a >> amt, w)
    put("shd_s_shl", sa_bits << amt, w)
    put("shd_s_shr", sa >> amt, w)
    put("shd_x_shl", x << amt, w)
    put("shd_s_shr_expr", sum_s >> amt, w)
    put("shd_u_shr_expr", sum_u >> amt, w)
    # slices and bit selects
    put("sl_u", bits_of(a, hi, lo), hi - lo + 1)
    put("sl_s", bits_of(sa_bits, hi, lo), hi - lo + 1)
    put("sl_expr", bits_of(sum_u, hi, lo), hi - lo + 1)
    put("sl_pat", bits_of(pat, hi, lo), hi - lo + 1)
    put("sl_low", a, p.trunc_w)
    put("sl_high", a >> (w - p.trunc_w), p.trunc_w)
    put("bit_static", a >> p.bit_pos, 1)
    put("bit_msb", a >> (w - 1), 1)
    put("bit_lsb", a, 1)
    put("bit_msb_expr", sum_u >> (w - 1), 1)
    put("bit_s_msb", sa_bits >> (w - 1), 1)
    # Out-of-range dynamic indices read 0 (defined by the emitter for 1-bit values and
    # literals; the testbench keeps indices in range for other widths, see tb).
    put("bit_dyn", a >> idx if idx < w else 0, 1)
    put("bit_dyn_expr", (a ^ b) >> idx if idx < w else 0, 1)
    put("bit_dyn_x", x >> idx if idx < w else 0, 1)
    put("bit_dyn_pat", pat >> idx if idx < w else 0, 1)
    # concatenation (first argument most significant) and repetition
    put("cat_three", (a << (w + 1)) | (c0 << w) | sb_bits, 2 * w + 1)
    put("cat_expr", (sum_u << 3) | 5, w + 3)
    put("rep_bool", 0b111 if c0 else 0, 3)
    put("rep_vec", a | (a << w) | (a << 2 * w), 3 * w)
    put("rep_expr", (a ^ b) | ((a ^ b) << w), 2 * w)
    # resize and conversions
    put("rs_u_zext", a, p.ext_w)
    put("rs_u_trunc", a, p.trunc_w)
    put("rs_s_sext", sa, p.ext_w)
    put("rs_s_trunc", sa_bits, p.trunc_w)
    put("rs_x_zext", x, p.ext_w)
    put("rs_s_sext_expr", sum_s, p.ext_w)
    put("rs_u_to_s", a, w + 1)
    flag("rs_u_as_s_lt", signed(a, w) < signed(b, w))
    flag("rs_s_as_u_lt", sa_bits < sb_bits)
    put("rs_x_as_u_add", x + b, w)
    put("rs_x_as_s_neg", -signed(x, w), w)
    put("rs_b_as_u", c0, 1)
    put("rs_x_low_bool", x, 1)
    # mux
    put("mux_plain", a if c0 else b, w)
    put("mux_nested", (a if c1 else b) if c0 else a + b, w)
    put("mux_s", sa if c2 else -sb, w)
    # Vec run-time index: out-of-range selects element 0
    five = [a, b, a + b, a ^ b, sa_bits]
    put("vec_five", five[i["vidx5"]] if i["vidx5"] < 5 else five[0], w)
    put("vec_four", [a, b, ~a, ~b][i["vidx4"]], w)
    three = [sa, sb, -sa]
    put("vec_three_s", three[i["vidx4"]] if i["vidx4"] < 3 else three[0], w)
    # switchOn
    put("sw_enum", {PASS_A: a, PASS_B: b, ADD: a + b, XOR: a ^ b, NOT_A: ~a}.get(sel, pat), w)
    put("sw_int", a if nsel == 0 else b if nsel in (1, 2) else a - b if nsel == 5 else ~b, w)
    snsel = signed(nsel, 3)
    put("sw_signed", a if snsel == -1 else b if snsel == 2 else a + b if snsel == -4 else 0, w)
    put("sw_no_default", a + b if sel == ADD else a ^ b, w)
    put("sw_enum_out", ADD if c0 else sel if c1 else NOT_A, 3)
    # when / elseWhen / otherwise
    put("wh_priority", a if c0 else b if c1 else a ^ b if c2 else a + b, w)
    put("wh_nested", (a if c1 else b) if c0 else (a & b if nsel == 3 else a | b), w)
    # last assignment wins; reads see the final value
    law = a
    if c0:
        law = b
    if c1:
        law = a ^ b
        if c2:
            law = a & b
    put("law_chain", law, w)
    flag("law_flag", c0 and not c1)
    fin = a
    if c0:
        fin = b
    if c2:
        fin = a ^ b
    put("law_early", fin + 1, w)
    put("law_late", fin - 1, w)
    # sub-components (Alu: ADD, SUB, XOR, CLEAR)
    put("sub_lit", a - pat, w)
    bb = ~b if c2 else b
    put("sub_cond", a ^ bb if c0 else 0 if c1 else a + bb, w)
    return out

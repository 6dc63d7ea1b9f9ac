// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.demo;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Component;
import dev.sue.hdl.EnumType;
import dev.sue.hdl.HwEnum;
import dev.sue.hdl.UInt;

/** Combinational ALU: {@code result = op(a, b)}; zero latency. */
public final class Alu extends Component {
    public static final EnumType<AluOp> OP = EnumType.of(AluOp.class);

    public final HwEnum<AluOp> op = in(enumOf(OP));
    public final UInt a;
    public final UInt b;
    public final UInt result;

    public Alu(int width) {
        param("width", width);
        latency(0);
        a = in(uint(width));
        b = in(uint(width));
        result = out(uint(width));
        switchOn(op, s -> s
                .is(AluOp.ADD, () -> result.set(a.add(b)))
                .is(AluOp.SUB, () -> result.set(a.sub(b)))
                .is(AluOp.XOR, () -> result.set(a.xor(b)))
                .is(AluOp.CLEAR, () -> result.set(0)));
    }
}

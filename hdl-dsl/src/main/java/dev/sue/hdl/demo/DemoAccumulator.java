// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.demo;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.HwEnum;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;

/**
 * A small design that exercises most of the DSL (sub-component, enum, switch, registers
 * with reset, a RAM with a synchronous read port, reductions, assertions); the end-to-end
 * test drives it with random stimulus against a Python model.
 *
 * <p>Each cycle with {@code in_valid}, the accumulator becomes {@code op(acc, operand)}
 * (wrapping), the op count increments, and the new value is written to the history RAM at
 * {@code count mod depth}. {@code hist_data} returns, one cycle later, the entry at the
 * {@code hist_addr} presented with {@code hist_en}. {@code acc_parity} is the XOR of the
 * accumulator's bits.
 */
public final class DemoAccumulator extends Component {
    public final Bool inValid = in(bool());
    public final HwEnum<AluOp> inOp = in(enumOf(Alu.OP));
    public final UInt operand;
    public final UInt acc;
    public final Bool accParity = out(bool());
    public final UInt count = out(uint(16));
    public final Bool histEn = in(bool());
    public final UInt histAddr;
    public final Bits histData;

    private final Alu alu;
    private final Mem<Bits> history;

    public DemoAccumulator(int width, int historyDepth) {
        param("width", width);
        param("historyDepth", historyDepth);
        require(width >= 1 && width <= 64, "width must be 1..64, got " + width);
        require(historyDepth >= 2 && isPowerOfTwo(historyDepth),
                "historyDepth must be a power of two >= 2, got " + historyDepth);
        operand = in(uint(width));
        acc = out(uint(width));
        histAddr = in(uint(log2Up(historyDepth)));
        histData = out(bits(width));

        UInt accReg = reg("acc_reg", uint(width)).init(0);
        UInt countReg = reg("count_reg", uint(16)).init(0);

        alu = instance(() -> new Alu(width));
        alu.op.set(inOp);
        alu.a.set(accReg);
        alu.b.set(operand);

        history = Mem.of(historyDepth, width);
        when(inValid, () -> {
            accReg.set(alu.result);
            countReg.set(countReg.add(1));
        });
        history.write(countReg.resize(log2Up(historyDepth)), alu.result.asBits(), inValid);
        histData.set(history.readSync(histAddr, histEn));

        acc.set(accReg);
        accParity.set(accReg.xorR());
        count.set(countReg);
        assertThat(inValid.not().or(countReg.ne(0xFFFF)), "op counter must not wrap in a test run");
    }
}

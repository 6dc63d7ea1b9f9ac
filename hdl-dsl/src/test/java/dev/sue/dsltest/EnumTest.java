// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.dsltest.Sv.assertLines;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.EnumType;
import dev.sue.hdl.EnumType.Encoding;
import dev.sue.hdl.HwEnum;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HwEnum with every encoding; localparams; comparisons; enum registers. */
class EnumTest {
    enum Phase { IDLE, LOAD, RUN, DONE, FLUSH }

    enum Opcode implements EnumType.Encoded {
        NOP(0x0), READ(0x5), WRITE(0xA);

        private final long code;

        Opcode(long code) {
            this.code = code;
        }

        @Override
        public long code() {
            return code;
        }
    }

    static final EnumType<Phase> BINARY = EnumType.of(Phase.class);
    static final EnumType<Phase> ONE_HOT = EnumType.of(Phase.class, Encoding.ONE_HOT);
    static final EnumType<Phase> GRAY = EnumType.of(Phase.class, Encoding.GRAY);
    static final EnumType<Opcode> CUSTOM = EnumType.of(Opcode.class, Encoding.CUSTOM);

    private static List<Long> codes(EnumType<Phase> t) {
        return List.of(Phase.values()).stream().map(p -> t.code(p).longValueExact()).toList();
    }

    @Test
    void binaryEncodingUsesTheOrdinalInTheFewestBits() {
        assertEquals(3, BINARY.width());
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), codes(BINARY));
        assertEquals(Encoding.BINARY, BINARY.encoding());
    }

    @Test
    void oneHotEncodingUsesOneBitPerConstant() {
        assertEquals(5, ONE_HOT.width());
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L), codes(ONE_HOT));
    }

    @Test
    void grayEncodingChangesOneBitBetweenNeighbours() {
        assertEquals(3, GRAY.width());
        assertEquals(List.of(0L, 1L, 3L, 2L, 6L), codes(GRAY));
        List<Long> c = codes(GRAY);
        for (int i = 1; i < c.size(); i++) {
            assertEquals(1, Long.bitCount(c.get(i) ^ c.get(i - 1)));
        }
    }

    @Test
    void customEncodingUsesTheEnumsCodes() {
        assertEquals(4, CUSTOM.width());
        assertEquals(BigInteger.valueOf(0xA), CUSTOM.code(Opcode.WRITE));
    }

    @Test
    void customEncodingNeedsEncodedConstants() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EnumType.of(Phase.class, Encoding.CUSTOM));
        assertEquals("Phase must implement EnumType.Encoded to use CUSTOM encoding", e.getMessage());
    }

    @Test
    void symbolsAreTheEnumNameInUpperSnakeCase() {
        assertEquals("PHASE_LOAD", BINARY.symbol(Phase.LOAD));
        assertEquals("OPCODE_WRITE", CUSTOM.symbol(Opcode.WRITE));
    }

    static final class EnumUser extends Component {
        final HwEnum<Phase> in;
        final HwEnum<Phase> out;
        final Bool isRun = out(bool());
        final Bool notIdle = out(bool());
        final Bool same = out(bool());

        EnumUser(EnumType<Phase> type) {
            in = in(enumOf(type));
            out = out(enumOf(type));
            HwEnum<Phase> state = reg("state", enumOf(type)).init(Phase.IDLE);
            when(in.is(Phase.LOAD), () -> state.set(Phase.RUN)).otherwise(() -> state.set(in));
            out.set(state);
            isRun.set(state.is(Phase.RUN));
            notIdle.set(state.isNot(Phase.IDLE));
            same.set(state.eq(lit(type, Phase.DONE)));
        }
    }

    @Test
    void binaryEnumInSystemVerilog() {
        String sv = Emit.sv(() -> new EnumUser(BINARY));
        assertLine(sv, "localparam logic [2:0] PHASE_IDLE = 3'd0;");
        assertLine(sv, "localparam logic [2:0] PHASE_LOAD = 3'd1;");
        assertLine(sv, "localparam logic [2:0] PHASE_RUN = 3'd2;");
        assertLine(sv, "localparam logic [2:0] PHASE_DONE = 3'd3;");
        assertLine(sv, "input  wire logic [2:0] in,");
        assertLine(sv, "logic [2:0] state;");
        assertLines(sv, "if (rst) begin", "state <= PHASE_IDLE;", "end else begin");
        assertLine(sv, "assign is_run = state == PHASE_RUN;");
        assertLine(sv, "assign not_idle = state != PHASE_IDLE;");
        assertLine(sv, "assign same = state == PHASE_DONE;");
        assertLines(sv,
                "if (in == PHASE_LOAD) begin",
                "state <= PHASE_RUN;",
                "end else begin",
                "state <= in;",
                "end");
    }

    @Test
    void oneHotAndGrayEnumsUseTheirCodes() {
        String oneHot = Emit.sv(() -> new EnumUser(ONE_HOT));
        assertLine(oneHot, "localparam logic [4:0] PHASE_RUN = 5'd4;");
        assertLine(oneHot, "logic [4:0] state;");
        String gray = Emit.sv(() -> new EnumUser(GRAY));
        assertLine(gray, "localparam logic [2:0] PHASE_DONE = 3'd2;");
    }

    static final class CustomUser extends Component {
        final HwEnum<Opcode> op = in(enumOf(CUSTOM));
        final Bool rw = out(bool());

        CustomUser() {
            rw.set(op.is(Opcode.READ).or(op.is(Opcode.WRITE)));
        }
    }

    @Test
    void customEnumInSystemVerilog() {
        String sv = Emit.sv(CustomUser::new);
        assertLine(sv, "localparam logic [3:0] OPCODE_READ = 4'd5;");
        assertLine(sv, "localparam logic [3:0] OPCODE_WRITE = 4'd10;");
        assertLine(sv, "assign rw = (op == OPCODE_READ) | (op == OPCODE_WRITE);");
    }
}

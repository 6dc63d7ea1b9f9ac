// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.config;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.regif.RegBus;
import dev.sue.hdl.lib.regs.WordReadMux;
import dev.sue.hdl.regmap.Access;
import dev.sue.hdl.regmap.FieldSpec;
import dev.sue.hdl.regmap.RegisterBlockSpec;
import dev.sue.hdl.regmap.RegisterSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The status words ({@link StatusWord}: counters, connection states) as a read-only window of a
 * register map: word i of the window is status word i.
 *
 * <p>Why not a {@link dev.sue.hdl.lib.regif.RegisterFile} of read-only registers: its read-back
 * is one AND-OR over every register's word, about 15 levels at the endpoint's 70 words; the
 * {@link WordReadMux} reads in two registered stages of a few levels whatever the count.
 *
 * <p>Parameters: {@code n}, the words (1..16384); the window has {@code max(1, log2Up(n))}
 * address bits.
 *
 * <p>Ports: {@code words[n]} (in, 32 bits each: narrower words zero-extended by
 * {@link #connect}); {@code s_*} ({@link RegBus} slave). A read of word i &lt; n answers OKAY with
 * the value the word had in the cycle after the request, three cycles after the request; an
 * access past the last word answers DECERR, a write to a word SLVERR (read-only; data 0).
 */
public final class StatusWindow extends Component {
    public final Vec<UInt> words;
    public final RegBus s;

    public StatusWindow(int n) {
        param("n", n);
        require(n >= 1 && n <= 1 << 14, "status words must be 1..16384, got " + n);
        words = in(Vec.of(n, i -> uint(StatusWord.BITS)));
        s = slave(new RegBus(addrBits(n))).named("s");
        WordReadMux mux = instance("words_mux", () -> new WordReadMux(n, StatusWord.BITS));
        int iw = mux.reqIndex.width();
        Bool read = s.valid.andNot(s.write);
        mux.reqValid.set(read);
        mux.reqIndex.set(iw >= s.addr.width() ? s.addr.resize(iw) : s.addr.slice(iw - 1, 0));
        // Addresses past the index bits (n not a power of two needs fewer index bits than the
        // window only when n = 1) are out of range as well.
        Bool beyond = iw >= s.addr.width() ? FALSE : s.addr.slice(s.addr.width() - 1, iw).ne(0);
        for (int i = 0; i < n; i++) {
            mux.words.get(i).set(words.get(i));
        }
        Bool beyondQ = regNext(regNext(beyond).named("beyond_q")).named("beyond_q2");
        Bool writeQ = reg("write_q", bool()).init(false);
        writeQ.set(s.valid.and(s.write));
        Bool inRange = (1L << s.addr.width()) == n ? TRUE : s.addr.lt(n);
        Bool writeOutsideQ = reg("write_outside_q", bool()).init(false);
        writeOutsideQ.set(inRange.not());
        Bool rspValid = reg("rsp_valid_q", bool()).init(false);
        UInt resp = reg("rsp_resp_q", uint(2)).init(0);
        UInt data = reg("rsp_data_q", uint(StatusWord.BITS)).init(0);
        Bool bad = mux.rspBad.or(beyondQ);
        rspValid.set(mux.rspValid.or(writeQ));
        resp.set(mux(writeQ, mux(writeOutsideQ, U(RegBus.DECERR, 2), U(RegBus.SLVERR, 2)), mux(bad, U(RegBus.DECERR, 2), U(RegBus.OKAY, 2))));
        data.set(mux(writeQ.or(bad), U(0, StatusWord.BITS), mux.rspData));
        s.rspValid.set(rspValid);
        s.resp.set(resp);
        s.rdata.set(data.asBits());
    }

    /** Word address bits of the window of {@code n} words. */
    public static int addrBits(int n) {
        return Math.max(1, log2Up(n));
    }

    /** Drives {@code words} from the list (the parent calls it after creating the instance). */
    public void connect(List<StatusWord> list) {
        require(list.size() == words.size(), list.size() + " status words for a window of " + words.size());
        for (int i = 0; i < list.size(); i++) {
            UInt v = list.get(i).value();
            words.get(i).set(v.width() == StatusWord.BITS ? v : v.resize(StatusWord.BITS));
        }
    }

    /**
     * The window's documentation: register {@code i} is the word's name in upper case with
     * {@code _} for {@code .} ({@code tx_rel.retx} -&gt; {@code TX_REL_RETX}), one read-only field
     * {@code value} of the word's width.
     */
    public static RegisterBlockSpec spec(String blockName, List<StatusWord> list) {
        List<RegisterSpec> regs = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            StatusWord w = list.get(i);
            boolean counter = w.value().width() == StatusWord.BITS;
            String doc = w.name() + (counter ? ": saturating event counter" : ": level");
            regs.add(new RegisterSpec(registerName(w), i, 1, doc, List.of(new FieldSpec("value", 0,
                    w.value().width(), Access.RO, counter ? 0L : null, 0, FieldSpec.fullRange(w.value().width()),
                    doc))));
        }
        return new RegisterBlockSpec(blockName, "Counters and states of the blocks (read-only)",
                addrBits(list.size()), regs);
    }

    /** The register name of a status word. */
    public static String registerName(StatusWord w) {
        return w.name().replace('.', '_').toUpperCase();
    }
}

// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.config;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.List;

/**
 * One word of the status space readable through the configuration port: a name (lower case,
 * {@code block.counter}, as documented in the register map) and the signal it reads, at most 32
 * bits (zero-extended). Blocks list their counters as status words in a fixed order; a top
 * concatenates the lists and gives word i the address {@code STATUS_BASE + i}.
 *
 * @param name  e.g. {@code rx_parser.fcs}
 * @param value the counter or state signal, 1..32 bits
 */
public record StatusWord(String name, UInt value) {
    /** Word address of the first status word on the configuration read port. */
    public static final int STATUS_BASE = 0x8000;
    /** Bits of a status word, and of every event counter (saturating, {@code lib.util.Counter}). */
    public static final int BITS = 32;

    public StatusWord {
        if (value.width() > BITS) {
            throw new IllegalArgumentException("status word " + name + " is " + value.width() + " bits wide, at most " + BITS);
        }
    }

    /** The words with {@code prefix + "."} in front of their names. */
    public static List<StatusWord> prefixed(String prefix, List<StatusWord> words) {
        List<StatusWord> out = new ArrayList<>(words.size());
        for (StatusWord w : words) {
            out.add(new StatusWord(prefix + "." + w.name(), w.value()));
        }
        return out;
    }

    /**
     * Exports the words as 32-bit output ports of the component being built, named
     * {@code cnt_<name>} with the dots as underscores ({@code rx_parser.fcs} -&gt;
     * {@code cnt_rx_parser_fcs}), narrower words zero-extended; returns the words reading those
     * ports, for the parent's status space.
     */
    public static List<StatusWord> exportAsPorts(List<StatusWord> words) {
        List<StatusWord> out = new ArrayList<>(words.size());
        for (StatusWord w : words) {
            UInt port = out(uint(BITS)).named("cnt_" + w.name().replace('.', '_'));
            port.set(w.value().width() == BITS ? w.value() : w.value().resize(BITS));
            out.add(new StatusWord(w.name(), port));
        }
        return out;
    }
}

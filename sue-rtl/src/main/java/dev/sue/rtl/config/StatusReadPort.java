// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.config;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.regs.WordReadMux;
import java.util.List;

/**
 * The read side of the configuration port: counters and state words ({@link StatusWord}) at word
 * addresses {@code STATUS_BASE + i} ({@code 0x8000 + i}), in the order a top lists them.
 *
 * <h2>Ports</h2>
 * <ul>
 * <li>{@code words[n]} (in, 32 bits each): the status words, narrower ones zero-extended.
 * <li>{@code rd} ({@link StatusReadBus}): {@code rd_valid}, {@code rd_addr[15:0]} (in): read the
 *     word at {@code rd_addr}; one read per cycle, no back-pressure. {@code rd_rsp_valid},
 *     {@code rd_data[31:0]}, {@code rd_err} (out): exactly two cycles after the read;
 *     {@code rd_err} = 1 and data 0 for an address outside
 *     {@code STATUS_BASE .. STATUS_BASE + n - 1}. A counter's value is the one it had in the
 *     cycle after the read.
 * </ul>
 * The configuration registers themselves are write-only: the status space holds what a driver
 * needs to read back (counters, connection states).
 */
public final class StatusReadPort extends Component {
    public final Vec<UInt> words;
    /** The read requests and responses: ports {@code rd_*}. */
    public final StatusReadBus rd = slave(new StatusReadBus().named("rd"));

    public StatusReadPort(int n) {
        param("n", n);
        require(n >= 1 && n <= 0x8000, "status words must be 1..32768, got " + n);
        words = in(Vec.of(n, i -> uint(32)));
        latency(2);
        WordReadMux mux = instance("words_mux", () -> new WordReadMux(n, 32));
        int iw = mux.reqIndex.width();
        // Inside the status space: bit 15 set and nothing between bit 14 and the index bits.
        Bool inSpace = iw >= 15 ? rd.addr.bit(15)
                : rd.addr.bit(15).and(rd.addr.slice(14, iw).eq(0)).named("in_space");
        mux.reqValid.set(rd.valid);
        mux.reqIndex.set(rd.addr.slice(iw - 1, 0));
        for (int i = 0; i < n; i++) {
            mux.words.get(i).set(words.get(i));
        }
        Bool outside = regNext(regNext(inSpace.not()).named("outside_q")).named("outside_q2");
        rd.rspValid.set(mux.rspValid);
        rd.err.set(mux.rspValid.and(mux.rspBad.or(outside)));
        rd.data.set(mux(outside, B(0, 32), mux.rspData.asBits()));
    }

    /** Drives {@code words} from the list (the parent calls it after creating the instance). */
    public void connect(List<StatusWord> list) {
        if (list.size() != words.size()) {
            throw new IllegalArgumentException(list.size() + " status words for a port of " + words.size());
        }
        for (int i = 0; i < list.size(); i++) {
            UInt v = list.get(i).value();
            words.get(i).set(v.width() == 32 ? v : v.resize(32));
        }
    }
}

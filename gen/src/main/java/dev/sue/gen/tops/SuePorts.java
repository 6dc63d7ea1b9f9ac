// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.rtl.SueEndpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The port-width parameters of {@code sue_endpoint} and the presets of spec Table 4 (one per
 * row: {@code sue_1x800g} ... {@code sue_4x100g}); sue-rtl/DESIGN-PORTS.md, "Widths" and
 * "Table 4 rows".
 *
 * <ul>
 * <li>{@code portWidth}: MAC port bus bits, a power of two in 64..{@code dataWidth}; 0 (the
 *     default) is {@code dataWidth}.
 * <li>{@code clockMhz}, {@code portGbps}: the clock the design will run at and each port's
 *     Ethernet rate. Given (both, or neither), the generator refuses a port bus that cannot carry
 *     the rate: {@code portWidth x clockMhz < portGbps x 1000} (Mb/s). They change nothing in the
 *     design; they record what it was generated for.
 * </ul>
 */
public final class SuePorts {
    /** Ethernet port rates in Gb/s ({@code portGbps}; 0 = not given). */
    static final Long[] PORT_RATES = {0L, 10L, 25L, 40L, 50L, 100L, 200L, 400L, 800L};
    /** The XPU width of every preset: the widest bus, so the clock each row needs is the lowest. */
    static final int PRESET_DATA_WIDTH = 1024;

    /**
     * A row of spec Table 4 ("Ethernet Ports with 2 SUE per Port Macro").
     *
     * @param ports      Ethernet ports per SUE instance
     * @param portGbps   each port's rate
     * @param serdesGbps SerDes lane rate
     * @param lanes      SerDes lanes per port
     */
    public record Table4Row(int ports, int portGbps, int serdesGbps, int lanes) {
        public String preset() {
            return "sue_" + ports + "x" + portGbps + "g";
        }

        /** {@code dataWidth / ports}: the ports together as wide as the XPU bus, all at one clock. */
        public int portWidth() {
            return PRESET_DATA_WIDTH / ports;
        }

        /** The lowest whole MHz at which {@code portWidth} carries {@code portGbps} (and the XPU bus the sum). */
        public int clockMhz() {
            return minClockMhz(portWidth(), portGbps);
        }
    }

    /** Spec Table 4, in its order. */
    public static final List<Table4Row> TABLE_4 = List.of(new Table4Row(1, 800, 200, 4), new Table4Row(2, 400, 200, 2),
            new Table4Row(4, 200, 200, 1), new Table4Row(1, 400, 100, 4), new Table4Row(2, 200, 100, 2),
            new Table4Row(4, 100, 100, 1));

    private SuePorts() {
    }

    static ParamSpec portWidth() {
        return ParamSpec.integer("portWidth", "MAC port bus bits: a power of two in 64..dataWidth, 0 = dataWidth; "
                + "narrower ports reach their plane through width adapters", 0, 0, 1024);
    }

    static ParamSpec clockMhz() {
        return ParamSpec.integer("clockMhz", "design clock the ports must carry their rate at (with portGbps; "
                + "0 = not checked)", 0, 0, 2000);
    }

    static ParamSpec portGbps() {
        return ParamSpec.oneOf("portGbps", "each port's Ethernet rate in Gb/s (with clockMhz; 0 = not checked)", 0,
                PORT_RATES);
    }

    /** {@code portWidth} resolved (0 = {@code dataWidth}) and checked against the width and the rate. */
    static int portWidth(ParamValues v) {
        int dataWidth = v.integer("dataWidth");
        int given = v.integer("portWidth");
        int portWidth = given == 0 ? dataWidth : given;
        if (portWidth < SueEndpoint.MIN_PORT_WIDTH || portWidth > dataWidth || Integer.bitCount(portWidth) != 1) {
            throw new IllegalArgumentException("'portWidth' = " + given + " with dataWidth " + dataWidth
                    + "; valid values: 0 (= dataWidth), " + validWidths(dataWidth));
        }
        int clock = v.integer("clockMhz");
        int rate = v.integer("portGbps");
        if ((clock == 0) != (rate == 0)) {
            throw new IllegalArgumentException("give clockMhz and portGbps together (the port rate is checked at "
                    + "the clock), got clockMhz=" + clock + ", portGbps=" + rate);
        }
        if (clock != 0 && (long) portWidth * clock < rate * 1000L) {
            List<String> fits = new ArrayList<>();
            for (int w = portWidth * 2; w <= dataWidth; w *= 2) {
                if ((long) w * clock >= rate * 1000L) {
                    fits.add(Integer.toString(w));
                }
            }
            throw new IllegalArgumentException("'portWidth' = " + portWidth + " bits at " + clock + " MHz carry "
                    + String.format("%.1f", portWidth * clock / 1000.0) + " Gb/s, less than a " + rate + "G port: "
                    + (fits.isEmpty() ? "no portWidth up to dataWidth " + dataWidth + " does at this clock"
                            : "valid portWidth at this clock: " + String.join(", ", fits))
                    + "; at portWidth " + portWidth + " the clock must be >= " + minClockMhz(portWidth, rate) + " MHz");
        }
        return portWidth;
    }

    static int minClockMhz(int width, int gbps) {
        return (int) ((gbps * 1000L + width - 1) / width);
    }

    private static String validWidths(int dataWidth) {
        List<String> widths = new ArrayList<>();
        for (int w = SueEndpoint.MIN_PORT_WIDTH; w <= dataWidth; w *= 2) {
            widths.add(Integer.toString(w));
        }
        return String.join(", ", widths) + " (up to dataWidth)";
    }

    /**
     * One preset per Table 4 row: {@code dataWidth} 1024, {@code portWidth = 1024 / ports}, the clock
     * that carries the rate, and the one-port buffers ({@code cells}, {@code rxBufBytes}) shared out
     * among the planes (each carries 1/ports of the instance's bandwidth).
     */
    static void registerPresets(Catalog c) {
        for (Table4Row r : TABLE_4) {
            c.add(new Preset(r.preset(), "sue_endpoint", Map.of("dataWidth", Integer.toString(PRESET_DATA_WIDTH),
                    "ports", Integer.toString(r.ports()), "portWidth", Integer.toString(r.portWidth()),
                    "clockMhz", Integer.toString(r.clockMhz()), "portGbps", Integer.toString(r.portGbps()),
                    "cells", Integer.toString(SueRxTops.ENDPOINT_CELLS / r.ports()),
                    "rxBufBytes", Integer.toString(SueRxTops.ENDPOINT_RX_BUF_BYTES / r.ports())),
                    "spec Table 4: " + r.ports() + " x " + r.portGbps() + "G (" + r.lanes() + " x " + r.serdesGbps()
                            + "G SerDes per port), " + r.portWidth() + "-bit ports, 1024-bit XPU bus, needs "
                            + r.clockMhz() + " MHz"));
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.streamops;

/** How a {@link StreamFork} hands one beat to all of its outputs. */
public enum ForkMode {
    /**
     * Every output takes the beat in the same cycle: an output is valid only while all the
     * others are ready. Stateless, but the outputs' {@code valid} depends on other outputs'
     * {@code ready} and may fall before a transfer, so the sinks must not make {@code ready}
     * depend on {@code valid}.
     */
    SYNCHRONOUS,
    /**
     * Each output takes the beat when it is ready; a flag per output remembers who already has
     * it, and the input is released when all have. Outputs follow the stream rules fully.
     */
    ASYNCHRONOUS
}

// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.stream;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Data;
import java.util.function.Supplier;

/**
 * A valid-only flow: the payload is taken whenever {@code valid} is high; there is no
 * back-pressure. Fields flatten like {@link Stream}'s.
 *
 * @param <T> payload type
 */
public class Flow<T extends Data> extends Bundle {
    public final Bool valid = bool();
    public final T payload;
    private final Supplier<T> payloadType;

    public Flow(Supplier<T> payloadType) {
        this.payloadType = payloadType;
        this.payload = inlined(payloadType.get());
    }

    public static <T extends Data> Flow<T> of(Supplier<T> payloadType) {
        return new Flow<>(payloadType);
    }

    public Supplier<T> payloadType() {
        return payloadType;
    }

    @Override
    public Flow<T> copyType() {
        return new Flow<>(payloadType);
    }
}

// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.check;

import dev.sue.hdl.Location;

/** Where checks report problems; elaboration collects them and reports all at once. */
@FunctionalInterface
public interface ErrorSink {
    void error(Location location, String message);
}

// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

/**
 * Thrown when construction cannot sensibly continue after an error that was already recorded
 * (for example, a parameter outside its range). The elaboration then reports every recorded
 * error; no stack trace is shown.
 */
final class HdlAbort extends RuntimeException {
    private static final long serialVersionUID = 1L;

    HdlAbort() {
        super(null, null, false, false);
    }
}

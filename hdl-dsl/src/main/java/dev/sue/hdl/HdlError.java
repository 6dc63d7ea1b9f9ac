// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

/**
 * One problem found while elaborating or checking a design, with where it was described.
 *
 * @param parameter true when a generation parameter was refused ({@link Hdl#require}) rather than
 *                  the design being wrong: a front end reports it as a bad argument, not a design error
 */
public record HdlError(Location location, String message, boolean parameter) {
    public HdlError(Location location, String message) {
        this(location, message, false);
    }

    @Override
    public String toString() {
        return location + ": error: " + message;
    }
}

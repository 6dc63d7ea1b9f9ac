// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.emit;

import dev.sue.hdl.Component;

/**
 * One SystemVerilog file of an emitted design.
 *
 * @param name           module name (also the file name without {@code .sv})
 * @param text           the whole file
 * @param representative the first component instance emitted as this module
 * @param blackBox       true for a black box's source text
 */
public record EmittedModule(String name, String text, Component representative, boolean blackBox) {
    public String fileName() {
        return name + ".sv";
    }
}

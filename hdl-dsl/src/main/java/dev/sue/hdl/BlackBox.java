// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A module described outside the DSL (vendor primitive, hand-written IP). Declare its
 * ports like any component; the emitter instantiates {@code moduleName} with the given
 * SystemVerilog parameters and, when a source text is given, writes it into the
 * output so the design lints and simulates stand-alone.
 */
public abstract class BlackBox extends Component {
    private final Map<String, Object> svParameters = new LinkedHashMap<>();

    protected BlackBox(String moduleName, String systemVerilogSource) {
        ir().setBlackBox(moduleName, svParameters, systemVerilogSource);
    }

    /** Sets a parameter of the instantiated module ({@code #(.NAME(value))}). */
    protected final void svParameter(String name, Object value) {
        svParameters.put(name, value);
    }

    @Override
    public String moduleBaseName() {
        return ir().blackBoxModule();
    }
}

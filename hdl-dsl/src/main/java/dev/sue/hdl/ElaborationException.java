// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown once elaboration and checks are complete, carrying every error found. */
public final class ElaborationException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<HdlError> errors;

    public ElaborationException(List<HdlError> errors) {
        super(errors.size() + " error(s):\n" + errors.stream().map(HdlError::toString)
                .collect(Collectors.joining("\n")));
        this.errors = List.copyOf(errors);
    }

    public ElaborationException(List<HdlError> errors, Throwable cause) {
        this(errors);
        initCause(cause);
    }

    public List<HdlError> errors() {
        return errors;
    }
}

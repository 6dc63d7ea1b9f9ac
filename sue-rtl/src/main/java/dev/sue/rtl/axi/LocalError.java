// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * A response the slave side answers itself, without sending anything: the request's ID, the
 * response (SLVERR or DECERR) and, for reads, the burst's AxLEN (every beat carries the error).
 */
final class LocalError extends Bundle {
    final UInt id;
    final UInt resp = uint(2);
    final UInt len = uint(8);
    private final int idBits;

    LocalError(int idBits) {
        this.idBits = idBits;
        id = uint(idBits);
    }

    @Override
    public LocalError copyType() {
        return new LocalError(idBits);
    }
}

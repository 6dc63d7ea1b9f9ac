// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.timing.DepthReport;
import java.util.List;

/**
 * An elaborated, named and checked design, ready for emission.
 *
 * @param top        the top component
 * @param components every component instance, parents before children
 * @param nodeCount  number of IR nodes created (signals and operations)
 * @param options    the options it was elaborated with
 * @param depth      the logic-depth estimate, or null when the options did not ask for it
 */
public record Design(Component top, List<Component> components, int nodeCount, ElaborationOptions options,
        DepthReport depth) {
}

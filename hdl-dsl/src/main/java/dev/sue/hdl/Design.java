package dev.sue.hdl;

import java.util.List;

/**
 * An elaborated, named and checked design, ready for emission.
 *
 * @param top        the top component
 * @param components every component instance, parents before children
 * @param nodeCount  number of IR nodes created (signals and operations)
 * @param options    the options it was elaborated with
 */
public record Design(Component top, List<Component> components, int nodeCount, ElaborationOptions options) {
}

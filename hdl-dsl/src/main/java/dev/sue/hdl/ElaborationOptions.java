package dev.sue.hdl;

/**
 * Settings of one elaboration.
 *
 * @param defaultDomain clock domain of the top and, unless overridden with
 *                      {@link Hdl#withDomain}, of everything below it
 */
public record ElaborationOptions(ClockDomain defaultDomain) {
    public static ElaborationOptions defaults() {
        return new ElaborationOptions(ClockDomain.external(""));
    }
}

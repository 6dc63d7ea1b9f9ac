// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.arbiter;

/** How an arbiter chooses among simultaneous requests. */
public enum ArbiterPolicy {
    /**
     * The lowest-numbered requester wins, every time. Simple and predictable, but a busy
     * low-numbered requester can starve the others.
     */
    FIXED_PRIORITY,
    /**
     * Priority rotates: after requester {@code i} is served, requesters {@code i+1, i+2, ...}
     * (wrapping) come first. A requester that keeps requesting waits for at most {@code N-1}
     * grants to others.
     */
    ROUND_ROBIN
}

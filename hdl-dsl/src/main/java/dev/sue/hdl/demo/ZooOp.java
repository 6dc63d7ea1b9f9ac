// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.demo;

/**
 * Selector of {@link OperatorZoo}'s enum {@code switchOn}; binary-encoded in the order listed
 * (codes 0..4 in 3 bits, so codes 5..7 exist on the wire but name no constant and must reach
 * the {@code otherwise} branch).
 */
public enum ZooOp { PASS_A, PASS_B, ADD, XOR, NOT_A }

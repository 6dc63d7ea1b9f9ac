// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.demo;

/** Operations of {@link DemoAccumulator}; binary-encoded in the order listed. */
public enum AluOp { ADD, SUB, XOR, CLEAR }

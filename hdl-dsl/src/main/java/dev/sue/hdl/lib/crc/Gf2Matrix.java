// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

import java.util.Arrays;

/**
 * An immutable matrix over GF(2) (entries 0/1, addition is XOR), stored row by row as bit
 * sets. Used at elaboration to compute a CRC's XOR network: {@code y = M x} means output bit
 * {@code r} is the XOR of the inputs {@code c} with {@code get(r, c)}.
 *
 * <p>Sizes are small (a CRC has at most 32 rows; columns are state plus data bits, at most a
 * few thousand), so every operation is a plain row-wise loop.
 */
public final class Gf2Matrix {
    private final int rows;
    private final int cols;
    private final long[][] bits; // bits[r][c >>> 6] bit (c & 63)

    private Gf2Matrix(int rows, int cols, long[][] bits) {
        this.rows = rows;
        this.cols = cols;
        this.bits = bits;
    }

    /** The all-zero matrix. */
    public static Gf2Matrix zero(int rows, int cols) {
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("matrix size " + rows + "x" + cols + "; both must be >= 1");
        }
        return new Gf2Matrix(rows, cols, new long[rows][words(cols)]);
    }

    /** The n x n identity. */
    public static Gf2Matrix identity(int n) {
        Gf2Matrix m = zero(n, n);
        for (int i = 0; i < n; i++) {
            m.bits[i][i >>> 6] |= 1L << i;
        }
        return m;
    }

    /** Builds a matrix from row bit sets (each {@code words(cols)} longs); the arrays are copied. */
    static Gf2Matrix ofRows(int cols, long[][] rowBits) {
        long[][] copy = new long[rowBits.length][];
        for (int r = 0; r < rowBits.length; r++) {
            if (rowBits[r].length != words(cols)) {
                throw new IllegalArgumentException("row " + r + " has " + rowBits[r].length + " words, expected "
                        + words(cols));
            }
            copy[r] = rowBits[r].clone();
        }
        Gf2Matrix m = new Gf2Matrix(rowBits.length, cols, copy);
        m.checkNoStrayBits();
        return m;
    }

    static int words(int cols) {
        return (cols + 63) >>> 6;
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    public boolean get(int r, int c) {
        checkIndex(r, c);
        return (bits[r][c >>> 6] >>> c & 1) != 0;
    }

    /** A copy with entry (r, c) set to {@code v}. */
    public Gf2Matrix with(int r, int c, boolean v) {
        checkIndex(r, c);
        long[][] b = copyBits();
        if (v) {
            b[r][c >>> 6] |= 1L << c;
        } else {
            b[r][c >>> 6] &= ~(1L << c);
        }
        return new Gf2Matrix(rows, cols, b);
    }

    /** Column indices of the ones in row {@code r}, ascending. */
    public int[] rowTerms(int r) {
        int[] out = new int[rowWeight(r)];
        int k = 0;
        long[] row = bits[r];
        for (int w = 0; w < row.length; w++) {
            long x = row[w];
            while (x != 0) {
                out[k++] = (w << 6) + Long.numberOfTrailingZeros(x);
                x &= x - 1;
            }
        }
        return out;
    }

    /** Number of ones in row {@code r} (the XOR fan-in of output {@code r}). */
    public int rowWeight(int r) {
        int n = 0;
        for (long x : bits[r]) {
            n += Long.bitCount(x);
        }
        return n;
    }

    /** Total number of ones (XOR inputs of the whole network). */
    public int weight() {
        int n = 0;
        for (int r = 0; r < rows; r++) {
            n += rowWeight(r);
        }
        return n;
    }

    /** Columns {@code from} (inclusive) to {@code to} (exclusive) as a new matrix. */
    public Gf2Matrix columns(int from, int to) {
        if (from < 0 || to > cols || from >= to) {
            throw new IllegalArgumentException("columns [" + from + ", " + to + ") of a " + cols + "-column matrix");
        }
        Gf2Matrix m = zero(rows, to - from);
        for (int r = 0; r < rows; r++) {
            for (int c = from; c < to; c++) {
                if ((bits[r][c >>> 6] >>> c & 1) != 0) {
                    m.bits[r][(c - from) >>> 6] |= 1L << (c - from);
                }
            }
        }
        return m;
    }

    /** {@code [this | right]}: the columns of {@code right} follow this matrix's. */
    public Gf2Matrix concatColumns(Gf2Matrix right) {
        if (right.rows != rows) {
            throw new IllegalArgumentException("cannot put a " + right.rows + "-row matrix beside a " + rows + "-row one");
        }
        Gf2Matrix m = zero(rows, cols + right.cols);
        for (int r = 0; r < rows; r++) {
            System.arraycopy(bits[r], 0, m.bits[r], 0, bits[r].length);
            for (int c = 0; c < right.cols; c++) {
                if ((right.bits[r][c >>> 6] >>> c & 1) != 0) {
                    int cc = cols + c;
                    m.bits[r][cc >>> 6] |= 1L << cc;
                }
            }
        }
        return m;
    }

    /** Matrix product {@code this * o} over GF(2). */
    public Gf2Matrix multiply(Gf2Matrix o) {
        if (cols != o.rows) {
            throw new IllegalArgumentException("cannot multiply " + rows + "x" + cols + " by " + o.rows + "x" + o.cols);
        }
        Gf2Matrix m = zero(rows, o.cols);
        for (int r = 0; r < rows; r++) {
            long[] acc = m.bits[r];
            for (int c : rowTerms(r)) {
                long[] src = o.bits[c];
                for (int w = 0; w < acc.length; w++) {
                    acc[w] ^= src[w];
                }
            }
        }
        return m;
    }

    /** {@code this^e} for a square matrix, {@code e >= 0}. */
    public Gf2Matrix pow(long e) {
        requireSquare("pow");
        if (e < 0) {
            throw new IllegalArgumentException("negative exponent " + e + "; use inverse().pow(" + -e + ")");
        }
        Gf2Matrix result = identity(rows);
        Gf2Matrix base = this;
        while (e != 0) {
            if ((e & 1) != 0) {
                result = result.multiply(base);
            }
            e >>>= 1;
            if (e != 0) {
                base = base.multiply(base);
            }
        }
        return result;
    }

    /**
     * The inverse of a square matrix (Gauss-Jordan elimination).
     *
     * @throws ArithmeticException when the matrix is singular
     */
    public Gf2Matrix inverse() {
        requireSquare("inverse");
        int n = rows;
        long[][] a = copyBits();
        long[][] inv = identity(n).bits;
        for (int col = 0; col < n; col++) {
            int pivot = -1;
            for (int r = col; r < n; r++) {
                if ((a[r][col >>> 6] >>> col & 1) != 0) {
                    pivot = r;
                    break;
                }
            }
            if (pivot < 0) {
                throw new ArithmeticException("singular " + n + "x" + n + " matrix over GF(2) (column " + col + ")");
            }
            swap(a, col, pivot);
            swap(inv, col, pivot);
            for (int r = 0; r < n; r++) {
                if (r != col && (a[r][col >>> 6] >>> col & 1) != 0) {
                    xorInto(a[r], a[col]);
                    xorInto(inv[r], inv[col]);
                }
            }
        }
        return new Gf2Matrix(n, n, inv);
    }

    /** {@code this * x} for a column vector given as a bit set of {@code cols} bits. */
    public long[] apply(long[] x) {
        if (x.length != words(cols)) {
            throw new IllegalArgumentException("vector has " + x.length + " words, expected " + words(cols));
        }
        long[] y = new long[words(rows)];
        for (int r = 0; r < rows; r++) {
            long parity = 0;
            long[] row = bits[r];
            for (int w = 0; w < row.length; w++) {
                parity ^= row[w] & x[w];
            }
            if ((Long.bitCount(parity) & 1) != 0) {
                y[r >>> 6] |= 1L << r;
            }
        }
        return y;
    }

    /** {@code this * x} for at most 64 columns and rows, with vectors as longs (bit i = entry i). */
    public long apply(long x) {
        if (cols > 64 || rows > 64) {
            throw new IllegalArgumentException("apply(long) needs at most 64 rows and columns, this is " + rows + "x"
                    + cols);
        }
        return apply(new long[] {x})[0];
    }

    private void requireSquare(String what) {
        if (rows != cols) {
            throw new IllegalArgumentException(what + "() needs a square matrix, this one is " + rows + "x" + cols);
        }
    }

    private void checkIndex(int r, int c) {
        if (r < 0 || r >= rows || c < 0 || c >= cols) {
            throw new IndexOutOfBoundsException("(" + r + ", " + c + ") outside a " + rows + "x" + cols + " matrix");
        }
    }

    private void checkNoStrayBits() {
        int extra = cols & 63;
        if (extra == 0) {
            return;
        }
        long stray = -1L << extra;
        for (int r = 0; r < rows; r++) {
            if ((bits[r][bits[r].length - 1] & stray) != 0) {
                throw new IllegalArgumentException("row " + r + " has bits beyond column " + (cols - 1));
            }
        }
    }

    private long[][] copyBits() {
        long[][] b = new long[rows][];
        for (int r = 0; r < rows; r++) {
            b[r] = bits[r].clone();
        }
        return b;
    }

    private static void swap(long[][] a, int i, int j) {
        long[] t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    private static void xorInto(long[] dst, long[] src) {
        for (int w = 0; w < dst.length; w++) {
            dst[w] ^= src[w];
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Gf2Matrix m && m.rows == rows && m.cols == cols && Arrays.deepEquals(m.bits, bits);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * rows + cols) + Arrays.deepHashCode(bits);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                sb.append(get(r, c) ? '1' : '0');
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}

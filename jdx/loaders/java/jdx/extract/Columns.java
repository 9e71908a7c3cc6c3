package jdx.extract;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Columnar batches handed to Python: every string is an index into one UTF-8 string pool,
 * every table is a set of int columns. Python wraps them as Arrow arrays with no per-row crossing.
 */
public final class Columns {

    /** A growable int column. */
    public static final class IntCol {
        int[] data = new int[256];
        int size;

        void add(int v) {
            if (size == data.length) {
                data = java.util.Arrays.copyOf(data, size * 2);
            }
            data[size++] = v;
        }

        public int[] toArray() {
            return java.util.Arrays.copyOf(data, size);
        }
    }

    /** One table: named int columns of equal length. */
    public static final class Table {
        public final String name;
        public final String[] columns;
        final IntCol[] cols;
        int rows;

        Table(String name, String... columns) {
            this.name = name;
            this.columns = columns;
            this.cols = new IntCol[columns.length];
            for (int i = 0; i < columns.length; i++) {
                cols[i] = new IntCol();
            }
        }

        void row(int... values) {
            for (int i = 0; i < values.length; i++) {
                cols[i].add(values[i]);
            }
            rows++;
        }

        public int rowCount() {
            return rows;
        }

        public int[] column(int i) {
            return cols[i].toArray();
        }
    }

    private final HashMap<String, Integer> index = new HashMap<>();
    private final List<String> pool = new ArrayList<>();

    /** Pool index of s; -1 stands for null. */
    int str(String s) {
        if (s == null) {
            return -1;
        }
        Integer i = index.get(s);
        if (i != null) {
            return i;
        }
        int n = pool.size();
        pool.add(s);
        index.put(s, n);
        return n;
    }

    public int poolSize() {
        return pool.size();
    }

    /** The pool as UTF-8 bytes; offsets are written into the array returned by poolOffsets(). */
    private int[] offsets;

    public byte[] poolBytes() {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(pool.size() * 24);
        offsets = new int[pool.size() + 1];
        int pos = 0;
        for (int i = 0; i < pool.size(); i++) {
            byte[] b = pool.get(i).getBytes(StandardCharsets.UTF_8);
            out.write(b, 0, b.length);
            pos += b.length;
            offsets[i + 1] = pos;
        }
        return out.toByteArray();
    }

    public int[] poolOffsets() {
        return offsets;
    }
}

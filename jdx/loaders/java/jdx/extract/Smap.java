package jdx.extract;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The inlining map kotlinc writes into a class's SourceDebugExtension (JSR-45 SMAP). Code inlined from an
 * {@code inline} function is numbered after the file's own last line; the {@code Kotlin} stratum maps those
 * output lines to the inline function's file (the class that declares it) and line, the {@code KotlinDebug}
 * stratum to the line of the call site in this file.
 *
 * <pre>
 * *S Kotlin                     *S KotlinDebug
 * *F                            *F
 * + 1 Foo.kt                    + 1 Foo.kt
 * p/FooKt                       p/FooKt
 * + 2 _Collections.kt           *L
 * kotlin/collections/...Kt      10#1,2:16      (output 16..17: the call at line 10)
 * *L
 * 1#1,15:1                      (the file's own lines)
 * 1582#2,2:16                   (output 16..17: _Collections.kt lines 1582..1583)
 * </pre>
 */
final class Smap {

    /** One inlined range: output lines [outStart, outEnd], read from {@code owner} at {@code inStart}.. */
    static final class Range {
        final int outStart, outEnd, inStart;
        final String owner;

        Range(int outStart, int outEnd, int inStart, String owner) {
            this.outStart = outStart;
            this.outEnd = outEnd;
            this.inStart = inStart;
            this.owner = owner;
        }
    }

    final List<Range> inlined = new ArrayList<>();
    /** The file's own last line (the Kotlin stratum's {@code 1#1,N:1}), or -1 when the map does not say. */
    private int ownLines = -1;
    /** Output line ranges of the KotlinDebug stratum: [outStart, outEnd, callLine] triples. */
    private final List<int[]> callSites = new ArrayList<>();

    /** The map of a SourceDebugExtension, or null when it is not kotlinc's or maps nothing inlined. */
    static Smap parse(String debug) {
        if (debug == null || !debug.startsWith("SMAP") || debug.indexOf("*S Kotlin") < 0) {
            return null;
        }
        try {
            Smap smap = new Smap();
            String[] lines = debug.split("\r?\n");
            String stratum = null;
            String section = null;
            HashMap<Integer, String> files = new HashMap<>();
            int lastFile = 1;
            for (int i = 0; i < lines.length; i++) {
                String l = lines[i].trim();
                if (l.startsWith("*S ")) {
                    stratum = l.substring(3).trim();
                    section = null;
                    files.clear();
                    lastFile = 1;
                } else if (l.equals("*F") || l.equals("*L")) {
                    section = l;
                } else if (l.startsWith("*")) {
                    section = null;
                } else if ("*F".equals(section)) {
                    if (l.startsWith("+ ")) {
                        String[] p = l.substring(2).trim().split(" ", 2);
                        String path = i + 1 < lines.length ? lines[++i].trim() : "";
                        files.put(Integer.parseInt(p[0]), path.endsWith(".kt") ? null : path);
                    } else {
                        files.put(Integer.parseInt(l.split(" ", 2)[0]), null);  // no path: the class is not known
                    }
                } else if ("*L".equals(section) && !l.isEmpty()) {
                    int colon = l.indexOf(':');
                    String in = l.substring(0, colon), out = l.substring(colon + 1);
                    int repeat = 1;
                    int comma = in.indexOf(',');
                    if (comma >= 0) {
                        repeat = Integer.parseInt(in.substring(comma + 1));
                        in = in.substring(0, comma);
                    }
                    int hash = in.indexOf('#');
                    if (hash >= 0) {
                        lastFile = Integer.parseInt(in.substring(hash + 1));
                        in = in.substring(0, hash);
                    }
                    int incr = 1;
                    comma = out.indexOf(',');
                    if (comma >= 0) {
                        incr = Integer.parseInt(out.substring(comma + 1));
                        out = out.substring(0, comma);
                    }
                    int inStart = Integer.parseInt(in), outStart = Integer.parseInt(out);
                    int outEnd = outStart + Math.max(1, repeat * Math.max(1, incr)) - 1;
                    if ("Kotlin".equals(stratum)) {
                        if (inStart == 1 && outStart == 1 && lastFile == 1) {
                            smap.ownLines = outEnd;
                        } else if (inStart != outStart || lastFile != 1) {  // not the file's own lines
                            smap.inlined.add(new Range(outStart, outEnd, inStart, files.get(lastFile)));
                        }
                    } else if ("KotlinDebug".equals(stratum)) {
                        smap.callSites.add(new int[] {outStart, outEnd, inStart});
                    }
                }
            }
            return smap.inlined.isEmpty() ? null : smap;
        } catch (RuntimeException e) {  // a map that is not well formed: lines are left as the class file has them
            return null;
        }
    }

    /** Index of the inlined range holding output line ln, or -1. */
    int rangeOf(int ln) {
        for (int i = 0; i < inlined.size(); i++) {
            Range r = inlined.get(i);
            if (ln >= r.outStart && ln <= r.outEnd) {
                return i;
            }
        }
        return -1;
    }

    /** Whether output line ln is none of the file's own lines: inlined, or past the file's last line. */
    boolean virtual(int ln) {
        return (ownLines > 0 && ln > ownLines) || rangeOf(ln) >= 0;
    }

    /** The line of this file whose call inlined output line ln, or -1 when the map does not say. */
    int callLine(int ln) {
        for (int[] c : callSites) {
            if (ln >= c[0] && ln <= c[1]) {
                return c[2];
            }
        }
        return -1;
    }
}

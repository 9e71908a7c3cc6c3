package jdx.extract;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.objectweb.asm.AnnotationVisitor;

/** Keeps the raw values of @kotlin.Metadata (k, mv, d1, d2, xs, pn, xi) as one JSON object. */
final class KotlinMetadataCollector extends AnnotationVisitor {

    private final Consumer<String> sink;
    private final TreeMap<String, String> values = new TreeMap<>();

    KotlinMetadataCollector(Consumer<String> sink) {
        super(ClassExtractor.API);
        this.sink = sink;
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    private static String scalar(Object v) {
        if (v instanceof String) {
            return json((String) v);
        }
        if (v instanceof int[]) {
            int[] a = (int[]) v;
            StringBuilder b = new StringBuilder("[");
            for (int i = 0; i < a.length; i++) {
                b.append(i > 0 ? "," : "").append(a[i]);
            }
            return b.append(']').toString();
        }
        if (v instanceof Boolean || v instanceof Number) {
            return String.valueOf(v);
        }
        return json(String.valueOf(v));
    }

    @Override
    public void visit(String name, Object value) {
        values.put(name, scalar(value));
    }

    @Override
    public AnnotationVisitor visitArray(String name) {
        List<String> items = new ArrayList<>();
        return new AnnotationVisitor(ClassExtractor.API) {
            @Override
            public void visit(String n, Object value) {
                items.add(scalar(value));
            }

            @Override
            public void visitEnd() {
                values.put(name, "[" + String.join(",", items) + "]");
            }
        };
    }

    @Override
    public void visitEnd() {
        StringBuilder b = new StringBuilder("{");
        int i = 0;
        for (var e : values.entrySet()) {
            b.append(i++ > 0 ? "," : "").append(json(e.getKey())).append(':').append(e.getValue());
        }
        sink.accept(b.append('}').toString());
    }
}

package jdx.extract;

import java.util.function.Consumer;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.Type;

/** Renders an annotation (or an annotation default value) as Java source text; `named`, when given, hears the
 *  internal name of each type its values name: a class literal's (an array's element type; a primitive names
 *  none) and an enum constant's type, at any depth (arrays, nested annotations). */
final class ValuePrinter extends AnnotationVisitor {

    private final String desc;
    private final Consumer<String> sink;
    private final Consumer<String> named;
    private final StringBuilder sb = new StringBuilder();
    private final boolean array;
    private int count;

    /** desc null: a bare value (annotation default); otherwise an annotation's "(a=1, b=2)" values. */
    ValuePrinter(String desc, Consumer<String> sink) {
        this(desc, sink, null, false);
    }

    ValuePrinter(String desc, Consumer<String> sink, Consumer<String> named) {
        this(desc, sink, named, false);
    }

    private ValuePrinter(String desc, Consumer<String> sink, Consumer<String> named, boolean array) {
        super(ClassExtractor.API);
        this.desc = desc;
        this.sink = sink;
        this.named = named;
        this.array = array;
    }

    /** The class a class literal names: an array's element class; null for a primitive (or an array of them). */
    static String classNamed(Type t) {
        if (t.getSort() == Type.ARRAY) {
            t = t.getElementType();
        }
        return t.getSort() == Type.OBJECT ? t.getInternalName() : null;
    }

    static String constant(Object value) {
        if (value instanceof String) {
            return quote((String) value, '"');
        }
        if (value instanceof Character) {
            return quote(String.valueOf(value), '\'');
        }
        if (value instanceof Long) {
            return value + "L";
        }
        if (value instanceof Float) {
            Float f = (Float) value;
            if (f.isNaN()) {
                return "0.0f / 0.0f";
            }
            if (f.isInfinite()) {
                return f > 0 ? "1.0f / 0.0f" : "-1.0f / 0.0f";
            }
            return value + "f";
        }
        if (value instanceof Double) {
            Double d = (Double) value;
            if (d.isNaN()) {
                return "0.0d / 0.0";
            }
            if (d.isInfinite()) {
                return d > 0 ? "1.0 / 0.0" : "-1.0 / 0.0";
            }
            return value.toString();
        }
        if (value instanceof Type) {
            return ((Type) value).getClassName() + ".class";
        }
        if (value != null && value.getClass().isArray()) {
            StringBuilder b = new StringBuilder("{");
            int n = java.lang.reflect.Array.getLength(value);
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    b.append(", ");
                }
                b.append(constant(java.lang.reflect.Array.get(value, i)));
            }
            return b.append('}').toString();
        }
        return String.valueOf(value);
    }

    static String quote(String s, char q) {
        StringBuilder b = new StringBuilder(s.length() + 2).append(q);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                case '\\': b.append("\\\\"); break;
                default:
                    if (c == q) {
                        b.append('\\').append(c);
                    } else if (c < 0x20 || (c >= 0xD800 && c <= 0xDFFF)) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        return b.append(q).toString();
    }

    private void sep(String name) {
        if (count++ > 0) {
            sb.append(", ");
        }
        if (desc != null && !array && name != null) {
            sb.append(name).append('=');
        }
    }

    @Override
    public void visit(String name, Object value) {
        sep(name);
        sb.append(constant(value));
        if (named != null && value instanceof Type) {
            String type = classNamed((Type) value);
            if (type != null) {
                named.accept(type);
            }
        }
    }

    @Override
    public void visitEnum(String name, String edesc, String value) {
        sep(name);
        Type type = Type.getType(edesc);
        sb.append(type.getClassName()).append('.').append(value);
        if (named != null && type.getSort() == Type.OBJECT) {
            named.accept(type.getInternalName());
        }
    }

    @Override
    public AnnotationVisitor visitAnnotation(String name, String adesc) {
        sep(name);
        int at = sb.length();
        return new ValuePrinter(adesc, text -> sb.insert(at, text), named, false);
    }

    @Override
    public AnnotationVisitor visitArray(String name) {
        sep(name);
        int at = sb.length();
        return new ValuePrinter("[", text -> sb.insert(at, text), named, true);
    }

    @Override
    public void visitEnd() {
        if (array) {
            sink.accept("{" + sb + "}");
        } else if (desc == null) {
            sink.accept(sb.toString());
        } else if (desc.startsWith("L")) {
            String head = "@" + Type.getType(desc).getClassName();
            sink.accept(count == 0 ? head : head + "(" + sb + ")");
        } else {
            sink.accept(sb.toString());
        }
    }
}

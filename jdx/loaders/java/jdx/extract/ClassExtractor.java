package jdx.extract;

import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.RecordComponentVisitor;
import org.objectweb.asm.Type;
import org.objectweb.asm.TypePath;
import org.objectweb.asm.TypeReference;

/** Visits one class file with ASM and appends its rows to a chunk's tables. */
final class ClassExtractor extends ClassVisitor {

    static final int API = Opcodes.ASM9;

    // reference kinds; the Python side holds the same table (jdx/loaders/extractor.py)
    static final int R_INVOKEVIRTUAL = 0, R_INVOKESPECIAL = 1, R_INVOKESTATIC = 2, R_INVOKEINTERFACE = 3,
            R_HANDLE = 4, R_GETFIELD = 5, R_GETSTATIC = 6, R_PUTFIELD = 7, R_PUTSTATIC = 8, R_NEW = 9,
            R_CHECKCAST = 10, R_INSTANCEOF = 11, R_ANEWARRAY = 12, R_CLASS_CONST = 13, R_CATCH = 14,
            R_MULTIANEWARRAY = 15, R_FIELD_HANDLE_GET = 16, R_FIELD_HANDLE_PUT = 17, R_INLINE = 18,
            R_INDY = 19, R_INDY_ARG = 20, R_CASE_LABEL = 21;
    /** A typeref from an annotated class, method (its parameters' too) or field to a type a class literal or enum
     *  constant in its annotations' values names, line -1; graph_build makes it an ANNOTATED_BY edge (site
     *  `annotation value`), not a REFERENCES one, whose ends are methods only (so not in extractor.REF_KINDS). */
    static final int R_ANNOTATION_VALUE = 22;
    /** A typeref from a method to the functional interface a lambda or method reference in it creates an instance of
     *  (an invokedynamic whose bootstrap is LambdaMetafactory's: its descriptor's return type, and the marker
     *  interfaces among altMetafactory's arguments), at the instruction's line. */
    static final int R_LAMBDA = 23;
    /** As R_LAMBDA, for a method reference (`Foo::bar`, `Foo::new`): the bootstrap's implementation handle names a
     *  method of the source, not a lambda body the compiler wrote (`isLambdaBody`). */
    static final int R_METHOD_REF = 24;

    // type kinds
    static final int K_CLASS = 0, K_INTERFACE = 1, K_ENUM = 2, K_RECORD = 3, K_ANNOTATION = 4, K_MODULE = 5;

    // annotation owner kinds
    // (A_TYPE_USE: a type annotation, JVMS 4.7.20, owned by the class; `element` names the class, field or method
    // carrying it, `site` where in it; its member columns stay null, so readers of declaration annotations skip it)
    static final int A_TYPE = 0, A_METHOD = 1, A_FIELD = 2, A_PARAM = 3, A_TYPE_USE = 4;

    private final Chunk chunk;
    private final Columns cols;
    private final String entry;

    private String name;
    private int access;
    private int kind;
    private int version;
    private String signature;
    private String superName;
    private String source;
    private String outer;
    private String innerName;
    private int innerAccess = -1;
    private String outerMethod;
    private String kotlin;
    private boolean selfInner;
    private Smap smap;
    private StringBuilder permits;  // PermittedSubclasses (JVMS 4.7.31): internal names joined by ','; null: not sealed
    /** Record components (JVMS 4.7.30), one a line: `name:descriptor`, `:signature` when generic, then a tab and the
     *  text of each declaration annotation. */
    private StringBuilder components;
    /** Declaration annotations seen (`annotationKey`): a type use at the same place repeats one and is not a row. */
    private final java.util.HashSet<String> declared = new java.util.HashSet<>();
    /** (element, type) pairs of R_ANNOTATION_VALUE rows written: one row per pair. */
    private final java.util.HashSet<String> valueRefs = new java.util.HashSet<>();

    ClassExtractor(Chunk chunk, String entry, int realMajor) {
        super(API);
        this.chunk = chunk;
        this.cols = chunk.cols;
        this.entry = entry;
        this.version = realMajor;
    }

    String className() {
        return name;
    }

    boolean isModule() {
        return kind == K_MODULE;
    }

    boolean nestedBySelfEntry() {
        return selfInner;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.ordinal = 0;
        this.access = access;
        this.name = name;
        this.signature = signature;
        this.superName = superName;
        if ((access & Opcodes.ACC_MODULE) != 0) {
            kind = K_MODULE;
        } else if ((access & Opcodes.ACC_ANNOTATION) != 0) {
            kind = K_ANNOTATION;
        } else if ((access & Opcodes.ACC_INTERFACE) != 0) {
            kind = K_INTERFACE;
        } else if ((access & Opcodes.ACC_ENUM) != 0 && "java/lang/Enum".equals(superName)) {
            // a constant's body class (`Level$1 extends Level`) carries ACC_ENUM too, but is no enum type
            // (Class.isEnum: the flag and Enum as direct superclass)
            kind = K_ENUM;
        } else if ("java/lang/Record".equals(superName)) {
            kind = K_RECORD;
        } else {
            kind = K_CLASS;
        }
        int self = cols.str(name);
        if (superName != null) {
            chunk.supertypes.row(self, cols.str(superName), 0, 0);
        }
        if (interfaces != null) {
            for (int i = 0; i < interfaces.length; i++) {
                chunk.supertypes.row(self, cols.str(interfaces[i]), 1, i);
            }
        }
    }

    @Override
    public void visitSource(String source, String debug) {
        this.source = source;
        this.smap = Smap.parse(debug);
    }

    /** The next member's place in the class file (fields, then methods, each in their table's order: javac's is
     *  the source's declaration order). */
    private int ordinal;

    @Override
    public void visitOuterClass(String owner, String mname, String mdesc) {
        if (mname != null) {
            outerMethod = mname + (mdesc == null ? "" : mdesc);
        }
        if (outer == null) {
            outer = owner;
        }
    }

    @Override
    public void visitInnerClass(String iname, String outerName, String iInner, int iAccess) {
        if (iname.equals(this.name)) {
            selfInner = true;
            innerAccess = iAccess;
            innerName = iInner == null ? "" : iInner;
            if (outerName != null) {
                outer = outerName;
            }
        }
    }

    @Override
    public void visitPermittedSubclass(String permitted) {
        if (permits == null) {
            permits = new StringBuilder();
        } else {
            permits.append(',');
        }
        permits.append(permitted);
    }

    @Override
    public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
        if ("Lkotlin/Metadata;".equals(desc)) {
            return new KotlinMetadataCollector(json -> kotlin = json);
        }
        return annotation(A_TYPE, name, null, null, -1, desc, visible);
    }

    AnnotationVisitor annotation(int ownerKind, String owner, String mname, String mdesc, int param, String desc,
            boolean visible) {
        return annotation(ownerKind, owner, mname, mdesc, param, param, desc, visible);
    }

    /** `param`: the index the attribute gives (among the parameters it counts); `index`: the same parameter's among
     *  the descriptor's, in `site` (`parameter N`) for a parameter's annotation. */
    AnnotationVisitor annotation(int ownerKind, String owner, String mname, String mdesc, int param, int index,
            String desc, boolean visible) {
        declared.add(annotationKey(ownerKind, mname, mdesc, index, desc));
        String site = ownerKind == A_PARAM ? "parameter " + index : null;
        String element = ownerKind == A_TYPE ? owner : owner + "#" + mname + (ownerKind == A_FIELD ? ":" : "") + mdesc;
        return new ValuePrinter(desc, text -> chunk.annotations.row(ownerKind, cols.str(owner), cols.str(mname),
                cols.str(mdesc), param, cols.str(desc), visible ? 1 : 0, cols.str(text), cols.str(site), -1),
                valueNamer(element));
    }

    /** Where the types an annotation's values name go: one R_ANNOTATION_VALUE row per element (a class, member
     *  id) and type. */
    java.util.function.Consumer<String> valueNamer(String element) {
        return type -> {
            if (valueRefs.add(element + "|" + type)) {
                chunk.typerefs.row(cols.str(element), R_ANNOTATION_VALUE, cols.str(type), -1);
            }
        };
    }

    /** Where a declaration annotation sits, as a type use at the same place would name it. */
    static String annotationKey(int ownerKind, String mname, String mdesc, int param, String desc) {
        return ownerKind + "|" + mname + "|" + mdesc + "|" + param + "|" + desc;
    }

    /** A type annotation (JVMS 4.7.20) as an annotation row of role type use; one with no type path on a field's
     *  type, a return type or a parameter's type repeats the declaration annotation javac writes beside it (an
     *  annotation type targeting both), so it waits in `pending` and is dropped at the member's end if it does. */
    AnnotationVisitor typeUse(int ownerKind, String mname, String mdesc, int typeRef, TypePath path, String desc,
            boolean visible, java.util.List<Object[]> pending) {
        TypeReference ref = new TypeReference(typeRef);
        String key = null;
        if (path == null || path.getLength() == 0) {
            switch (ref.getSort()) {
                case TypeReference.FIELD:
                    key = annotationKey(A_FIELD, mname, mdesc, -1, desc);
                    break;
                case TypeReference.METHOD_RETURN:
                    key = annotationKey(A_METHOD, mname, mdesc, -1, desc);
                    break;
                case TypeReference.METHOD_FORMAL_PARAMETER:
                    key = annotationKey(A_PARAM, mname, mdesc, ref.getFormalParameterIndex(), desc);
                    break;
                default:
                    break;
            }
        }
        String element = mname == null ? "" : "#" + mname + (ownerKind == A_FIELD ? ":" : "") + mdesc;
        String site = "type use in " + typeSite(ref) + typePathText(path);
        String waitKey = key;
        return new ValuePrinter(desc, text -> {
            Runnable row = () -> chunk.annotations.row(A_TYPE_USE, cols.str(name), -1, -1, -1, cols.str(desc),
                    visible ? 1 : 0, cols.str(text), cols.str(site), cols.str(element));
            if (waitKey == null || pending == null) {
                row.run();
            } else {
                pending.add(new Object[] {waitKey, row});
            }
        }, valueNamer(name + element));  // (a repeat of a declaration annotation names what that one does)
    }

    /** Where inside the type a type annotation sits, when not on the type itself (JVMS 4.7.20.2): ` (type argument
     *  0)`, ` (array element)`, ` (wildcard bound)`, ` (nested type)`, steps joined by `, `; "" on the type itself
     *  (`@Nullable String` against `List<@Nullable String>`: only the first makes the value nullable). */
    static String typePathText(TypePath path) {
        if (path == null || path.getLength() == 0) {
            return "";
        }
        StringBuilder out = new StringBuilder(" (");
        for (int i = 0; i < path.getLength(); i++) {
            out.append(i == 0 ? "" : ", ");
            switch (path.getStep(i)) {
                case TypePath.ARRAY_ELEMENT: out.append("array element"); break;
                case TypePath.INNER_TYPE: out.append("nested type"); break;
                case TypePath.WILDCARD_BOUND: out.append("wildcard bound"); break;
                default: out.append("type argument ").append(path.getStepArgument(i)); break;
            }
        }
        return out.append(")").toString();
    }

    static String typeSite(TypeReference ref) {
        switch (ref.getSort()) {
            case TypeReference.CLASS_TYPE_PARAMETER: return "type parameter " + ref.getTypeParameterIndex();
            case TypeReference.METHOD_TYPE_PARAMETER: return "type parameter " + ref.getTypeParameterIndex();
            case TypeReference.CLASS_TYPE_PARAMETER_BOUND:
            case TypeReference.METHOD_TYPE_PARAMETER_BOUND:
                return "bound of type parameter " + ref.getTypeParameterIndex();
            case TypeReference.CLASS_EXTENDS:
                return ref.getSuperTypeIndex() < 0 ? "extends" : "implements " + ref.getSuperTypeIndex();
            case TypeReference.FIELD: return "field type";
            case TypeReference.METHOD_RETURN: return "return type";
            case TypeReference.METHOD_RECEIVER: return "receiver type";
            case TypeReference.METHOD_FORMAL_PARAMETER: return "parameter " + ref.getFormalParameterIndex();
            case TypeReference.THROWS: return "throws " + ref.getExceptionIndex();
            default: return "code";
        }
    }

    /** The waiting type-use rows that repeat no declaration annotation. */
    void flushTypeUses(java.util.List<Object[]> pending) {
        for (Object[] p : pending) {
            if (!declared.contains((String) p[0])) {
                ((Runnable) p[1]).run();
            }
        }
        pending.clear();
    }

    @Override
    public AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath path, String desc, boolean visible) {
        return typeUse(A_TYPE, null, null, typeRef, path, desc, visible, null);
    }

    @Override
    public RecordComponentVisitor visitRecordComponent(String cname, String cdesc, String csig) {
        if (components == null) {
            components = new StringBuilder();
        } else {
            components.append('\n');
        }
        components.append(cname).append(':').append(cdesc);
        if (csig != null) {
            components.append(':').append(csig);
        }
        return new RecordComponentVisitor(API) {
            @Override
            public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                return new ValuePrinter(desc, text -> components.append('\t').append(text));  // (texts escape tabs)
            }
        };
    }

    @Override
    public FieldVisitor visitField(int faccess, String fname, String fdesc, String fsig, Object value) {
        chunk.members.row(cols.str(name + "#" + fname + ":" + fdesc), cols.str(name), 1, cols.str(fname), cols.str(fdesc), cols.str(fsig), faccess, -1, -1, 0,
                cols.str(value == null ? null : ValuePrinter.constant(value)), -1, -1, -1, ordinal++);
        java.util.List<Object[]> pending = new java.util.ArrayList<>();
        return new FieldVisitor(API) {
            @Override
            public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                return annotation(A_FIELD, name, fname, fdesc, -1, desc, visible);
            }

            @Override
            public AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath path, String desc, boolean visible) {
                return typeUse(A_FIELD, fname, fdesc, typeRef, path, desc, visible, pending);
            }

            @Override
            public void visitEnd() {
                flushTypeUses(pending);
            }
        };
    }

    @Override
    public MethodVisitor visitMethod(int maccess, String mname, String mdesc, String msig, String[] exceptions) {
        return new MethodCollector(maccess, mname, mdesc, msig, exceptions);
    }

    /** Array descriptors name their element class; primitive arrays name none. */
    static String elementType(String name) {
        if (!name.startsWith("[")) {
            return name;
        }
        int i = 0;
        while (i < name.length() && name.charAt(i) == '[') {
            i++;
        }
        if (i < name.length() && name.charAt(i) == 'L' && name.endsWith(";")) {
            return name.substring(i + 1, name.length() - 1);
        }
        return null;
    }

    @Override
    public void visitEnd() {
        chunk.types.row(cols.str(name), kind, access, cols.str(signature), cols.str(superName), cols.str(outer),
                cols.str(innerName), innerAccess, cols.str(outerMethod), cols.str(source), version, cols.str(kotlin),
                cols.str(entry), cols.str(permits == null ? null : permits.toString()),
                cols.str(components == null ? null : components.toString()));
    }

    /** Collects one method's row, its parameter names, line range and every reference it makes. */
    private final class MethodCollector extends MethodVisitor {
        private final int maccess;
        private final String mname, mdesc, msig;
        private final String[] exceptions;
        private final int self, selfName, selfDesc, selfId;
        private int line = -1, firstLine = -1, lastLine = -1;
        private java.util.BitSet inlinedSeen;
        /** Inlined sites (key, code offset, call line), kept until the local variables say which are direct. */
        private java.util.List<Object[]> inlineSites;
        /** kotlinc's scope markers of inlined code: {start, end, 1 for a function ($i$f$), 0 for a lambda ($i$a$)}. */
        private java.util.List<int[]> markers;
        private java.util.List<String> markerNames;
        private String[] mpNames;
        private int mpCount;
        private String[] lvtNames;
        private int[] slotToParam;
        private String defaultValue;
        /** Parameters the Runtime(In)VisibleParameterAnnotations attributes count (javac may leave out synthetic
         *  leading ones: an enum's or inner class's constructor), visible and invisible; -1: not given. */
        private int annotableVisible = -1, annotableInvisible = -1;
        private final java.util.List<Object[]> pendingTypeUses = new java.util.ArrayList<>();

        MethodCollector(int maccess, String mname, String mdesc, String msig, String[] exceptions) {
            super(API);
            this.maccess = maccess;
            this.mname = mname;
            this.mdesc = mdesc;
            this.msig = msig;
            this.exceptions = exceptions;
            this.self = cols.str(name);
            this.selfName = cols.str(mname);
            this.selfDesc = cols.str(mdesc);
            this.selfId = cols.str(name + "#" + mname + mdesc);
        }

        @Override
        public void visitParameter(String pname, int paccess) {
            if (mpNames == null) {
                mpNames = new String[Type.getArgumentTypes(mdesc).length];
            }
            if (mpCount < mpNames.length) {
                mpNames[mpCount] = pname;
            }
            mpCount++;
        }

        @Override
        public AnnotationVisitor visitAnnotationDefault() {  // `Class<?> value() default Foo.class` names Foo
            return new ValuePrinter(null, text -> defaultValue = text, valueNamer(name + "#" + mname + mdesc));
        }

        @Override
        public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
            return annotation(A_METHOD, name, mname, mdesc, -1, desc, visible);
        }

        @Override
        public void visitAnnotableParameterCount(int count, boolean visible) {
            if (visible) {
                annotableVisible = count;
            } else {
                annotableInvisible = count;
            }
        }

        @Override
        public AnnotationVisitor visitParameterAnnotation(int parameter, String desc, boolean visible) {
            int n = Type.getArgumentTypes(mdesc).length;
            int counted = visible ? annotableVisible : annotableInvisible;
            int index = counted > 0 && counted < n ? parameter + (n - counted) : parameter;  // by the descriptor
            return annotation(A_PARAM, name, mname, mdesc, parameter, index, desc, visible);
        }

        @Override
        public AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath path, String desc, boolean visible) {
            return typeUse(A_METHOD, mname, mdesc, typeRef, path, desc, visible, pendingTypeUses);
        }

        @Override
        public AnnotationVisitor visitInsnAnnotation(int typeRef, TypePath path, String desc, boolean visible) {
            return typeUse(A_METHOD, mname, mdesc, typeRef, path, desc, visible, null);
        }

        @Override
        public AnnotationVisitor visitTryCatchAnnotation(int typeRef, TypePath path, String desc, boolean visible) {
            return typeUse(A_METHOD, mname, mdesc, typeRef, path, desc, visible, null);
        }

        @Override
        public AnnotationVisitor visitLocalVariableAnnotation(int typeRef, TypePath path, Label[] start, Label[] end,
                int[] index, String desc, boolean visible) {
            return typeUse(A_METHOD, mname, mdesc, typeRef, path, desc, visible, null);
        }

        @Override
        public void visitLineNumber(int ln, Label start) {
            if (smap != null && smap.virtual(ln)) {
                ln = inlinedLine(ln, start);
                if (ln < 0) {  // code copied from elsewhere, no call of this file's: the line in effect stays
                    return;
                }
            }
            line = ln;
            if (handlers != null && handlers.containsKey(start)) {
                handlerLines.put(start, ln);
            }
            if (firstLine < 0 || ln < firstLine) {
                firstLine = ln;
            }
            if (ln > lastLine) {
                lastLine = ln;
            }
        }

        /** The line of this file a virtual output line (numbered past the file's end by kotlinc, for code it inlined)
         *  stands for: the line of the call that inlined it, or -1 when the SMAP gives none (code copied, not called:
         *  an inline function's object or the lambda passed to it regenerated in this class, kotlinc's `fake.kt`
         *  lines). Records the first line of each inlined call as a site of the inline function, by its file and
         *  line. */
        private int inlinedLine(int raw, Label start) {
            int r = smap.rangeOf(raw);
            int call = smap.callLine(raw);
            if (call <= 0) {
                return -1;
            }
            Smap.Range range = r < 0 ? null : smap.inlined.get(r);
            if (range != null && range.owner != null && (inlinedSeen == null || !inlinedSeen.get(r))) {
                if (inlinedSeen == null) {
                    inlinedSeen = new java.util.BitSet();
                }
                inlinedSeen.set(r);  // one site per inlined range: the inline function, by its file and line
                int from = range.inStart + (raw - range.outStart);
                if (inlineSites == null) {
                    inlineSites = new java.util.ArrayList<>();
                }
                inlineSites.add(new Object[] {range.owner + "#@" + from, labelAt(start), call});
            }
            return call;
        }

        private void ref(int kind, String owner, String tname, String tdesc) {
            if (tname == null) {
                String type = elementType(owner);
                if (type != null) {
                    chunk.typerefs.row(selfId, kind, cols.str(type), line);
                }
            } else if (tdesc.startsWith("(")) {
                String key = (owner.startsWith("[") ? "java/lang/Object" : owner) + "#" + tname + tdesc;
                chunk.calls.row(selfId, kind, cols.str(key), line);
            } else {
                chunk.accesses.row(selfId, kind, cols.str(owner + "#" + tname + ":" + tdesc), line);
            }
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String iname, String idesc, boolean itf) {
            int k;
            switch (opcode) {
                case Opcodes.INVOKESPECIAL: k = R_INVOKESPECIAL; break;
                case Opcodes.INVOKESTATIC: k = R_INVOKESTATIC; break;
                case Opcodes.INVOKEINTERFACE: k = R_INVOKEINTERFACE; break;
                default: k = R_INVOKEVIRTUAL;
            }
            ref(k, owner, iname, idesc);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String fname, String fdesc) {
            int k;
            switch (opcode) {
                case Opcodes.GETFIELD: k = R_GETFIELD; break;
                case Opcodes.GETSTATIC: k = R_GETSTATIC; break;
                case Opcodes.PUTFIELD: k = R_PUTFIELD; break;
                default: k = R_PUTSTATIC;
            }
            ref(k, owner, fname, fdesc);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            int k;
            switch (opcode) {
                case Opcodes.NEW: k = R_NEW; break;
                case Opcodes.CHECKCAST: k = R_CHECKCAST; break;
                case Opcodes.INSTANCEOF: k = R_INSTANCEOF; break;
                default: k = R_ANEWARRAY;
            }
            ref(k, type, null, null);
        }

        @Override
        public void visitMultiANewArrayInsn(String desc, int dims) {
            ref(R_MULTIANEWARRAY, desc, null, null);
        }

        @Override
        public void visitLdcInsn(Object value) {
            if (value instanceof Type) {
                Type t = (Type) value;
                if (t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY) {
                    ref(R_CLASS_CONST, t.getInternalName(), null, null);
                }
            } else if (value instanceof Handle) {
                handle((Handle) value);
            }
        }

        private void handle(Handle h) {
            switch (h.getTag()) {
                case Opcodes.H_GETFIELD:
                case Opcodes.H_GETSTATIC:
                    ref(R_FIELD_HANDLE_GET, h.getOwner(), h.getName(), h.getDesc());
                    break;
                case Opcodes.H_PUTFIELD:
                case Opcodes.H_PUTSTATIC:
                    ref(R_FIELD_HANDLE_PUT, h.getOwner(), h.getName(), h.getDesc());
                    break;
                default:
                    ref(R_HANDLE, h.getOwner(), h.getName(), h.getDesc());
            }
        }

        /** The bootstrap method is a call of kind indy; its Handle arguments are method references (lambda bodies),
         *  its class constants references: a type pattern switch's case labels (SwitchBootstraps), else indy_arg
         *  (ObjectMethods' record class). A LambdaMetafactory site creates an instance of the interface its descriptor
         *  returns, and of the marker interfaces among altMetafactory's class constants: kind lambda, or method_ref
         *  when its implementation handle (the second argument) is no lambda body. */
        @Override
        public void visitInvokeDynamicInsn(String iname, String idesc, Handle bsm, Object... args) {
            ref(R_INDY, bsm.getOwner(), bsm.getName(), bsm.getDesc());
            boolean lambda = "java/lang/invoke/LambdaMetafactory".equals(bsm.getOwner());
            int made = lambda && args.length > 1 && args[1] instanceof Handle
                    && !isLambdaBody(((Handle) args[1]).getName()) ? R_METHOD_REF : R_LAMBDA;
            if (lambda) {
                Type returned = Type.getReturnType(idesc);
                if (returned.getSort() == Type.OBJECT) {
                    ref(made, returned.getInternalName(), null, null);
                }
            }
            int classKind = lambda ? made
                    : "java/lang/runtime/SwitchBootstraps".equals(bsm.getOwner()) ? R_CASE_LABEL : R_INDY_ARG;
            for (Object a : args) {
                if (a instanceof Handle) {
                    handle((Handle) a);
                } else if (a instanceof Type) {
                    Type t = (Type) a;
                    if (t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY) {
                        ref(classKind, t.getInternalName(), null, null);
                    }
                }
            }
        }

        /** A lambda body the compiler wrote: javac's `lambda$foo$0`, scalac's `$anonfun$foo$1`, kotlinc 2's
         *  `foo$lambda$0` (kotlinc 1.x with -Xlambdas=indy: `foo$lambda-0`); as graph_schema's LAMBDA_BODY reads a
         *  method id. */
        private boolean isLambdaBody(String method) {
            return method.startsWith("lambda$") || method.startsWith("$anonfun$") || method.contains("$lambda$")
                    || method.contains("$lambda-");
        }

        /** Catch clauses: handler label -> the types it catches, in exception-table order. javac splits one clause's
         *  try range into several entries (around code a finally inlines), all with the clause's handler: a clause is
         *  one handler and type, not one entry. */
        private java.util.LinkedHashMap<Label, java.util.LinkedHashSet<String>> handlers;
        /** The line of each handler's first instruction, known once code order reaches it. */
        private java.util.IdentityHashMap<Label, Integer> handlerLines;

        @Override
        public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
            if (type != null) {  // null: a finally, which names no type
                if (handlers == null) {
                    handlers = new java.util.LinkedHashMap<>();
                    handlerLines = new java.util.IdentityHashMap<>();
                }
                handlers.computeIfAbsent(handler, h -> new java.util.LinkedHashSet<>()).add(type);
            }
        }

        /** One typeref per catch clause and type, at its handler's line; the exception table comes before the code
         *  (and its lines), so the rows wait for the method's end. */
        private void catchRows() {
            for (java.util.Map.Entry<Label, java.util.LinkedHashSet<String>> h : handlers.entrySet()) {
                Integer at = handlerLines.get(h.getKey());
                for (String type : h.getValue()) {  // a class, never an array (JVMS 4.7.3)
                    chunk.typerefs.row(selfId, R_CATCH, cols.str(type), at == null ? -1 : at);
                }
            }
        }

        @Override
        public void visitLocalVariable(String lname, String ldesc, String lsig, Label start, Label end, int index) {
            if (inlineSites != null && (lname.startsWith("$i$f$") || lname.startsWith("$i$a$"))
                    && !lname.equals("$i$f$" + mname)) {  // (an inline function marks its own body too)
                if (markers == null) {
                    markers = new java.util.ArrayList<>();
                    markerNames = new java.util.ArrayList<>();
                }
                markers.add(new int[] {labelAt(start), labelAt(end), lname.startsWith("$i$f$") ? 1 : 0});
                markerNames.add(lname);
            }
            if (slotToParam == null) {
                Type[] args = Type.getArgumentTypes(mdesc);
                lvtNames = new String[args.length];
                int slot = (maccess & Opcodes.ACC_STATIC) != 0 ? 0 : 1;
                int max = slot;
                for (Type a : args) {
                    max += a.getSize();
                }
                slotToParam = new int[max];
                java.util.Arrays.fill(slotToParam, -1);
                for (int i = 0; i < args.length; i++) {
                    slotToParam[slot] = i;
                    slot += args[i].getSize();
                }
            }
            if (index < slotToParam.length && slotToParam[index] >= 0 && lvtNames[slotToParam[index]] == null) {
                lvtNames[slotToParam[index]] = lname;
            }
        }

        /** Names joined by ','; a parameter the class file does not name (an enum constructor's synthetic
         *  name and ordinal) stays empty, but at least one name must be known. */
        private String joinNames(String[] names) {
            if (names == null) {
                return null;
            }
            StringBuilder sb = new StringBuilder();
            boolean any = false;
            for (int i = 0; i < names.length; i++) {
                String n = names[i] == null ? "" : names[i];
                if (n.indexOf(',') >= 0) {
                    return null;
                }
                any |= !n.isEmpty();
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(n);
            }
            return any ? sb.toString() : null;
        }

        /** Labels in code order (a reader's labels have no resolved offset): with a SMAP only. */
        private java.util.IdentityHashMap<Label, Integer> labels;

        @Override
        public void visitLabel(Label label) {
            if (handlers != null && handlers.containsKey(label)) {
                handlerLines.put(label, line);  // the line entry covering it, unless one starts here (visited next)
            }
            if (smap != null) {
                if (labels == null) {
                    labels = new java.util.IdentityHashMap<>();
                }
                labels.putIfAbsent(label, labels.size());
            }
        }

        private int labelAt(Label label) {
            Integer at = labels == null ? null : labels.get(label);
            return at == null ? -1 : at;
        }

        /** Innermost marker holding [from, to) other than `not`, or -1; `funOnly`: function markers only. */
        private int innermost(int from, int to, int not, boolean funOnly) {
            int best = -1;
            for (int i = 0; i < markers.size(); i++) {
                int[] m = markers.get(i);
                if (i == not || m[0] > from || m[1] < to || (funOnly && m[2] == 0)) {
                    continue;
                }
                if (best < 0 || m[1] - m[0] < markers.get(best)[1] - markers.get(best)[0]) {
                    best = i;
                }
            }
            return best;
        }

        /** The inlined sites that are this method's own calls: code an inline function inlined in turn (its marker
         *  inside another inline function's, not inside a lambda this class declares) is that function's call. A site
         *  where a function's marker starts names that function: {@code owner#@line#name}. */
        private void inlineRows() {
            String simple = name.substring(name.lastIndexOf('/') + 1) + "$";
            for (Object[] site : inlineSites) {
                int offset = (Integer) site[1];
                String key = (String) site[0];
                if (markers != null) {
                    int f = innermost(offset, offset + 1, -1, true);
                    int outer = f < 0 ? -1 : innermost(markers.get(f)[0], markers.get(f)[1], f, false);
                    if (outer >= 0 && (markers.get(outer)[2] == 1
                            || markerNames.get(outer).indexOf("-" + simple) < 0)) {
                        continue;
                    }
                    if (f >= 0 && markers.get(f)[0] == offset) {
                        key += "#" + markerNames.get(f).substring(5);  // `$i$f$firstOrNull`: the function inlined here
                    }
                }
                chunk.calls.row(selfId, R_INLINE, cols.str(key), (Integer) site[2]);
            }
        }

        @Override
        public void visitEnd() {
            flushTypeUses(pendingTypeUses);
            if (handlers != null) {
                catchRows();
            }
            if (inlineSites != null) {
                inlineRows();
            }
            String params = null;
            int psrc = 0;
            if (mpNames != null && mpCount == mpNames.length) {
                params = joinNames(mpNames);
                psrc = params == null ? 0 : 1;
            }
            if (params == null && lvtNames != null) {
                params = joinNames(lvtNames);
                psrc = params == null ? 0 : 2;
            }
            if (params == null && Type.getArgumentTypes(mdesc).length == 0) {
                params = "";
                psrc = mpNames != null ? 1 : (lvtNames != null ? 2 : 0);
            }
            String exc = exceptions == null || exceptions.length == 0 ? null : String.join(",", exceptions);
            chunk.members.row(selfId, self, 0, selfName, selfDesc, cols.str(msig), maccess, cols.str(exc), cols.str(params),
                    psrc, -1, cols.str(defaultValue), firstLine, lastLine, ordinal++);
        }
    }
}

"""The diff fixture suite: for every Java rule of spec §7.7, an old/new pair of sources that triggers exactly that
rule, and for most a caller compiled against the old library and run against the new one, with the error JLS §13
predicts (None: it must still link and run)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Case:
    name: str  # the package is p_<name>, the caller's c_<name>
    rule: str
    old: dict[str, str]  # class name -> source after the package line
    new: dict[str, str]
    caller: str | None = None  # body of c_<name>.Caller#run() (and extra classes before it)
    expect: str | None = None  # the Throwable class running against the new library must raise
    driver: str | None = None  # body of c_<name>.Driver#run(), compiled against the new library
    extra: dict[str, str] = field(default_factory=dict)  # more caller-side classes (compiled against old)
    nodebug: bool = False  # compile the new side without -g
    edits: tuple[tuple[str, str, str, str], ...] = ()  # (side, class, member, flag) applied after javac: see EDITS


# what javac never emits but kotlinc does, written into the compiled classes (DiffFixtures.java): `synthetic` on a
# declared member (Kotlin's @Deprecated(level = HIDDEN)); `public` on an anonymous or local class, member "" (kotlinc
# marks anonymous objects public)
EDITS = ("synthetic", "public")
RUNTIME = "@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME) "

CASES = [
    # ---- BREAKING ----
    Case("type_removed", "TYPE_REMOVED",
         {"Gone": "public class Gone { public static int f() { return 1; } }", "Stay": "public class Stay {}"},
         {"Stay": "public class Stay {}"},
         "p_type_removed.Gone.f();", "NoClassDefFoundError"),
    Case("type_kind_changed", "TYPE_KIND_CHANGED",
         {"K": "public class K { private K() {} public static int f() { return 1; } }"},
         {"K": "public interface K { static int f() { return 1; } }"},
         "p_type_kind_changed.K.f();", "IncompatibleClassChangeError"),
    Case("type_visibility_narrowed", "TYPE_VISIBILITY_NARROWED",
         {"V": "public class V { public static int f() { return 1; } }"},
         {"V": "class V { public static int f() { return 1; } }"},
         "p_type_visibility_narrowed.V.f();", "IllegalAccessError"),
    Case("type_made_final", "TYPE_MADE_FINAL",
         {"F": "public class F { public F() {} }"}, {"F": "public final class F { public F() {} }"},
         "new Sub();", "IncompatibleClassChangeError",
         extra={"Sub": "class Sub extends p_type_made_final.F {}"}),
    Case("supertype_removed", "SUPERTYPE_REMOVED",
         {"I": "public interface I { int m(); }", "C": "public class C implements I { public int m() { return 1; } }"},
         {"I": "public interface I { int m(); }", "C": "public class C { public int m() { return 1; } }"},
         "p_supertype_removed.I i = new p_supertype_removed.C(); i.m();", "IncompatibleClassChangeError"),
    Case("member_removed", "MEMBER_REMOVED",
         {"R": "public class R { public static int gone() { return 1; } public static int kept() { return 2; } }"},
         {"R": "public class R { public static int kept() { return 2; } }"},
         "p_member_removed.R.gone();", "NoSuchMethodError"),
    Case("member_visibility_narrowed", "MEMBER_VISIBILITY_NARROWED",
         {"N": "public class N { public static int m() { return 1; } }"},
         {"N": "public class N { private static int m() { return 1; } }"},
         "p_member_visibility_narrowed.N.m();", "IllegalAccessError"),
    Case("member_made_final", "MEMBER_MADE_FINAL",
         {"B": "public class B { public int m() { return 1; } }"},
         {"B": "public class B { public final int m() { return 1; } }"},
         "new Sub().m();", "IncompatibleClassChangeError",
         extra={"Sub": "class Sub extends p_member_made_final.B { public int m() { return 2; } }"}),
    Case("member_made_final_field", "MEMBER_MADE_FINAL",
         {"B": "public class B { public static int counter; }"},
         {"B": "public class B { public static final int counter; static { counter = 0; } }"},
         "p_member_made_final_field.B.counter = 3;", "IllegalAccessError"),
    Case("static_to_instance", "STATIC_TO_INSTANCE",
         {"S": "public class S { public static int m() { return 1; } }"},
         {"S": "public class S { public int m() { return 1; } }"},
         "p_static_to_instance.S.m();", "IncompatibleClassChangeError"),
    Case("instance_to_static", "INSTANCE_TO_STATIC",
         {"S": "public class S { public int m() { return 1; } }"},
         {"S": "public class S { public static int m() { return 1; } }"},
         "new p_instance_to_static.S().m();", "IncompatibleClassChangeError"),
    Case("abstract_added", "ABSTRACT_ADDED",
         {"A": "public class A { public A() {} }"}, {"A": "public abstract class A { public A() {} }"},
         "new p_abstract_added.A();", "InstantiationError"),
    Case("abstract_added_method", "ABSTRACT_ADDED",
         {"AM": "public abstract class AM { public int base() { return 0; } }"},
         {"AM": "public abstract class AM { public int base() { return 0; } public abstract int more(); }"},
         "new Impl().base();", "AbstractMethodError",
         driver="p_abstract_added_method.AM a = new Impl(); a.more();",
         extra={"Impl": "public class Impl extends p_abstract_added_method.AM {}"}),
    Case("interface_method_added", "INTERFACE_METHOD_ADDED",
         {"IM": "public interface IM { int a(); }"}, {"IM": "public interface IM { int a(); int b(); }"},
         "new Impl().a();", "AbstractMethodError",
         driver="p_interface_method_added.IM i = new Impl(); i.b();",
         extra={"Impl": "public class Impl implements p_interface_method_added.IM { public int a() { return 1; } }"}),
    Case("enum_constant_removed", "ENUM_CONSTANT_REMOVED",
         {"E": "public enum E { A, B }"}, {"E": "public enum E { A }"},
         "p_enum_constant_removed.E.B.name();", "NoSuchFieldError"),
    Case("parameter_type_changed", "PARAMETER_TYPE_CHANGED",
         {"P": "public class P { public static int m(int x) { return 1; } }"},
         {"P": "public class P { public static int m(long x) { return 1; } }"},
         "p_parameter_type_changed.P.m(1);", "NoSuchMethodError"),
    Case("return_type_changed", "RETURN_TYPE_CHANGED",
         {"T": "public class T { public static int m() { return 1; } }"},
         {"T": "public class T { public static long m() { return 1; } }"},
         "p_return_type_changed.T.m();", "NoSuchMethodError"),
    Case("field_type_changed", "FIELD_TYPE_CHANGED",
         {"T": "public class T { public static int f = 1; }"}, {"T": "public class T { public static long f = 1; }"},
         "int x = p_field_type_changed.T.f;", "NoSuchFieldError"),
    # ---- SUSPICIOUS (binary compatible by the letter of JLS §13.5: the old caller still links) ----
    Case("member_made_synthetic", "MEMBER_MADE_SYNTHETIC",
         {"H": "public class H { public static int old() { return 1; } public static int neu() { return 2; } }"},
         {"H": "public class H { public static int old() { return 1; } public static int neu() { return 2; } }"},
         "p_member_made_synthetic.H.old();", edits=(("new", "H", "old", "synthetic"),)),
    Case("member_moved_to_supertype", "MEMBER_MOVED_TO_SUPERTYPE",
         {"Base": "public class Base { public int m() { return 0; } }",
          "Sub": "public class Sub extends Base { public int m() { return 1; } }"},
         {"Base": "public class Base { public int m() { return 0; } }", "Sub": "public class Sub extends Base {}"},
         "new p_member_moved_to_supertype.Sub().m();"),
    Case("generic_signature_changed", "GENERIC_SIGNATURE_CHANGED",
         {"G": "public class G { public static java.util.List<String> m() { return null; } }"},
         {"G": "public class G { public static java.util.List<Integer> m() { return null; } }"},
         "p_generic_signature_changed.G.m();"),
    Case("checked_exception_added", "CHECKED_EXCEPTION_ADDED",
         {"X": "public class X { public static void m() {} }"},
         {"X": "public class X { public static void m() throws java.io.IOException {} }"},
         "p_checked_exception_added.X.m();"),
    Case("varargs_changed", "VARARGS_CHANGED",
         {"V": "public class V { public static int m(int[] a) { return 1; } }"},
         {"V": "public class V { public static int m(int... a) { return 1; } }"},
         "p_varargs_changed.V.m(new int[] {1});"),
    Case("native_added", "NATIVE_ADDED",
         {"N": "public class N { public static int m() { return 1; } public static int other() { return 2; } }"},
         {"N": "public class N { public static native int m(); public static int other() { return 2; } }"},
         "p_native_added.N.other();"),
    Case("native_removed", "NATIVE_REMOVED",
         {"N": "public class N { public static native int m(); public static int other() { return 2; } }"},
         {"N": "public class N { public static int m() { return 1; } public static int other() { return 2; } }"},
         "p_native_removed.N.other();"),
    # ---- INFO ----
    Case("type_added", "TYPE_ADDED", {"Stay": "public class Stay {}"},
         {"Stay": "public class Stay {}", "Added": "public class Added {}"}, "new p_type_added.Stay();"),
    Case("supertype_added", "SUPERTYPE_ADDED",
         {"Marker": "public interface Marker {}", "C": "public class C {}"},
         {"Marker": "public interface Marker {}", "C": "public class C implements Marker {}"},
         "new p_supertype_added.C();"),
    Case("member_added", "MEMBER_ADDED",
         {"M": "public class M { public static int a() { return 1; } }"},
         {"M": "public class M { public static int a() { return 1; } public static int b() { return 2; } }"},
         "p_member_added.M.a();"),
    Case("final_removed", "FINAL_REMOVED", {"F": "public final class F {}"}, {"F": "public class F {}"},
         "new p_final_removed.F();"),
    Case("abstract_removed", "ABSTRACT_REMOVED",
         {"A": "public abstract class A { public A() {} public int m() { return 1; } }"},
         {"A": "public class A { public A() {} public int m() { return 1; } }"},
         "new Sub().m();", extra={"Sub": "class Sub extends p_abstract_removed.A {}"}),
    Case("annotation_added", "ANNOTATION_ADDED",
         {"Tag": RUNTIME + "public @interface Tag {}", "U": "public class U { public static int m() { return 1; } }"},
         {"Tag": RUNTIME + "public @interface Tag {}",
          "U": "public class U { @Tag public static int m() { return 1; } }"},
         "p_annotation_added.U.m();"),
    Case("annotation_removed", "ANNOTATION_REMOVED",
         {"Tag": RUNTIME + "public @interface Tag {}",
          "U": "@Tag public class U { public static int m() { return 1; } }"},
         {"Tag": RUNTIME + "public @interface Tag {}", "U": "public class U { public static int m() { return 1; } }"},
         "p_annotation_removed.U.m();"),
    Case("annotation_values_changed", "ANNOTATION_VALUES_CHANGED",
         {"Tag": RUNTIME + "public @interface Tag { String value(); }",
          "U": "public class U { @Tag(\"a\") public static int m() { return 1; } }"},
         {"Tag": RUNTIME + "public @interface Tag { String value(); }",
          "U": "public class U { @Tag(\"b\") public static int m() { return 1; } }"},
         "p_annotation_values_changed.U.m();"),
    Case("deprecated_added", "DEPRECATED_ADDED",
         {"D": "public class D { public static int m() { return 1; } }"},
         {"D": "public class D { @Deprecated public static int m() { return 1; } }"},
         "p_deprecated_added.D.m();"),
    Case("deprecated_removed", "DEPRECATED_REMOVED",
         {"D": "@Deprecated public class D { public static int m() { return 1; } }"},
         {"D": "public class D { public static int m() { return 1; } }"},
         "p_deprecated_removed.D.m();"),
    Case("throws_removed", "THROWS_REMOVED",  # unchecked: info (a checked one a catch names is suspicious: test_diff_t40)
         {"X": "public class X { public static void m() throws IllegalStateException {} }"},
         {"X": "public class X { public static void m() {} }"},
         "try { p_throws_removed.X.m(); } catch (Exception e) { throw new RuntimeException(e); }"),
    Case("parameter_name_changed", "PARAMETER_NAME_CHANGED",
         {"P": "public class P { public static int m(int a) { return a; } }"},
         {"P": "public class P { public static int m(int b) { return b; } }"},
         "p_parameter_name_changed.P.m(1);"),
    Case("parameter_names_lost", "PARAMETER_NAMES_LOST",
         {"P": "public class P { public static int m(int a) { return a; } }"},
         {"P": "public class P { public static int m(int a) { return a; } }"},
         "p_parameter_names_lost.P.m(1);", nodebug=True),
    Case("synchronized_added", "SYNCHRONIZED_ADDED",
         {"Y": "public class Y { public static int m() { return 1; } }"},
         {"Y": "public class Y { public static synchronized int m() { return 1; } }"},
         "p_synchronized_added.Y.m();"),
    Case("synchronized_removed", "SYNCHRONIZED_REMOVED",
         {"Y": "public class Y { public static synchronized int m() { return 1; } }"},
         {"Y": "public class Y { public static int m() { return 1; } }"},
         "p_synchronized_removed.Y.m();"),
    Case("transient_changed", "TRANSIENT_CHANGED",
         {"T": "public class T { public int f; }"}, {"T": "public class T { public transient int f; }"},
         "new p_transient_changed.T().f = 2;"),
    Case("field_constant_value_changed", "FIELD_CONSTANT_VALUE_CHANGED",
         {"K": "public class K { public static final int LIMIT = 1; }"},
         {"K": "public class K { public static final int LIMIT = 2; }"},
         "if (p_field_constant_value_changed.K.LIMIT != 1) throw new AssertionError(\"inlined\");"),
    Case("annotation_default_changed", "ANNOTATION_DEFAULT_CHANGED",
         {"Cfg": RUNTIME + "public @interface Cfg { int v() default 1; }"},
         {"Cfg": RUNTIME + "public @interface Cfg { int v() default 2; }"},
         "Class<?> c = p_annotation_default_changed.Cfg.class;"),
    # departures from spec §7.7 found by an agent trial (docs/diff.md); the JVM's verdict on each is also checked by
    # tests/diff/test_trial_jvm.py. A type made sealed: an old subclass outside fails to load (JVMS §5.3.5)
    Case("type_made_sealed", "TYPE_MADE_SEALED",
         {"C": "public abstract class C { public static final class D extends C {} }"},
         {"C": "public abstract sealed class C permits C.D { public static final class D extends C {} }"},
         "new Sub();", "IncompatibleClassChangeError",
         extra={"Sub": "class Sub extends p_type_made_sealed.C {}"}),
    # a static method made final: a compiled subclass hiding it still links and runs (JLS §13.4.17)
    Case("static_method_made_final", "STATIC_METHOD_MADE_FINAL",
         {"B": "public class B { public static int s() { return 1; } }"},
         {"B": "public class B { public static final int s() { return 1; } }"},
         "Sub.s(); new Sub();",
         extra={"Sub": "class Sub extends p_static_method_made_final.B { public static int s() { return 2; } }"}),
    # an annotation element losing its default: reading an annotation that omitted it throws
    # IncompleteAnnotationException (no linkage error, so its caller is in test_trial_jvm.py)
    Case("annotation_default_removed", "ANNOTATION_DEFAULT_REMOVED",
         {"Cfg": RUNTIME + "public @interface Cfg { int v() default 1; }"},
         {"Cfg": RUNTIME + "public @interface Cfg { int v(); }"}),
    # a sealed type's permitted subtypes growing, shrinking or no longer closed: compiled callers link; exhaustive
    # switches over it (Java 21, test_trial_f.py) no longer compile, and a compiled one throws MatchException. The
    # subtypes are package-private, so nothing else is API
    Case("sealed_permits_added", "SEALED_PERMITS_ADDED",
         {"S": "public sealed interface S permits A { }", "A": "final class A implements S { }"},
         {"S": "public sealed interface S permits A, B { }", "A": "final class A implements S { }",
          "B": "final class B implements S { }"},
         "Class<?> c = p_sealed_permits_added.S.class; c.getName();"),
    Case("sealed_permits_removed", "SEALED_PERMITS_REMOVED",
         {"S": "public sealed interface S permits A, B { }", "A": "final class A implements S { }",
          "B": "final class B implements S { }"},
         {"S": "public sealed interface S permits A { }", "A": "final class A implements S { }",
          "B": "final class B { }"},
         "Class<?> c = p_sealed_permits_removed.S.class; c.getName();"),
    Case("type_no_longer_sealed", "TYPE_NO_LONGER_SEALED",
         {"S": "public sealed interface S permits A { }", "A": "final class A implements S { }"},
         {"S": "public interface S { }", "A": "final class A implements S { }"},
         "Class<?> c = p_type_no_longer_sealed.S.class; c.getName();"),
    # a final class made a record with the same members: every compiled caller links
    Case("type_became_record", "TYPE_BECAME_RECORD",
         {"P": "public final class P { private final int x; public P(int x) { this.x = x; }"
               " public int x() { return x; } public final boolean equals(Object o) { return o == this; }"
               " public final int hashCode() { return x; } public final String toString() { return \"P\"; } }"},
         {"P": "public record P(int x) { }"},
         "p_type_became_record.P p = new p_type_became_record.P(1); p.x(); p.toString(); p.equals(p);"),
    # a record made a class with the same members: java.lang.Record is no longer a supertype (VerifyError)
    Case("type_no_longer_record", "TYPE_NO_LONGER_RECORD",
         {"P": "public record P(int x) { }"},
         {"P": "public final class P { private final int x; public P(int x) { this.x = x; }"
               " public int x() { return x; } public final boolean equals(Object o) { return o == this; }"
               " public final int hashCode() { return x; } public final String toString() { return \"P\"; } }"},
         "java.lang.Record r = new p_type_no_longer_record.P(1); r.hashCode();", "VerifyError"),
    # a method made more visible: a compiled subclass overriding it with the old access still links and runs, its
    # source no longer compiles (weaker access); the JVM verdict is "links"
    Case("method_visibility_widened", "METHOD_VISIBILITY_WIDENED",
         {"W": "public class W { public W() {} protected int m() { return 1; } }"},
         {"W": "public class W { public W() {} public int m() { return 1; } }"},
         "new Sub().m();",
         extra={"Sub": "class Sub extends p_method_visibility_widened.W { protected int m() { return 2; } }"}),
]

JAVA_RULES_COVERED = sorted({c.rule for c in CASES})


@dataclass(frozen=True)
class Scenario:
    """A multi-finding shape (pairing, inheritance): the exact multiset of rules the diff must report."""

    name: str
    old: dict[str, str]
    new: dict[str, str]
    rules: tuple[str, ...]
    detail_contains: tuple[tuple[str, str], ...] = ()  # (rule, text its detail must hold)
    all_rules: tuple[str, ...] | None = None  # with --visibility all (None: the same as `rules`)
    synthetic_rules: tuple[str, ...] | None = None  # with --visibility all --include-synthetic
    edits: tuple[tuple[str, str, str, str], ...] = ()  # (side, class, member, flag) applied after javac: see EDITS


SYNTHETIC_FLIPS = "public class S { public int hidden() { return 1; } public int shown() { return 2; } public int f; }"
SCENARIOS = [
    # two removals and two additions of one shape: never paired (spec §3.3)
    Scenario("ambiguous_bucket",
             {"A": "public class A { public static void m(int a) {} public static void m(char a) {} }"},
             {"A": "public class A { public static void m(long a) {} public static void m(double a) {} }"},
             ("MEMBER_ADDED", "MEMBER_ADDED", "MEMBER_REMOVED", "MEMBER_REMOVED"),
             (("MEMBER_REMOVED", "not paired: 2 removed and 2 added"),)),
    # a supertype outside the artifact that the JDK holds: looked up there, it does not declare the member, so the
    # removal is proven (no hedge; a supertype outside the JDK too is hedged: tests/diff/test_no_double_findings.py)
    Scenario("missing_supertype",
             {"L": "public abstract class L extends java.util.AbstractList<String> { public int extra() { return 0; }"
                   " public String get(int i) { return null; } public int size() { return 0; } }"},
             {"L": "public abstract class L extends java.util.AbstractList<String> {"
                   " public String get(int i) { return null; } public int size() { return 0; } }"},
             ("MEMBER_REMOVED",)),
    # a public type re-exports what it inherits from a package-private supertype
    Scenario("hidden_supertype_member",
             {"H": "abstract class H { public int m() { return 1; } }", "P": "public class P extends H {}"},
             {"H": "abstract class H {}", "P": "public class P extends H {}"},
             ("MEMBER_REMOVED",), (("MEMBER_REMOVED", "inherited from non-public"),),
             # with synthetic members: javac's public access bridge P#m() goes too
             synthetic_rules=("MEMBER_REMOVED", "MEMBER_REMOVED")),
    # private members count only with --visibility all; a lambda's synthetic body only with --include-synthetic
    Scenario("private_and_synthetic",
             {"Q": "public class Q { private static int helper() { return 1; }"
                   " public static Runnable r() { return () -> {}; } }"},
             {"Q": "public class Q { public static Runnable r() { return null; } }"},
             (), all_rules=("MEMBER_REMOVED",), synthetic_rules=("MEMBER_REMOVED", "MEMBER_REMOVED")),
    # a member made synthetic is no removal (compiled callers still link), one no longer synthetic an addition
    Scenario("synthetic_flips",
             {"S": SYNTHETIC_FLIPS}, {"S": SYNTHETIC_FLIPS},
             ("MEMBER_MADE_SYNTHETIC", "MEMBER_MADE_SYNTHETIC", "MEMBER_ADDED"),
             (("MEMBER_MADE_SYNTHETIC", "compiled callers still link, but sources can no longer call it"),
              ("MEMBER_ADDED", "was synthetic")),
             edits=(("new", "S", "hidden", "synthetic"), ("new", "S", "f", "synthetic"),
                    ("old", "S", "shown", "synthetic"))),
    # anonymous and local classes are never API, even public as kotlinc emits anonymous objects; javac's
    # (package-private, H$3) count only with --visibility all, as before
    Scenario("public_anonymous",
             {"H": "public class H { public Object a() { return new Object() { public int extra() { return 1; } }; }"
                   " public Runnable b() { return new Runnable() { public void run() {} }; }"
                   " public Runnable d() { return new Runnable() { public void run() {} }; } }"},
             {"H": "public class H { public Object a() { return new Object() {}; } public Runnable b() { return null; }"
                   " public Runnable d() { return null; }"
                   " public Object c() { class Local { public int x; } return new Local(); } }"},
             ("MEMBER_ADDED",),
             all_rules=("MEMBER_ADDED", "MEMBER_REMOVED", "TYPE_ADDED", "TYPE_REMOVED", "TYPE_REMOVED"),
             edits=(("old", "H$1", "", "public"), ("old", "H$2", "", "public"), ("new", "H$1", "", "public"),
                    ("new", "H$1Local", "", "public"))),
    # an Object method redeclared abstract in an interface is not a new obligation
    Scenario("object_method_redeclared",
             {"I": "public interface I { int a(); }"},
             {"I": "public interface I { int a(); boolean equals(Object o); }"},
             ("MEMBER_ADDED",), (("MEMBER_ADDED", "already inherited from java.lang.Object"),)),
    # a class removed from the supertypes cannot come back through an interface the artifact lacks; an interface can
    # (but not through java.io.Serializable, which extends nothing)
    Scenario("supertype_removed_beside_a_missing_interface",
             {"B": "public class B {}", "I": "public interface I {}",
              "C": "public class C extends B implements Runnable { public void run() {} }",
              "D": "public class D implements I, Runnable, java.io.Serializable { public void run() {} }"},
             {"B": "public class B {}", "I": "public interface I {}",
              "C": "public class C implements Runnable { public void run() {} }",
              "D": "public class D implements Runnable, java.io.Serializable { public void run() {} }"},
             ("SUPERTYPE_REMOVED", "SUPERTYPE_REMOVED"),
             (("SUPERTYPE_REMOVED", "supertype_removed_beside_a_missing_interface.I"),)),
    # JLS §4.5.1: `? extends Object` is `?`; a type parameter's name is not API, its position is: no finding
    Scenario("generic_equivalents",
             {"W": "public class W<T> { public java.util.List<?> a() { return null; }"
                   " public java.util.Map<String, ? extends Object> f;"
                   " public <E> E b(java.util.List<E> x) { return null; } public T c() { return null; } }"},
             {"W": "public class W<U> { public java.util.List<? extends Object> a() { return null; }"
                   " public java.util.Map<String, ?> f;"
                   " public <F> F b(java.util.List<F> x) { return null; } public U c() { return null; } }"},
             ()),
    # ... while a changed bound, swapped type parameters or `? super Object` for `?` still are
    Scenario("generic_real_changes",
             {"R": "public class R<A, B> { public <E> java.util.List<E> b(java.util.List<E> x) { return null; }"
                   " public java.util.Map<A, B> s() { return null; }"
                   " public java.util.List<?> w() { return null; } }"},
             {"R": "public class R<A, B> { public <E> java.util.List<E> b(java.util.List<? extends E> x) {"
                   " return null; } public java.util.Map<B, A> s() { return null; }"
                   " public java.util.List<? super Object> w() { return null; } }"},
             ("GENERIC_SIGNATURE_CHANGED",) * 3,
             (("GENERIC_SIGNATURE_CHANGED", "java.util.Map<B, A>"),
              ("GENERIC_SIGNATURE_CHANGED", "java.util.List<? super java.lang.Object>"))),
    # an interface the artifact does not hold can hand down only a public instance method or a public constant,
    # and java.io.Serializable nothing (jackson-databind 2.17 -> 2.18: protected methods were hedged through it)
    Scenario("removed_beside_missing_interfaces",
             {"Q": "public class Q implements java.io.Serializable, Runnable { public void run() {}"
                   " protected void p() {} public static void s() {} public void i() {} }"},
             {"Q": "public class Q implements java.io.Serializable, Runnable { public void run() {} }"},
             ("MEMBER_REMOVED",) * 3),
    # a new supertype that brings abstract methods breaks implementors as a method added to the type would
    # (commons-text 1.10 -> 1.12: `Builder<T> extends java.util.function.Supplier<T>`, looked up in the running JDK);
    # a default method, equals and a method a superclass implements do not; a JDK supertype outside java.base is read
    # from its module (javax.naming.Referenceable brings getReference())
    Scenario("supertype_brings_abstract_methods",
             {"B": "public interface B<T> { T build(); }",
              "K": "public abstract class K { public abstract int a(); }",
              "B2": "public interface B2<T> { T build(); }",
              "K2": "public abstract class K2 { }"},
             {"B": "public interface B<T> extends S<T> { T build(); }",
              "S": "public interface S<T> { T get(); default int size() { return 0; } boolean equals(Object o); }",
              "K": "public abstract class K extends Base implements Runnable { public abstract int a(); }",
              "Base": "public abstract class Base { public abstract void more(); public void run() {} }",
              "B2": "public interface B2<T> extends java.util.function.Supplier<T> { T build(); }",
              "K2": "public abstract class K2 implements javax.naming.Referenceable { }"},
             ("INTERFACE_METHOD_ADDED", "INTERFACE_METHOD_ADDED", "ABSTRACT_ADDED", "ABSTRACT_ADDED")
             + ("SUPERTYPE_ADDED",) * 5 + ("TYPE_ADDED",) * 2,
             (("INTERFACE_METHOD_ADDED", "inherited from the new supertype p_supertype_brings_abstract_methods.S"),
              ("INTERFACE_METHOD_ADDED", "inherited from the new supertype java.util.function.Supplier"),
              ("ABSTRACT_ADDED", "subclasses outside the artifact must now implement it"),
              ("ABSTRACT_ADDED", "inherited from the new supertype javax.naming.Referenceable"))),
    # a long annotation whose one element changed prints that element only (picocli's @Command descriptions)
    Scenario("annotation_one_long_element_changed",
             {"Cmd": RUNTIME + "public @interface Cmd { String name(); String[] description(); String version(); }",
              "C": '@Cmd(name = "run", description = {"Runs the given task, then waits for it, printing, as it goes,",'
                   ' "every step it takes (see the manual)"}, version = "1.0") public class C {}'},
             {"Cmd": RUNTIME + "public @interface Cmd { String name(); String[] description(); String version(); }",
              "C": '@Cmd(name = "run", description = {"Runs the given task, then waits for it, printing, as it goes,",'
                   ' "every step it takes (see the manual)"}, version = "1.1") public class C {}'},
             ("ANNOTATION_VALUES_CHANGED",),
             (("ANNOTATION_VALUES_CHANGED", 'Cmd: version="1.0" -> "1.1"'),)),
    # a raw class gaining a parameterized interface gets a Signature attribute for it: the new supertype is
    # SUPERTYPE_ADDED's, the class's generics did not change (picocli 4.6.2 -> 4.7.7 `HelpCommand`)...
    Scenario("class_gains_parameterized_interface",
             {"H": "public class H implements Runnable { public void run() {} }",
              "G": "public class G<T> implements Comparable<G<T>> { public int compareTo(G<T> o) { return 0; } }"},
             {"H": "public class H implements Runnable, java.util.concurrent.Callable<Integer> {"
                   " public void run() {} public Integer call() { return 0; } }",
              "G": "public class G<T> implements Comparable<G<T>>, java.util.function.Supplier<T> {"
                   " public int compareTo(G<T> o) { return 0; } public T get() { return null; } }"},
             ("SUPERTYPE_ADDED", "MEMBER_ADDED") * 2,
             # the bridge javac writes for `Integer call()`, told apart by its detail
             synthetic_rules=("SUPERTYPE_ADDED", "MEMBER_ADDED") * 2 + ("MEMBER_ADDED",)),
    # ... while the arguments of a supertype both versions name still are a change
    Scenario("class_supertype_arguments_changed",
             {"K": "public class K implements Comparable<K> { public int compareTo(K o) { return 0; } }",
              "L": "public class L implements Comparable { public int compareTo(Object o) { return 0; } }"},
             {"K": "public class K implements Comparable<String> { public int compareTo(String o) { return 0; }"
                   " public int compareTo(K o) { return 0; } }",
              "L": "public class L implements Comparable<L> { public int compareTo(L o) { return 0; } }"},
             # L's compareTo(Object) is now the bridge javac writes for compareTo(L): no parameter names lost
             ("GENERIC_SIGNATURE_CHANGED", "MEMBER_ADDED") * 2 + ("MEMBER_MADE_SYNTHETIC",),
             (("GENERIC_SIGNATURE_CHANGED", "implements java.lang.Comparable<java.lang.String>"),
              ("MEMBER_MADE_SYNTHETIC", "now a compiler bridge"))),
]

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds the diff fixture suite and runs its linkage checks in one JVM (run as `java DiffFixtures.java ROOT`).
 *
 * ROOT/src/{old,new,new-nodebug,callers,drivers} are compiled into ROOT/{old,new,callers,drivers}: callers against
 * the old library (what an already-compiled client is), drivers against the new one. Then every case with a caller
 * runs twice, each time in a fresh class loader: c_CASE.Caller against the old library (must work), and
 * c_CASE.Driver (or Caller) against the new library. One line per run: CASE, side, OK or the thrown class chain.
 *
 * Before the callers are compiled, ROOT/src/edits.tsv (side, class, member, flag) rewrites access flags of compiled
 * classes into what javac never emits but kotlinc does: `synthetic` on a declared member (Kotlin's
 * {@code @Deprecated(level = HIDDEN)}), `public` on an anonymous or local class (Kotlin's anonymous objects).
 */
public final class DiffFixtures {

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        compile(javac, root.resolve("src/old"), root.resolve("old"), "", true);
        compile(javac, root.resolve("src/new"), root.resolve("new"), "", true);
        compile(javac, root.resolve("src/new-nodebug"), root.resolve("new"), "", false);
        applyEdits(root);
        compile(javac, root.resolve("src/callers"), root.resolve("callers"), root.resolve("old").toString(), true);
        compile(javac, root.resolve("src/drivers"), root.resolve("drivers"),
                root.resolve("new") + File.pathSeparator + root.resolve("callers"), true);
        List<String> cases;
        try (Stream<Path> s = Files.list(root.resolve("callers"))) {
            cases = s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("c_")).sorted()
                    .collect(Collectors.toList());
        }
        for (String pkg : cases) {
            String name = pkg.substring(2);
            report(name, "old", run(pkg + ".Caller", root.resolve("callers"), root.resolve("old")));
            boolean driver = Files.exists(root.resolve("drivers").resolve(pkg).resolve("Driver.class"));
            report(name, "new", driver
                    ? run(pkg + ".Driver", root.resolve("drivers"), root.resolve("callers"), root.resolve("new"))
                    : run(pkg + ".Caller", root.resolve("callers"), root.resolve("new")));
        }
    }

    private static void compile(JavaCompiler javac, Path src, Path out, String cp, boolean debug) throws Exception {
        if (!Files.isDirectory(src)) {
            return;
        }
        List<String> files;
        try (Stream<Path> s = Files.walk(src)) {
            files = s.filter(p -> p.toString().endsWith(".java")).map(Path::toString).sorted()
                    .collect(Collectors.toList());
        }
        if (files.isEmpty()) {
            return;
        }
        Files.createDirectories(out);
        List<String> argv = new ArrayList<>(List.of("--release", "17", "-nowarn", "-d", out.toString()));
        if (debug) {
            argv.add("-g");
        }
        if (!cp.isEmpty()) {
            argv.addAll(List.of("-cp", cp));
        }
        argv.addAll(files);
        int rc = javac.run(null, null, System.err, argv.toArray(new String[0]));
        if (rc != 0) {
            throw new IllegalStateException("javac failed on " + src);
        }
    }

    private static void applyEdits(Path root) throws Exception {
        Path edits = root.resolve("src/edits.tsv");
        if (!Files.exists(edits)) {
            return;
        }
        for (String line : Files.readAllLines(edits)) {
            String[] f = line.split("\t", -1);
            Path file = root.resolve(f[0]).resolve(f[1] + ".class");
            byte[] bytes = Files.readAllBytes(file);
            if (!edit(bytes, f[2], f[3])) {
                throw new IllegalStateException("edit matched nothing: " + line);
            }
            Files.write(file, bytes);
        }
    }

    /** Sets `flag` in place: on every field and method named `member`, or (`public`) on the class and its own
     * InnerClasses entry. Walks the class file format (JVMS §4.1) just far enough. */
    private static boolean edit(byte[] bytes, String member, String flag) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        buf.position(8);
        int count = buf.getShort() & 0xffff;
        String[] utf8 = new String[count];
        for (int i = 1; i < count; i++) {
            int tag = buf.get();
            if (tag == 1) {
                int len = buf.getShort() & 0xffff;
                utf8[i] = new String(bytes, buf.position(), len, StandardCharsets.UTF_8);
                skip(buf, len);
            } else if (tag == 5 || tag == 6) {
                skip(buf, 8);
                i++;
            } else if (tag == 7 || tag == 8 || tag == 16 || tag == 19 || tag == 20) {
                skip(buf, 2);
            } else {
                skip(buf, tag == 15 ? 3 : 4);
            }
        }
        int classAccess = buf.position();
        int thisClass = buf.getShort(classAccess + 2) & 0xffff;
        buf.position(classAccess + 6);
        skip(buf, 2 * (buf.getShort() & 0xffff));
        boolean synthetic = flag.equals("synthetic");
        boolean hit = false;
        for (int table = 0; table < 2; table++) {  // fields, then methods
            int n = buf.getShort() & 0xffff;
            for (int i = 0; i < n; i++) {
                int at = buf.position();
                if (synthetic && member.equals(utf8[buf.getShort(at + 2) & 0xffff])) {
                    buf.putShort(at, (short) (buf.getShort(at) | 0x1000));
                    hit = true;
                }
                buf.position(at + 6);
                skipAttributes(buf);
            }
        }
        if (synthetic) {
            return hit;
        }
        buf.putShort(classAccess, (short) makePublic(buf.getShort(classAccess)));
        int n = buf.getShort() & 0xffff;
        for (int i = 0; i < n; i++) {
            String name = utf8[buf.getShort() & 0xffff];
            int len = buf.getInt();
            int end = buf.position() + len;
            if (name.equals("InnerClasses")) {
                int entries = buf.getShort() & 0xffff;
                for (int e = 0; e < entries; e++) {
                    int at = buf.position();
                    if ((buf.getShort(at) & 0xffff) == thisClass) {
                        buf.putShort(at + 6, (short) makePublic(buf.getShort(at + 6)));
                        hit = true;
                    }
                    buf.position(at + 8);
                }
            }
            buf.position(end);
        }
        return hit;
    }

    private static int makePublic(int access) {
        return (access & ~0x0006) | 0x0001;  // not private, not protected, public
    }

    private static void skip(ByteBuffer buf, int n) {
        buf.position(buf.position() + n);
    }

    private static void skipAttributes(ByteBuffer buf) {
        int n = buf.getShort() & 0xffff;
        for (int i = 0; i < n; i++) {
            skip(buf, 2);
            skip(buf, buf.getInt());
        }
    }

    private static Throwable run(String entry, Path... path) {
        try {
            URL[] urls = new URL[path.length];
            for (int i = 0; i < path.length; i++) {
                urls[i] = path[i].toUri().toURL();
            }
            try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
                Class<?> c = Class.forName(entry, true, loader);
                c.getMethod("run").invoke(null);
            }
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        } catch (Throwable t) {
            return t;
        }
    }

    private static void report(String name, String side, Throwable t) {
        if (t == null) {
            System.out.println(name + "\t" + side + "\tOK");
            return;
        }
        StringBuilder chain = new StringBuilder();
        for (Class<?> c = t.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            chain.append(chain.length() == 0 ? "" : ",").append(c.getName());
        }
        String msg = String.valueOf(t.getMessage()).replace('\n', ' ').replace('\t', ' ');
        System.out.println(name + "\t" + side + "\t" + chain + "\t" + msg);
    }
}

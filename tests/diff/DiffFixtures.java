import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
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
 */
public final class DiffFixtures {

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        compile(javac, root.resolve("src/old"), root.resolve("old"), "", true);
        compile(javac, root.resolve("src/new"), root.resolve("new"), "", true);
        compile(javac, root.resolve("src/new-nodebug"), root.resolve("new"), "", false);
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

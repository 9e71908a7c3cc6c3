import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The public API as the JVM's reflection sees it (`java Reflect.java NAMES_FILE [JAR...]`): for each class name,
 * loaded without initialisation (from the jars, or the boot layer when none are given), one line per public
 * method (getMethods, inherited included), field (getFields) and constructor, with descriptors.
 * Lines: `C name public|nonpublic supertypes...`, `M name key`, `E name error`.
 */
public final class Reflect {

    public static void main(String[] args) throws Exception {
        List<String> names = Files.readAllLines(Path.of(args[0]));
        URL[] urls = new URL[args.length - 1];
        for (int i = 1; i < args.length; i++) {
            urls[i - 1] = new File(args[i]).toURI().toURL();
        }
        ClassLoader loader = urls.length == 0 ? null : new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
        StringBuilder out = new StringBuilder();
        for (String name : names) {
            try {
                Class<?> c = Class.forName(name, false, loader);
                Set<String> keys = new TreeSet<>();
                for (Method m : c.getMethods()) {
                    keys.add(m.getName() + params(m.getParameterTypes()));
                }
                for (Field f : c.getFields()) {
                    keys.add(f.getName() + ":" + desc(f.getType()));
                }
                for (Constructor<?> k : c.getConstructors()) {
                    keys.add("<init>" + params(k.getParameterTypes()));
                }
                out.append("C\t").append(name).append('\t').append(publicChain(c) ? "public" : "nonpublic")
                        .append('\t').append(String.join(",", supertypes(c))).append('\n');
                for (String k : keys) {
                    out.append("M\t").append(name).append('\t').append(k).append('\n');
                }
            } catch (Throwable t) {
                out.append("E\t").append(name).append('\t').append(t.getClass().getName()).append('\n');
            }
        }
        System.out.print(out);
    }

    static boolean publicChain(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!Modifier.isPublic(k.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    static Set<String> supertypes(Class<?> c) {
        Set<String> out = new LinkedHashSet<>();
        ArrayDeque<Class<?>> queue = new ArrayDeque<>();
        queue.add(c);
        while (!queue.isEmpty()) {
            Class<?> k = queue.poll();
            if (k.getSuperclass() != null && out.add(k.getSuperclass().getName())) {
                queue.add(k.getSuperclass());
            }
            for (Class<?> i : k.getInterfaces()) {
                if (out.add(i.getName())) {
                    queue.add(i);
                }
            }
        }
        return out;
    }

    static String params(Class<?>[] types) {
        StringBuilder b = new StringBuilder("(");
        for (Class<?> t : types) {
            b.append(desc(t));
        }
        return b.append(')').toString();
    }

    static String desc(Class<?> t) {
        if (t.isArray()) {
            return t.getName().replace('.', '/');
        }
        if (t.isPrimitive()) {
            switch (t.getName()) {
                case "int": return "I";
                case "long": return "J";
                case "boolean": return "Z";
                case "byte": return "B";
                case "char": return "C";
                case "short": return "S";
                case "float": return "F";
                case "double": return "D";
                default: return "V";
            }
        }
        return "L" + t.getName().replace('.', '/') + ";";
    }
}

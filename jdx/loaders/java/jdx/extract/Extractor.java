package jdx.extract;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * Reads artifacts (jar:PATH, dir:PATH, jrt:MODULE) on a small thread pool and hands Python one
 * chunk at a time through next(). Nothing read is ever loaded as a class: ASM parses bytes.
 */
public final class Extractor {

    private static final int CHUNK = 1500;
    private static final Chunk END = new Chunk(-1, -1);

    private final long maxEntryBytes;
    private final long maxTotalBytes;
    private final int maxEntries;
    private final ExecutorService pool;
    private final LinkedBlockingQueue<Chunk> results = new LinkedBlockingQueue<>();
    /**
     * Chunks parsed or being parsed but not yet taken by next(): the readers wait for room instead of
     * running ahead of the consumer, so the heap holds a few chunks however many artifacts are read.
     */
    private final Semaphore room;
    private final AtomicInteger pending = new AtomicInteger();
    private static volatile int asmMax = -1;
    private static final HashMap<String, FileSystem> JRT = new HashMap<>();

    private Extractor(int threads, long maxEntryBytes, long maxTotalBytes, int maxEntries) {
        this.maxEntryBytes = maxEntryBytes;
        this.maxTotalBytes = maxTotalBytes;
        this.maxEntries = maxEntries;
        this.room = new Semaphore(2 * Math.max(1, threads) + 2);
        int n = Math.max(1, threads);
        // artifacts in classpath order, each one's chunks before the next artifact's listing: an artifact is
        // open (its zip, its entry list) only while its chunks run, however many artifacts are queued
        this.pool = new ThreadPoolExecutor(n, n, 0L, TimeUnit.MILLISECONDS, new PriorityBlockingQueue<Runnable>(), r -> {
            Thread t = new Thread(r, "jdx-extract");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts reading every source; chunks arrive in completion order through next(). */
    public static Extractor start(String[] sources, int threads, long maxEntryBytes, long maxTotalBytes,
            int maxEntries) {
        Extractor x = new Extractor(threads, maxEntryBytes, maxTotalBytes, maxEntries);
        x.pending.set(sources.length);
        if (sources.length == 0) {
            x.results.add(END);
        }
        for (int i = 0; i < sources.length; i++) {
            final int artifact = i;
            final String source = sources[i];
            x.pool.execute(new Task(artifact, 0, () -> x.list(artifact, source)));
        }
        return x;
    }

    /** The next finished chunk, or null once every source is done. */
    public Chunk next() throws InterruptedException {
        Chunk c = results.take();
        if (c == END) {
            pool.shutdown();
            return null;
        }
        room.release();
        return c;
    }

    /** Chunks parsed and waiting for next() (never more than the room the readers are given). */
    public int waiting() {
        return results.size();
    }

    public void close() {
        pool.shutdownNow();
    }

    /** Modules of the running JDK (or of java.home when given), sorted. */
    public static String[] jrtModules(String javaHome) throws IOException {
        FileSystem fs = jrt(javaHome);
        try (Stream<Path> s = Files.list(fs.getPath("/modules"))) {
            return s.map(p -> p.getFileName().toString()).sorted().toArray(String[]::new);
        }
    }

    private static synchronized FileSystem jrt(String javaHome) throws IOException {
        String key = javaHome == null ? "" : javaHome;
        FileSystem fs = JRT.get(key);
        if (fs == null) {
            if (javaHome == null || javaHome.isEmpty()) {
                fs = FileSystems.getFileSystem(URI.create("jrt:/"));
            } else {
                fs = FileSystems.newFileSystem(URI.create("jrt:/"), Collections.singletonMap("java.home", javaHome));
            }
            JRT.put(key, fs);
        }
        return fs;
    }

    /** The highest class-file major version this ASM accepts, found by asking it. */
    public static synchronized int asmMaxMajor() {
        if (asmMax < 0) {
            ClassWriter w = new ClassWriter(0);
            w.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "P", null, "java/lang/Object", null);
            w.visitEnd();
            byte[] b = w.toByteArray();
            int best = 52;
            for (int v = 53; v < 100; v++) {
                b[6] = (byte) (v >> 8);
                b[7] = (byte) v;
                try {
                    new ClassReader(b);
                    best = v;
                } catch (IllegalArgumentException e) {
                    break;
                }
            }
            asmMax = best;
        }
        return asmMax;
    }

    /** Work on one chunk of one artifact, run in (artifact, chunk) order. */
    private static final class Task implements Runnable, Comparable<Task> {
        final int artifact;
        final int chunk;
        final Runnable work;

        Task(int artifact, int chunk, Runnable work) {
            this.artifact = artifact;
            this.chunk = chunk;
            this.work = work;
        }

        @Override
        public void run() {
            work.run();
        }

        @Override
        public int compareTo(Task o) {
            return artifact != o.artifact ? Integer.compare(artifact, o.artifact) : Integer.compare(chunk, o.chunk);
        }
    }

    /** One artifact being read: its entries and the counters shared by its chunks. */
    private final class Source {
        final int artifact;
        final String spec;
        ZipFile zip;
        final List<Object> entries = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        final AtomicLong bytes = new AtomicLong();
        final AtomicBoolean versionWarned = new AtomicBoolean();
        final AtomicBoolean totalWarned = new AtomicBoolean();
        final AtomicInteger chunksLeft = new AtomicInteger();

        Source(int artifact, String spec) {
            this.artifact = artifact;
            this.spec = spec;
        }

        byte[] read(int i) throws IOException {
            Object e = entries.get(i);
            if (e instanceof ZipEntry) {
                try (InputStream in = zip.getInputStream((ZipEntry) e)) {
                    return readCapped(in);
                }
            }
            Path p = (Path) e;
            if (Files.size(p) > maxEntryBytes) {
                return null;
            }
            return Files.readAllBytes(p);
        }

        byte[] readCapped(InputStream in) throws IOException {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(8192);
            byte[] buf = new byte[16384];
            long total = 0;
            int n;
            while ((n = in.read(buf)) > 0) {
                total += n;
                if (total > maxEntryBytes) {
                    return null;
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        }

        void done() {
            if (chunksLeft.decrementAndGet() == 0 && zip != null) {
                try {
                    zip.close();
                } catch (IOException ignored) {
                    // already read everything it had
                }
            }
        }
    }

    private void list(int artifact, String spec) {
        Source src = new Source(artifact, spec);
        Chunk head = new Chunk(artifact, 0);
        try {
            int colon = spec.indexOf(':');
            String kind = spec.substring(0, colon);
            String where = spec.substring(colon + 1);
            if (kind.equals("jar")) {
                listJar(src, where, head);
            } else if (kind.equals("dir")) {
                listDir(src, Path.of(where), head);
            } else if (kind.equals("jrt")) {
                int bang = where.indexOf('!');
                String home = bang < 0 ? null : where.substring(0, bang);
                String module = bang < 0 ? where : where.substring(bang + 1);
                listDir(src, jrt(home).getPath("/modules", module), head);
            } else {
                head.warn("ARTIFACT_READ_ERROR", spec, "unknown source kind " + kind);
            }
        } catch (Throwable t) {
            head.warn("ARTIFACT_READ_ERROR", spec, describe(t));
            src.entries.clear();
            src.names.clear();
        }
        int n = src.entries.size();
        int chunks = Math.max(1, (n + CHUNK - 1) / CHUNK);
        src.chunksLeft.set(chunks);
        pending.addAndGet(chunks - 1);
        for (int c = 0; c < chunks; c++) {
            final int from = c * CHUNK;
            final int to = Math.min(n, from + CHUNK);
            final Chunk chunk = c == 0 ? head : new Chunk(artifact, c);
            chunk.count = chunks;
            if (c == 0) {
                runChunk(src, chunk, from, to);
            } else {
                pool.execute(new Task(artifact, c, () -> runChunk(src, chunk, from, to)));
            }
        }
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    private void listJar(Source src, String path, Chunk head) throws IOException {
        src.zip = new ZipFile(path);
        if (src.zip.size() > maxEntries) {
            head.warn("ZIP_BOMB", path, "jar has " + src.zip.size() + " entries, over the cap of " + maxEntries
                    + "; skipped");
            return;
        }
        List<ZipEntry> all = new ArrayList<>();
        Enumeration<? extends ZipEntry> en = src.zip.entries();
        int versioned = 0;  // classes for other releases; a module-info.class there only describes the module
        java.util.TreeSet<Integer> releases = new java.util.TreeSet<>();
        while (en.hasMoreElements()) {
            ZipEntry e = en.nextElement();
            String name = e.getName();
            if (e.isDirectory() || !name.endsWith(".class")) {
                continue;
            }
            if (name.startsWith("/") || name.contains("\\") || ("/" + name + "/").contains("/../")
                    || name.contains("\0")) {
                head.warn("ZIP_SLIP_ENTRY", name, "entry name escapes the archive root; skipped");
                continue;
            }
            if (name.startsWith("META-INF/versions/")) {
                String rest = name.substring("META-INF/versions/".length());
                int slash = rest.indexOf('/');
                if (slash > 0 && !rest.substring(slash + 1).equals("module-info.class")) {
                    versioned++;
                    try {
                        releases.add(Integer.parseInt(rest.substring(0, slash)));
                    } catch (NumberFormatException ignored) {
                        // not a release directory: counted, not named
                    }
                }
                continue;
            }
            all.add(e);
        }
        if (versioned > 0) {
            StringBuilder named = new StringBuilder();
            for (int r : releases) {
                named.append(named.length() == 0 ? "" : ", ").append(r);
            }
            head.warn("MULTI_RELEASE_JAR", "", "multi-release jar: base entries read; " + versioned + " class"
                    + (versioned == 1 ? "" : "es") + " for release" + (releases.size() == 1 ? " " : "s ") + named
                    + " under META-INF/versions skipped");
        }
        all.sort((a, b) -> a.getName().compareTo(b.getName()));
        for (ZipEntry e : all) {
            src.entries.add(e);
            src.names.add(e.getName());
        }
    }

    private void listDir(Source src, Path root, Chunk head) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new IOException("not a directory: " + root);
        }
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(p -> p.getFileName() != null && p.getFileName().toString().endsWith(".class")
                    && Files.isRegularFile(p)).forEach(all::add);
        }
        if (all.size() > maxEntries) {
            head.warn("ZIP_BOMB", root.toString(), "directory has " + all.size() + " class files, over the cap of "
                    + maxEntries + "; skipped");
            return;
        }
        List<String[]> named = new ArrayList<>();
        for (Path p : all) {
            named.add(new String[] {root.relativize(p).toString().replace('\\', '/'), String.valueOf(named.size())});
        }
        named.sort((a, b) -> a[0].compareTo(b[0]));
        for (String[] n : named) {
            if (n[0].startsWith("META-INF/versions/")) {
                continue;
            }
            src.entries.add(all.get(Integer.parseInt(n[1])));
            src.names.add(n[0]);
        }
    }

    private void runChunk(Source src, Chunk chunk, int from, int to) {
        try {
            room.acquire();
        } catch (InterruptedException e) {
            // close(): nobody takes chunks any more
            src.done();
            Thread.currentThread().interrupt();
            return;
        }
        try {
            for (int i = from; i < to; i++) {
                readClass(src, chunk, i);
            }
        } catch (Throwable t) {
            chunk.warn("ARTIFACT_READ_ERROR", src.spec, describe(t));
        } finally {
            src.done();
            results.add(chunk);
            if (pending.decrementAndGet() == 0) {
                results.add(END);
            }
        }
    }

    private void readClass(Source src, Chunk chunk, int i) {
        String entry = src.names.get(i);
        byte[] b;
        try {
            b = src.read(i);
        } catch (Throwable t) {
            chunk.warn("CORRUPT_CLASS", entry, "unreadable entry: " + describe(t));
            return;
        }
        if (b == null) {
            chunk.warn("ZIP_BOMB", entry, "class file larger than " + maxEntryBytes + " bytes; skipped");
            return;
        }
        if (src.bytes.addAndGet(b.length) > maxTotalBytes) {
            if (!src.totalWarned.getAndSet(true)) {
                chunk.warn("ZIP_BOMB", entry, "artifact decompresses past " + maxTotalBytes + " bytes; rest skipped");
            }
            return;
        }
        if (b.length < 10 || (b[0] & 0xFF) != 0xCA || (b[1] & 0xFF) != 0xFE || (b[2] & 0xFF) != 0xBA
                || (b[3] & 0xFF) != 0xBE) {
            chunk.warn("CORRUPT_CLASS", entry, b.length < 10 ? "truncated class file" : "bad magic number");
            return;
        }
        int major = ((b[6] & 0xFF) << 8) | (b[7] & 0xFF);
        int max = asmMaxMajor();
        if (major > max) {
            b = b.clone();
            b[6] = (byte) (max >> 8);
            b[7] = (byte) max;
            if (!src.versionWarned.getAndSet(true)) {
                chunk.warn("UNSUPPORTED_CLASS_VERSION", src.spec, "class files of major version " + major
                        + " read by an ASM that knows up to " + max + "; newer constructs may be missed");
            }
        }
        int[] mark = chunk.mark();
        ClassExtractor x = new ClassExtractor(chunk, entry, major);
        try {
            new ClassReader(b).accept(x, ClassReader.SKIP_FRAMES);
        } catch (Throwable t) {
            chunk.reset(mark);
            if (major > max) {
                chunk.warn("UNSUPPORTED_CLASS_VERSION", entry, "major version " + major + " rejected: " + describe(t));
            } else {
                chunk.warn("CORRUPT_CLASS", entry, describe(t));
            }
            return;
        }
        String name = x.className();
        if (unnameable(name, x.nestedBySelfEntry())) {
            chunk.reset(mark);
            chunk.warn("UNNAMEABLE_CLASS", entry, "class name " + name + " has an empty '$' segment; skipped");
            return;
        }
        if (!x.isModule()) {  // a module descriptor declares no class (no Type node)
            chunk.classes++;
        }
    }

    /**
     * A top-level class whose simple name has an empty '$' segment inside it ({@code Exception$JB$$Assertion})
     * cannot be written as a reference. One trailing '$' is Scala's module class of an {@code object Foo}
     * ({@code Foo$}, a legal Java name too), and a class named {@code $} alone (functionaljava's {@code fj.data.$})
     * is a legal Java name: both are named as they are.
     */
    static boolean unnameable(String name, boolean nested) {
        if (name == null || name.isEmpty()) {
            return true;
        }
        if (nested) {
            return false;
        }
        String simple = name.substring(name.lastIndexOf('/') + 1);
        if (simple.equals("$")) {
            return false;
        }
        String body = simple.startsWith("$") ? simple.substring(1) : simple;
        String stem = body.endsWith("$") ? body.substring(0, body.length() - 1) : body;
        return stem.isEmpty() || stem.endsWith("$") || stem.contains("$$");
    }
}

package jdx.extract;

import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** The baseline `jdx bench` compares indexing against: ASM visiting every JDK class, nothing kept. */
public final class BareScan {
    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        FileSystem fs = FileSystems.getFileSystem(URI.create("jrt:/"));
        List<Path> classes;
        try (Stream<Path> s = Files.walk(fs.getPath("/modules"))) {
            classes = s.filter(p -> p.toString().endsWith(".class")).collect(Collectors.toList());
        }
        int max = Extractor.asmMaxMajor();
        long[] count = new long[1];
        classes.parallelStream().forEach(p -> {
            try {
                byte[] b = Files.readAllBytes(p);
                int major = ((b[6] & 0xFF) << 8) | (b[7] & 0xFF);
                if (major > max) {
                    b[6] = (byte) (max >> 8);
                    b[7] = (byte) max;
                }
                new ClassReader(b).accept(new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public MethodVisitor visitMethod(int a, String n, String d, String s, String[] e) {
                        return new MethodVisitor(Opcodes.ASM9) { };
                    }
                }, ClassReader.SKIP_FRAMES);
                synchronized (count) {
                    count[0]++;
                }
            } catch (Exception ignored) {
                // the bare scan only counts what ASM reads
            }
        });
        System.out.println(count[0] + " " + (System.nanoTime() - start) / 1_000_000);
    }
}

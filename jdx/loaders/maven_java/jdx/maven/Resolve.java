package jdx.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.maven.repository.internal.MavenRepositorySystemUtils;
import org.eclipse.aether.AbstractRepositoryListener;
import org.eclipse.aether.DefaultRepositorySystemSession;
import org.eclipse.aether.RepositoryEvent;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.artifact.Artifact;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.graph.DependencyNode;
import org.eclipse.aether.impl.DefaultServiceLocator;
import org.eclipse.aether.repository.LocalRepository;
import org.eclipse.aether.repository.WorkspaceReader;
import org.eclipse.aether.repository.WorkspaceRepository;
import org.eclipse.aether.resolution.ArtifactDescriptorRequest;
import org.eclipse.aether.resolution.ArtifactDescriptorResult;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.resolution.DependencyResolutionException;
import org.eclipse.aether.resolution.DependencyResult;
import org.eclipse.aether.util.graph.transformer.ChainedDependencyGraphTransformer;
import org.eclipse.aether.util.graph.transformer.ConflictResolver;
import org.eclipse.aether.util.graph.transformer.JavaDependencyContextRefiner;
import org.eclipse.aether.util.graph.transformer.JavaScopeDeriver;
import org.eclipse.aether.util.graph.transformer.JavaScopeSelector;
import org.eclipse.aether.util.graph.transformer.SimpleOptionalitySelector;
import org.eclipse.aether.util.repository.SimpleArtifactDescriptorPolicy;
import org.eclipse.aether.util.repository.SimpleResolutionErrorPolicy;
import org.eclipse.aether.connector.basic.BasicRepositoryConnectorFactory;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.repository.RepositoryPolicy;
import org.eclipse.aether.resolution.ArtifactRequest;
import org.eclipse.aether.spi.connector.RepositoryConnectorFactory;
import org.eclipse.aether.spi.connector.transport.TransporterFactory;
import org.eclipse.aether.transport.wagon.WagonConfigurator;
import org.eclipse.aether.transport.wagon.WagonProvider;
import org.eclipse.aether.transport.wagon.WagonTransporterFactory;

/**
 * Dependency resolution with Maven's own resolver (spec §13): offline over the local repository, reactor
 * modules, the Gradle cache and read-only Maven repositories served as a workspace; online (only when the request
 * names remote repositories) with the basic connector and Wagon (HTTP, file), checksums verified (policy fail).
 * Requests and answers are tab-separated lines so the Python side crosses the JNI boundary once per call.
 *
 * Request lines: {@code repo PATH}, {@code gradle FILES-2.1-DIR}, {@code module POM CLASSES-DIR},
 * {@code project POM} (resolve that module's dependencies, each module on its own), {@code coord
 * G:A:V[:EXT[:CLASSIFIER]]} (resolved together), {@code conflict highest} (Gradle's highest-version rule instead
 * of Maven's nearest-wins), {@code read DIR} (a Maven-layout repository read, never written, in front of the local
 * one), {@code remote ID URL} (a remote repository, in order: the session goes online), {@code sources} (also fetch
 * the {@code -sources.jar} of each coordinate, best effort).
 * Answer lines: {@code for KEY} (the dep lines after it are module KEY's; empty for the coordinates),
 * {@code dep COORDS SCOPE OPTIONAL FILE}, {@code missing COORDS MESSAGE}, {@code pomonly COORD} (a
 * pom-packaged coordinate: no jar, its dependencies only),
 * {@code warn CODE MESSAGE}, {@code error CODE MESSAGE}, {@code pom PATH} (every POM read or sought),
 * {@code root COORDS} (a project module's own coordinates), {@code fetched COORDS URL} (an artifact downloaded),
 * and for the coordinates (resolved together, as the dependencies of one POM: Maven's nearest-wins, the first
 * declared winning a tie) {@code top INDEX} (the dep lines after it are what coordinate INDEX brings) and
 * {@code omitted COORDS WINNER-VERSION WANTED-BY} (a version that lost the mediation, and who asked for it).
 */
public final class Resolve {
    private Resolve() {}

    public static String resolve(String request, long timeoutMillis) {
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jdx-maven-resolve");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<String> f = pool.submit(() -> run(request));
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return "error\tRESOLVE_TIMEOUT\tdependency resolution took longer than " + timeoutMillis + " ms\n";
        } catch (Throwable e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            return "error\tRESOLVE_FAILED\t" + clean(String.valueOf(c)) + "\n";
        } finally {
            pool.shutdownNow();
        }
    }

    static String clean(String s) {
        return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    static String coords(Artifact a) {
        StringBuilder b = new StringBuilder(a.getGroupId()).append(':').append(a.getArtifactId()).append(':')
                .append(a.getExtension());
        if (!a.getClassifier().isEmpty()) b.append(':').append(a.getClassifier());
        return b.append(':').append(a.getVersion()).toString();
    }

    /** Reactor modules (POM and class directory) and the Gradle cache, in front of the local repository. */
    static final class Workspace implements WorkspaceReader {
        final Map<String, File[]> modules = new LinkedHashMap<>();
        final List<File> gradle = new ArrayList<>();
        final List<File> maven = new ArrayList<>();  // Maven-layout repositories, read only
        final WorkspaceRepository repo = new WorkspaceRepository("jdx");

        public WorkspaceRepository getRepository() { return repo; }

        public File findArtifact(Artifact a) {
            File[] m = modules.get(a.getGroupId() + ":" + a.getArtifactId() + ":" + a.getBaseVersion());
            if (m != null) {
                if ("pom".equals(a.getExtension())) return m[0];
                if ("jar".equals(a.getExtension()) && a.getClassifier().isEmpty()) return m[1];
                return null;
            }
            for (File root : maven) {
                File f = new File(root, a.getGroupId().replace('.', '/') + "/" + a.getArtifactId() + "/"
                        + a.getBaseVersion() + "/" + a.getArtifactId() + "-" + a.getVersion()
                        + (a.getClassifier().isEmpty() ? "" : "-" + a.getClassifier()) + "." + a.getExtension());
                if (f.isFile()) return f;
            }
            for (File root : gradle) {
                File dir = new File(root, a.getGroupId() + "/" + a.getArtifactId() + "/" + a.getBaseVersion());
                File[] hashes = dir.listFiles(File::isDirectory);
                if (hashes == null) continue;
                java.util.Arrays.sort(hashes);
                String name = a.getArtifactId() + "-" + a.getVersion()
                        + (a.getClassifier().isEmpty() ? "" : "-" + a.getClassifier()) + "." + a.getExtension();
                for (File h : hashes) {
                    File f = new File(h, name);
                    if (f.isFile()) return f;
                }
            }
            return null;
        }

        public List<String> findVersions(Artifact a) {
            List<String> out = new ArrayList<>();
            for (String k : modules.keySet()) {
                String[] p = k.split(":");
                if (p[0].equals(a.getGroupId()) && p[1].equals(a.getArtifactId())) out.add(p[2]);
            }
            for (File root : maven) {
                File[] dirs = new File(root, a.getGroupId().replace('.', '/') + "/" + a.getArtifactId())
                        .listFiles(File::isDirectory);
                if (dirs != null) for (File d : dirs) out.add(d.getName());
            }
            for (File root : gradle) {
                String[] names = new File(root, a.getGroupId() + "/" + a.getArtifactId()).list();
                if (names != null) Collections.addAll(out, names);
            }
            return out;
        }
    }

    static String run(String request) throws Exception {
        StringBuilder out = new StringBuilder();
        String repoPath = null;
        Workspace ws = new Workspace();
        List<String> projects = new ArrayList<>();
        List<String> coords = new ArrayList<>();
        Set<String> scopes = new LinkedHashSet<>();
        Map<String, String> userProps = new LinkedHashMap<>();
        boolean highest = false;
        boolean sources = false;
        List<RemoteRepository> remotes = new ArrayList<>();
        RepositoryPolicy policy = new RepositoryPolicy(true, RepositoryPolicy.UPDATE_POLICY_NEVER,
                RepositoryPolicy.CHECKSUM_POLICY_FAIL);
        for (String line : request.split("\n")) {
            String[] p = line.split("\t");
            switch (p[0]) {
                case "repo": repoPath = p[1]; break;
                case "gradle": ws.gradle.add(new File(p[1])); break;
                case "module": {
                    File pom = new File(p[2]);
                    ws.modules.put(p[1], new File[] {pom, new File(p.length > 3 ? p[3] : "")});
                    break;
                }
                case "project": projects.add(p[1]); break;
                case "coord": coords.add(p[1]); break;
                case "scopes": Collections.addAll(scopes, p[1].split(",")); break;
                case "prop": userProps.put(p[1], p.length > 2 ? p[2] : ""); break;
                case "conflict": highest = p.length > 1 && "highest".equals(p[1]); break;
                case "read": ws.maven.add(new File(p[1])); break;
                case "remote":
                    remotes.add(new RemoteRepository.Builder(p[1], "default", p[2]).setReleasePolicy(policy)
                            .setSnapshotPolicy(new RepositoryPolicy(true, RepositoryPolicy.UPDATE_POLICY_DAILY,
                                    RepositoryPolicy.CHECKSUM_POLICY_FAIL)).build());
                    break;
                case "sources": sources = true; break;
                default: break;
            }
        }
        DefaultServiceLocator locator = MavenRepositorySystemUtils.newServiceLocator();
        if (!remotes.isEmpty()) {
            locator.addService(RepositoryConnectorFactory.class, BasicRepositoryConnectorFactory.class);
            locator.addService(TransporterFactory.class, WagonTransporterFactory.class);
            locator.setServices(WagonProvider.class, new Wagons());
            locator.setServices(WagonConfigurator.class, (wagon, configuration) -> { });
        }
        List<String> serviceErrors = new ArrayList<>();
        locator.setErrorHandler(new DefaultServiceLocator.ErrorHandler() {
            @Override
            public void serviceCreationFailed(Class<?> type, Class<?> impl, Throwable exception) {
                serviceErrors.add(type.getSimpleName() + ": " + exception);
            }
        });
        RepositorySystem system = locator.getService(RepositorySystem.class);
        if (system == null) {
            return "error\tRESOLVER_UNAVAILABLE\t" + clean(String.join("; ", serviceErrors)) + "\n";
        }
        DefaultRepositorySystemSession session = MavenRepositorySystemUtils.newSession();
        session.setOffline(remotes.isEmpty());
        if (!remotes.isEmpty()) {
            session.setChecksumPolicy(RepositoryPolicy.CHECKSUM_POLICY_FAIL);
            session.setUpdatePolicy(RepositoryPolicy.UPDATE_POLICY_NEVER);
            // a failed download is tried again next time, not remembered in *.lastUpdated files
            session.setResolutionErrorPolicy(new SimpleResolutionErrorPolicy(false, false));
            // only the repositories asked for: never ones a downloaded POM declares
            session.setIgnoreArtifactDescriptorRepositories(true);
            session.setConfigProperty("aether.connector.connectTimeout", CONNECT_TIMEOUT_MS);
            session.setConfigProperty("aether.connector.requestTimeout", CONNECT_TIMEOUT_MS);
        }
        session.setSystemProperties(System.getProperties());
        session.setUserProperties(userProps);
        session.setConfigProperty("aether.artifactResolver.snapshotNormalization", Boolean.FALSE);
        final String repoDir = repoPath;
        LocalRepository local = new LocalRepository(new File(repoPath), "simple");
        session.setLocalRepositoryManager(system.newLocalRepositoryManager(session, local));
        session.setWorkspaceReader(ws);
        // a broken or absent POM deep in the tree is reported, not fatal: the rest still resolves
        session.setArtifactDescriptorPolicy(new SimpleArtifactDescriptorPolicy(true, true));
        Set<String> poms = new LinkedHashSet<>();
        Set<String> notes = new LinkedHashSet<>();
        Set<String> fetched = new LinkedHashSet<>();
        session.setRepositoryListener(new AbstractRepositoryListener() {
            @Override
            public void artifactResolved(RepositoryEvent e) {
                Artifact a = e.getArtifact();
                if (a != null && "pom".equals(a.getExtension())) {
                    if (a.getFile() != null) poms.add(a.getFile().getAbsolutePath());
                    else poms.add(new File(repoDir, session.getLocalRepositoryManager()
                            .getPathForLocalArtifact(a)).getAbsolutePath());
                }
            }

            @Override
            public void artifactDownloaded(RepositoryEvent e) {
                Artifact a = e.getArtifact();
                if (a != null && e.getException() == null && e.getFile() != null && e.getFile().isFile()
                        && !"pom".equals(a.getExtension()) && e.getRepository() instanceof RemoteRepository) {
                    fetched.add("fetched\t" + coords(a) + "\t" + ((RemoteRepository) e.getRepository()).getUrl());
                }
            }

            @Override
            public void artifactDescriptorInvalid(RepositoryEvent e) {
                notes.add("warn\tPOM_INVALID\t" + coords(e.getArtifact()) + ": "
                        + clean(String.valueOf(e.getException() != null ? e.getException().getMessage() : "invalid")));
            }

            @Override
            public void artifactDescriptorMissing(RepositoryEvent e) {
                notes.add("warn\tPOM_MISSING\t" + coords(e.getArtifact()) + (remotes.isEmpty()
                        ? ": no POM in the local repository; its own dependencies are unknown"
                        : ": no POM in the local repository or the remote ones; its own dependencies are unknown"));
            }
        });

        // the project's own POMs must be valid: strict while reading them, lenient for the tree below
        session.setArtifactDescriptorPolicy(new SimpleArtifactDescriptorPolicy(false, false));
        // each module is resolved on its own, with its own dependencyManagement, as Maven builds it
        Map<String, CollectRequest> perModule = new LinkedHashMap<>();
        for (String pom : projects) {
            String key = null;
            for (Map.Entry<String, File[]> m : ws.modules.entrySet()) {
                if (m.getValue()[0].getPath().equals(pom)) key = m.getKey();
            }
            if (key == null) continue;
            String[] gav = key.split(":");
            Artifact self = new DefaultArtifact(gav[0], gav[1], "pom", gav[2]);
            ArtifactDescriptorResult d;
            try {
                d = system.readArtifactDescriptor(session, new ArtifactDescriptorRequest(self, remotes, null));
            } catch (Exception e) {
                out.append("error\tPOM_INVALID\t").append(pom).append(": ").append(clean(rootMessage(e))).append('\n');
                continue;
            }
            if (!d.getExceptions().isEmpty()) {
                out.append("error\tPOM_INVALID\t").append(pom).append(": ")
                        .append(clean(rootMessage(d.getExceptions().get(0)))).append('\n');
                continue;
            }
            out.append("root\t").append(key).append('\n');
            CollectRequest collect = new CollectRequest();
            collect.setRepositories(remotes);
            for (Dependency dep : d.getDependencies()) {
                if (!scopes.contains(dep.getScope().isEmpty() ? "compile" : dep.getScope())) continue;
                collect.addDependency(dep);
            }
            collect.setManagedDependencies(d.getManagedDependencies());
            if (!collect.getDependencies().isEmpty()) perModule.put(key, collect);
        }
        session.setArtifactDescriptorPolicy(new SimpleArtifactDescriptorPolicy(true, true));
        notes.clear();
        if (highest) {
            // Gradle's rule: of every module requested in several versions, the highest wins
            session.setDependencyGraphTransformer(new ChainedDependencyGraphTransformer(
                    new ConflictResolver(new HighestVersionSelector(), new JavaScopeSelector(),
                            new SimpleOptionalitySelector(), new JavaScopeDeriver()),
                    new JavaDependencyContextRefiner()));
        }
        Map<String, String> missing = new LinkedHashMap<>();
        for (Map.Entry<String, CollectRequest> m : perModule.entrySet()) {
            out.append("for\t").append(m.getKey()).append('\n');
            if (!collectInto(system, session, m.getValue(), scopes, out, missing, false)) return out.toString();
        }
        if (!coords.isEmpty()) {
            CollectRequest collect = new CollectRequest();
            collect.setRepositories(remotes);
            List<Artifact> asked = new ArrayList<>();
            for (String c : coords) {
                String[] p = c.split(":");
                Artifact a = p.length >= 5 ? new DefaultArtifact(p[0], p[1], p[4], p[3], p[2])
                        : p.length == 4 ? new DefaultArtifact(p[0], p[1], "", p[3], p[2])
                        : new DefaultArtifact(p[0], p[1], "jar", p[2]);
                if ("jar".equals(a.getExtension()) && a.getClassifier().isEmpty()
                        && pomPackaged(system, session, a, remotes)) {
                    // a BOM or aggregator: no jar exists; its own dependencies (if any) still come
                    out.append("pomonly\t").append(c).append('\n');
                    a = new DefaultArtifact(a.getGroupId(), a.getArtifactId(), "pom", a.getVersion());
                }
                else asked.add(a);
                collect.addDependency(new Dependency(a, "runtime"));
            }
            out.append("for\t\n");
            // the losers of Maven's version mediation stay in the graph (marked with their winner), so the answer
            // can say which version a dependency wanted and what it got
            session.setConfigProperty(ConflictResolver.CONFIG_PROP_VERBOSE, Boolean.TRUE);
            boolean ok = collectInto(system, session, collect, scopes, out, missing, true);
            session.setConfigProperty(ConflictResolver.CONFIG_PROP_VERBOSE, Boolean.FALSE);
            if (!ok) return out.toString();
            if (sources && !remotes.isEmpty()) {
                for (Artifact a : asked) {
                    if (missing.containsKey(coords(a))) continue;
                    Artifact src = new DefaultArtifact(a.getGroupId(), a.getArtifactId(), "sources", "jar",
                            a.getVersion());
                    try {  // best effort: a library without a sources jar is still read from its classes
                        system.resolveArtifact(session, new ArtifactRequest(src, remotes, null));
                    } catch (Exception e) {
                        // no sources: the decompiler stands in
                    }
                }
            }
        }
        for (Map.Entry<String, String> m : missing.entrySet()) {
            out.append("missing\t").append(m.getKey()).append('\t').append(clean(m.getValue())).append('\n');
        }
        for (String n : notes) out.append(n).append('\n');
        for (String p : poms) out.append("pom\t").append(p).append('\n');
        for (String f : fetched) out.append(f).append('\n');
        return out.toString();
    }

    /** Whether the artifact's POM (local, or downloaded when remotes are given) says packaging pom and no jar is
     * beside it. */
    static boolean pomPackaged(RepositorySystem system, DefaultRepositorySystemSession session, Artifact jar,
                               List<RemoteRepository> remotes) {
        File local = new File(session.getLocalRepository().getBasedir(),
                session.getLocalRepositoryManager().getPathForLocalArtifact(jar));
        if (local.isFile()) return false;
        File wsJar = session.getWorkspaceReader() != null ? session.getWorkspaceReader().findArtifact(jar) : null;
        if (wsJar != null && wsJar.isFile()) return false;
        Artifact pom = new DefaultArtifact(jar.getGroupId(), jar.getArtifactId(), "pom", jar.getVersion());
        File f = new File(session.getLocalRepository().getBasedir(),
                session.getLocalRepositoryManager().getPathForLocalArtifact(pom));
        File ws = session.getWorkspaceReader() != null ? session.getWorkspaceReader().findArtifact(pom) : null;
        if (ws != null && ws.isFile()) f = ws;
        if (!f.isFile() && !remotes.isEmpty()) {
            try {
                File got = system.resolveArtifact(session, new ArtifactRequest(pom, remotes, null)).getArtifact()
                        .getFile();
                if (got != null) f = got;
            } catch (Exception e) {
                return false;  // the jar's resolution reports what is missing
            }
        }
        if (!f.isFile()) return false;
        try {
            org.apache.maven.model.Model model = new org.apache.maven.model.io.xpp3.MavenXpp3Reader()
                    .read(new java.io.FileInputStream(f), false);
            return "pom".equals(model.getPackaging());
        } catch (Exception e) {
            return false;
        }
    }

    /** One dependency collection and resolution; its dependencies as dep lines, in Maven's classpath order (with
     * {@code tops}, a {@code top INDEX} line before the dependencies each requested dependency brings, and an
     * {@code omitted COORDS WINNER-VERSION WANTED-BY} line for each version mediation lost). False on a fatal
     * failure. */
    static boolean collectInto(RepositorySystem system, DefaultRepositorySystemSession session, CollectRequest collect,
                               Set<String> scopes, StringBuilder out, Map<String, String> missing, boolean tops) {
        DependencyRequest dr = new DependencyRequest(collect, (node, parents) -> {
            Dependency dep = node.getDependency();
            if (dep == null) return false;
            if (loser(node) != null) return false;  // a version mediation's loser: never on the classpath
            if ("pom".equals(node.getArtifact().getExtension())) return false;  // a pom-only artifact: no file
            String s = dep.getScope().isEmpty() ? "compile" : dep.getScope();
            return scopes.contains(s);
        });
        DependencyResult result;
        try {
            result = system.resolveDependencies(session, dr);
        } catch (DependencyResolutionException e) {
            result = e.getResult();
            if (result == null) {
                out.append("error\tRESOLVE_FAILED\t").append(clean(rootMessage(e))).append('\n');
                return false;
            }
        }
        for (ArtifactResult r : result.getArtifactResults()) {
            if (!r.isResolved()) {
                List<String> why = new ArrayList<>();
                for (Exception e : r.getExceptions()) why.add(transferMessage(e));
                missing.put(coords(r.getRequest().getArtifact()), why.isEmpty() ? "not found" : String.join("; ", why));
            }
        }
        for (Exception e : result.getCollectExceptions()) {
            out.append("warn\tRESOLVE_PROBLEM\t").append(clean(problemMessage(e, session.isOffline()))).append('\n');
        }
        if (result.getRoot() != null) {
            List<DependencyNode> groups = tops ? result.getRoot().getChildren()
                    : Collections.singletonList(result.getRoot());
            Set<DependencyNode> seen = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (int i = 0; i < groups.size(); i++) {
                if (tops) out.append("top\t").append(i).append('\n');
                List<DependencyNode[]> order = new ArrayList<>();
                preorder(groups.get(i), tops ? result.getRoot() : null, seen, order);
                emit(order, scopes, out, missing);
            }
        }
        return true;
    }

    /** The winner of the version mediation `node` lost, or null (ConflictResolver's verbose mode keeps losers). */
    static DependencyNode loser(DependencyNode node) {
        Object w = node.getData().get(ConflictResolver.NODE_DATA_WINNER);
        return w instanceof DependencyNode ? (DependencyNode) w : null;
    }

    /** Nodes in Maven's classpath order (preorder, each node once), each with its parent. */
    static void preorder(DependencyNode node, DependencyNode parent, Set<DependencyNode> seen,
                         List<DependencyNode[]> out) {
        if (!seen.add(node)) return;
        out.add(new DependencyNode[] {node, parent});
        for (DependencyNode child : node.getChildren()) preorder(child, node, seen, out);
    }

    /** The dep lines of `order` (and the omitted lines of its mediation losers). */
    static void emit(List<DependencyNode[]> order, Set<String> scopes, StringBuilder out, Map<String, String> missing) {
        for (DependencyNode[] pair : order) {
            DependencyNode node = pair[0];
            Dependency dep = node.getDependency();
            if (dep == null) continue;
            String s = dep.getScope().isEmpty() ? "compile" : dep.getScope();
            if (!scopes.contains(s)) continue;
            DependencyNode winner = loser(node);
            if (winner != null) {
                String version = winner.getArtifact() != null ? winner.getArtifact().getVersion() : "";
                if (!version.equals(node.getArtifact().getVersion())) {
                    Dependency by = pair[1] != null ? pair[1].getDependency() : null;
                    out.append("omitted\t").append(coords(node.getArtifact())).append('\t').append(version)
                            .append('\t').append(by != null ? coords(by.getArtifact()) : "").append('\n');
                }
                continue;
            }
            Artifact a = node.getArtifact();
            if ("pom".equals(a.getExtension())) continue;
            String c = coords(a);
            File f = a.getFile();
            if (f == null) {
                if (!missing.containsKey(c)) missing.put(c, "not found");
                continue;
            }
            out.append("dep\t").append(c).append('\t').append(s).append('\t')
                    .append(dep.isOptional() ? "optional" : "").append('\t').append(f.getAbsolutePath())
                    .append('\n');
        }
    }

    static final int CONNECT_TIMEOUT_MS = 10_000;

    /** Wagons by protocol: HTTP(S) from wagon-http-shaded, file: from wagon-file. */
    static final class Wagons implements WagonProvider {
        public org.apache.maven.wagon.Wagon lookup(String roleHint) {
            if ("http".equals(roleHint) || "https".equals(roleHint)) {
                return new org.apache.maven.wagon.providers.http.HttpWagon();
            }
            if ("file".equals(roleHint)) return new org.apache.maven.wagon.providers.file.FileWagon();
            return null;
        }

        public void release(org.apache.maven.wagon.Wagon wagon) { }
    }

    /** Gradle's conflict resolution: the highest version requested anywhere in the graph wins. */
    static final class HighestVersionSelector extends ConflictResolver.VersionSelector {
        @Override
        public void selectVersion(ConflictResolver.ConflictContext context) {
            ConflictResolver.ConflictItem best = null;
            for (ConflictResolver.ConflictItem item : context.getItems()) {
                if (best == null) { best = item; continue; }
                org.eclipse.aether.version.Version v = item.getNode().getVersion();
                org.eclipse.aether.version.Version b = best.getNode().getVersion();
                int cmp = v == null || b == null ? 0 : v.compareTo(b);
                if (cmp > 0 || (cmp == 0 && item.getDepth() < best.getDepth())) best = item;
            }
            context.setWinner(best);
        }
    }

    /** A download's failure, one per repository tried: "URL: not found", "URL: Checksum validation failed, expected
     * .. but is ..", "URL: Connection refused"; else the root message. */
    /** A problem collecting the graph, naming the artifact it is about (a POM not found: `g:a:pom:v`) and, offline,
     *  that it is missing from the local repository rather than from the remote one the model names. */
    static String problemMessage(Throwable e, boolean offline) {
        Throwable c = e;
        int depth = 0;
        while (c != null && depth++ < 12) {
            if (c instanceof org.eclipse.aether.transfer.ArtifactTransferException) {
                Artifact a = ((org.eclipse.aether.transfer.ArtifactTransferException) c).getArtifact();
                if (a != null && offline && c instanceof org.eclipse.aether.transfer.ArtifactNotFoundException) {
                    return coords(a) + ": not in the local repository (resolution is offline)";
                }
                if (a != null) return coords(a) + ": " + transferMessage(c);
            }
            c = c.getCause();
        }
        return transferMessage(e);
    }

    static String transferMessage(Throwable e) {
        Throwable c = e;
        int depth = 0;
        while (c != null && depth++ < 12) {
            if (c instanceof org.eclipse.aether.transfer.ArtifactNotFoundException) {
                RemoteRepository r = ((org.eclipse.aether.transfer.ArtifactNotFoundException) c).getRepository();
                return r != null ? r.getUrl() + ": not found" : String.valueOf(c.getMessage());
            }
            if (c instanceof org.eclipse.aether.transfer.ArtifactTransferException) {
                RemoteRepository r = ((org.eclipse.aether.transfer.ArtifactTransferException) c).getRepository();
                Throwable root = c;
                while (root.getCause() != null && root.getCause() != root) root = root.getCause();
                String why = root instanceof java.net.UnknownHostException ? "unknown host " + root.getMessage()
                        : root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
                return r != null ? r.getUrl() + ": " + why : String.valueOf(c.getMessage());
            }
            c = c.getCause();
        }
        return rootMessage(e);
    }

    static String rootMessage(Throwable e) {
        String best = String.valueOf(e.getMessage());
        Throwable c = e;
        int depth = 0;
        while (c != null && depth++ < 8) {
            if (c.getClass().getSimpleName().equals("ModelBuildingException")) return c.getMessage();
            if (c.getMessage() != null) best = c.getMessage();
            c = c.getCause();
        }
        return best;
    }
}

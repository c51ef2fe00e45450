package dev.toolsmith.librarian.airlock.discovery;

import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.librarian.airlock.AirlockConfig;
import dev.toolsmith.openapi.IngestionException;
import dev.toolsmith.openapi.OpenApiIngestor;
import dev.toolsmith.openapi.fetch.FetchException;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;

/**
 * A {@code git} source: a repository of tool manifests (JSON or YAML) under a folder of a branch, read
 * with JGit into a scratch directory that is deleted afterwards. Remote repositories must be http(s) and
 * pass the address policy; {@code file:} repositories are allowed only where private networks are
 * (tests, local development). Symbolic links and paths that leave the folder are ignored.
 */
@ApplicationScoped
public class GitSourceReader {

    private final OpenApiIngestor ingestor;
    private final ManifestFiles manifests;
    private final AirlockConfig config;

    public GitSourceReader(OpenApiIngestor ingestor, ManifestFiles manifests, AirlockConfig config) {
        this.ingestor = ingestor;
        this.manifests = manifests;
        this.config = config;
    }

    public Discovery read(SourceSnapshot source) throws SourceReadException {
        boolean local = checkLocation(source.url());
        String branch = source.branch() == null || source.branch().isBlank() ? "main" : source.branch().trim();
        Path scratch;
        try {
            scratch = Files.createTempDirectory("toolsmith-git-");
        } catch (IOException e) {
            throw new SourceReadException("cannot create a scratch directory for the clone: " + e.getMessage(), e);
        }
        try {
            clone(source.url(), branch, scratch, local);
            return readManifests(scratch, source.path());
        } finally {
            deleteQuietly(scratch);
        }
    }

    private boolean checkLocation(String url) throws SourceReadException {
        URI uri;
        try {
            uri = URI.create(url.trim());
        } catch (IllegalArgumentException e) {
            throw new SourceReadException("'" + url + "' is not a valid repository URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("file")) {
            if (!config.allowPrivateNetworks()) {
                throw new SourceReadException("local repositories (file:) are allowed only when"
                        + " toolsmith.airlock.allow-private-networks is on (local development)");
            }
            return true;
        }
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new SourceReadException("'" + url + "': only http(s) git repositories are supported");
        }
        try {
            ingestor.fetcher().policy().resolveAndCheck(uri.getHost());
        } catch (FetchException e) {
            throw new SourceReadException(e.getMessage(), e);
        }
        return false;
    }

    private void clone(String url, String branch, Path into, boolean local) throws SourceReadException {
        var command = Git.cloneRepository().setURI(url.trim()).setDirectory(into.toFile()).setBranch(branch)
                .setCloneAllBranches(false).setBranchesToClone(List.of("refs/heads/" + branch))
                .setTimeout((int) Math.max(1, config.fetchTimeout().toSeconds()));
        if (!local) {
            command.setDepth(1);
        }
        try (Git git = command.call()) {
            String checkedOut = git.getRepository().getBranch();
            if (!branch.equals(checkedOut) || git.getRepository().resolve("HEAD") == null) {
                throw new SourceReadException("branch '" + branch + "' does not exist in " + url);
            }
        } catch (GitAPIException | IOException | org.eclipse.jgit.api.errors.JGitInternalException e) {
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new SourceReadException("cannot clone " + url + " (branch " + branch + "): " + message, e);
        }
    }

    private Discovery readManifests(Path repository, String folder) throws SourceReadException {
        Path base = repository.resolve(folder == null ? "" : folder.replaceFirst("^/+", "")).normalize();
        if (!base.startsWith(repository) || base.startsWith(repository.resolve(".git"))) {
            throw new SourceReadException("path '" + folder + "' leaves the repository");
        }
        if (!Files.isDirectory(base)) {
            throw new SourceReadException("path '" + folder + "' is not a folder of the repository");
        }
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(base)) {
            walk.filter(p -> !Files.isSymbolicLink(p) && Files.isRegularFile(p) && isManifestFile(p))
                    .filter(p -> !repository.relativize(p).startsWith(".git"))
                    .sorted().forEach(files::add);
        } catch (IOException e) {
            throw new SourceReadException("cannot list " + folder + ": " + e.getMessage(), e);
        }
        List<DiscoveredTool> tools = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        if (files.size() > config.gitMaxFiles()) {
            skipped.add(files.size() + " manifest files; only the first " + config.gitMaxFiles() + " were read");
            files = files.subList(0, config.gitMaxFiles());
        }
        for (Path file : files) {
            String key = repository.relativize(file).toString().replace('\\', '/');
            try {
                if (Files.size(file) > config.maxDocumentBytes()) {
                    skipped.add(key + ": larger than " + config.maxDocumentBytes() + " bytes");
                    continue;
                }
                tools.addAll(manifests.read(Files.readAllBytes(file), key, ToolSourceType.GIT, skipped));
            } catch (IngestionException e) {
                skipped.add(key + ": " + e.getMessage());
            } catch (IOException e) {
                skipped.add(key + ": cannot be read: " + e.getMessage());
            }
        }
        if (tools.isEmpty() && files.isEmpty()) {
            throw new SourceReadException("no manifest files (.json, .yaml, .yml) under '" + folder + "'");
        }
        return new Discovery(tools, skipped);
    }

    private static boolean isManifestFile(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".json") || name.endsWith(".yaml") || name.endsWith(".yml");
    }

    private static void deleteQuietly(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException ignored) {
            // a scratch directory left behind in the temp folder is harmless
        }
    }

}

package io.github.camelredisdelay.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The {@code redis-cli} on {@code PATH}, run only to join servers into a cluster ({@code --cluster create}). */
final class RedisCli {

    static final String EXECUTABLE_NAME = "redis-cli";

    private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(5);

    private final Path path;

    private RedisCli(Path path) {
        this.path = path;
    }

    /**
     * The {@code redis-cli} on {@code PATH}.
     *
     * @throws IllegalStateException naming the search path and how to install it when there is none
     */
    static RedisCli onPath() {
        return find(System.getenv("PATH"));
    }

    /** The {@code redis-cli} in the directories of {@code searchPath}, for tests of the missing case. */
    static RedisCli find(String searchPath) {
        return SearchPath.find(EXECUTABLE_NAME, searchPath).map(RedisCli::new).orElseThrow(() ->
                new IllegalStateException(EXECUTABLE_NAME + " is not on PATH (" + searchPath + "); a Redis Cluster "
                        + "deployment needs it to join its nodes with '" + EXECUTABLE_NAME + " --cluster create'. "
                        + "Install it (Debian/Ubuntu: apt-get install redis-tools) or put its directory on PATH"));
    }

    Path path() {
        return path;
    }

    /**
     * Joins the nodes into one cluster: the first {@code nodes.size() / (replicasPerMaster + 1)} become masters
     * and share the 16384 slots, the others replicate them. Returns when {@code redis-cli} is done, which is
     * before every node agrees; the caller waits for that.
     *
     * @throws IllegalStateException with the tool's output when it fails or takes longer than a minute
     */
    void createCluster(List<RedisServerProcess> nodes, int replicasPerMaster) {
        List<String> command = new ArrayList<>(List.of(path.toString(), "--cluster", "create"));
        nodes.forEach(node -> command.add(node.host() + ":" + node.port()));
        command.addAll(List.of("--cluster-replicas", String.valueOf(replicasPerMaster), "--cluster-yes"));
        Path output = createTempFile();
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            // --cluster-yes answers its only question; nothing else is to be read
            process.getOutputStream().close();
            if (!ProcessExit.await(process, CREATE_TIMEOUT)) {
                ProcessExit.kill(process, KILL_TIMEOUT);
                throw failure(command, "did not finish within " + CREATE_TIMEOUT.toSeconds() + " s", output);
            }
            if (process.exitValue() != 0) {
                throw failure(command, "exited with code " + process.exitValue(), output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + path, e);
        } finally {
            deleteQuietly(output);
        }
    }

    private static IllegalStateException failure(List<String> command, String what, Path output) {
        return new IllegalStateException(String.join(" ", command) + " " + what + ":\n" + read(output));
    }

    private static Path createTempFile() {
        try {
            return Files.createTempFile("redis-cli-cluster-create-", ".out");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a file for the output of " + EXECUTABLE_NAME, e);
        }
    }

    /** The output without the terminal colour codes redis-cli writes even to a file. */
    private static String read(Path output) {
        try {
            return Files.readString(output, StandardCharsets.UTF_8).replaceAll("\u001B\\[[0-9;]*m", "");
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a leftover file in the temp directory harms nothing
        }
    }
}

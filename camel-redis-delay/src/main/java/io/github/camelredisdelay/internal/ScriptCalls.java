/*
 * Copyright The camel-redis-delay authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.github.camelredisdelay.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import io.github.camelredisdelay.NotReplicatedException;
import org.redisson.Redisson;
import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.RedisResponseTimeoutException;
import org.redisson.client.codec.ByteArrayCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.github.camelredisdelay.internal.Replies.bytes;

/**
 * Runs the Lua scripts of one queue (shard). Every script gets the same keys and common arguments
 * ({@code prelude.lua}), built once here, and every call says how long it waits for durability ({@link Durability}), so
 * what a failover can take from each operation is written at its call site.
 */
public final class ScriptCalls {

    /** How long a script call waits for replicas (and their append-only files) as {@link WriteSync} says. */
    public enum Durability {
        /** No waiting: nothing was changed, or what a failover loses is only delivered again. */
        NONE,
        /** A shortfall fails the call: the caller is told the write is safe. */
        REQUIRED,
        /** A shortfall is logged (rate-limited): losing the write in a failover only means a duplicate delivery. */
        BEST_EFFORT
    }

    private static final Logger LOG = LoggerFactory.getLogger(ScriptCalls.class);

    private final ConnectedClient client;
    private final String queue;
    /** The hash tag of a shard of a queue with several, which failures name; {@code null} otherwise. */
    private final String hashTag;
    private final String routingKey;
    private final WriteSync sync;
    private final List<Object> scriptKeys;
    private final Object[] commonArgs;
    private final ShortfallLog shortfalls;

    ScriptCalls(ConnectedClient client, QueueKeys keys, WriteSync sync) {
        this(client, keys.queue(), keys.tag().equals(keys.queue()) ? null : keys.tag(),
             List.of(keys.due(), keys.msg(), keys.ready(), keys.fail(), keys.migrated(), keys.absent()),
             new Object[] { bytes(keys.wake()), bytes(QueueKeys.GROUP) }, sync);
    }

    /**
     * Calls of scripts that are not queue scripts (no {@code prelude.lua}): every call gets {@code scriptKeys}, which
     * share one slot, and no common arguments.
     *
     * @param name names the keys' owner in errors and logs
     */
    ScriptCalls(ConnectedClient client, String name, List<Object> scriptKeys, WriteSync sync) {
        this(client, name, null, scriptKeys, new Object[0], sync);
    }

    private ScriptCalls(ConnectedClient client, String name, String hashTag, List<Object> scriptKeys, Object[] commonArgs,
                        WriteSync sync) {
        this.client = client;
        this.queue = name;
        this.hashTag = hashTag;
        this.routingKey = (String) scriptKeys.get(0);
        this.sync = sync;
        this.scriptKeys = scriptKeys;
        this.commonArgs = commonArgs;
        this.shortfalls = new ShortfallLog(LOG, "Acknowledgements on queue " + name);
    }

    /**
     * Runs {@code lua} with {@code args} after the common arguments.
     *
     * @param  operation names the call in errors, e.g. "Cancel of message 42"
     * @return           the reply; for {@link Durability#REQUIRED} it fails with {@link NotReplicatedException} when
     *                   the write is applied but reached too few replicas
     */
    public <R> CompletionStage<R> call(
            String operation, LuaScript lua, Durability durability, RScript.ReturnType type,
            Object... args) {
        return send(operation, lua, durability, type, false, args);
    }

    /**
     * {@link #call}, sent to Redis at most once, for a call whose second run would answer otherwise than its first (a
     * schedule under an id the application gave would find its own message and call it a duplicate; a cancel would find
     * nothing left to remove). Redisson sends a call again when its reply is later than the client's response timeout
     * or its connection closed after it was written, and Redis runs every copy it got: this one is not sent again once
     * it may have run, and a late reply fails it saying so ({@link #saidLate}). A call Redis refused ({@code LOADING},
     * {@code BUSY}, {@code READONLY}...) or that was never written is retried as any other. Sent in a pipeline (waiting
     * for replicas) it is not retried at all, and through a client that is not Redisson's own implementation it is sent
     * as {@link #call} is.
     */
    public <R> CompletionStage<R> callOnce(
            String operation, LuaScript lua, Durability durability, RScript.ReturnType type, Object... args) {
        return this.<R>send(operation, lua, durability, type, true, args)
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(saidLate(failure, operation)));
    }

    private <R> CompletionStage<R> send(
            String operation, LuaScript lua, Durability durability, RScript.ReturnType type, boolean once,
            Object... args) {
        Object[] argv = argv(args);
        CompletionStage<R> reply;
        try {
            reply = waits(durability)
                    ? pipelined(operation, lua, durability, once, batch -> batch.getScript(ByteArrayCodec.INSTANCE)
                            .evalAsync(routingKey, lua.mode(), lua.text(), type, scriptKeys, argv))
                    : once ? evalOnce(lua, type, argv)
                    : script().evalAsync(routingKey, lua.mode(), lua.text(), type, scriptKeys, argv);
        } catch (RuntimeException e) {
            // Redisson throws instead of failing the future when it cannot connect
            reply = CompletableFuture.failedFuture(e);
        }
        return client.watch(reply);
    }

    /**
     * A call of {@code lua} that Redisson does not send again once it may have run: the way its own locks send their
     * scripts, through its command executor (not part of {@code RedissonClient}'s interface), so only for a client that
     * is Redisson's own implementation, and for a script that writes.
     */
    private <R> CompletionStage<R> evalOnce(LuaScript lua, RScript.ReturnType type, Object[] argv) {
        RedissonClient redisson = client.get();
        if (!(redisson instanceof Redisson own) || lua.mode() != RScript.Mode.READ_WRITE) {
            return script().evalAsync(routingKey, lua.mode(), lua.text(), type, scriptKeys, argv);
        }
        return own.getCommandExecutor().evalWriteNoRetryAsync(
                routingKey, ByteArrayCodec.INSTANCE, type.getCommand(), lua.text(), scriptKeys, argv);
    }

    /**
     * {@code failure} of a call sent once ({@link #callOnce}), or, when its reply came later than the client's response
     * timeout, a failure of the same type saying that Redis may still run it.
     */
    private Throwable saidLate(Throwable failure, String operation) {
        Throwable late = RootCause.first(failure, RedisResponseTimeoutException.class::isInstance);
        if (late == null) {
            return Futures.unwrap(failure);
        }
        return OwnFailure.of(late, operation + " on queue " + queue + " got no reply within the client's response "
                                   + "timeout, and Redis may still run it (peek the message id to know): it is not sent "
                                   + "again, since a second run would answer otherwise");
    }

    /**
     * {@link #call}, an error Redis replies to it or a connection the client got none of in time said plainly
     * ({@link #plainly}).
     */
    public <R> CompletionStage<R> callPlainly(
            String operation, LuaScript lua, Durability durability, RScript.ReturnType type, Object... args) {
        return saidPlainly(call(operation, lua, durability, type, args), operation, lua);
    }

    /** {@code reply} of a call of {@code lua}, failing as {@link #plainly} says its failure. */
    public <R> CompletionStage<R> saidPlainly(CompletionStage<R> reply, String operation, LuaScript lua) {
        return reply.exceptionallyCompose(failure -> {
            Throwable unwrapped = Futures.unwrap(failure);
            Throwable plain = plainly(unwrapped, operation, lua);
            return CompletableFuture.failedFuture(plain != null ? plain : unwrapped);
        });
    }

    /** {@link #callPlainly}, waiting for the reply. */
    public <R> R callAndWait(String operation, LuaScript lua, Durability durability, RScript.ReturnType type, Object... args) {
        return Futures.await(callPlainly(operation, lua, durability, type, args));
    }

    /** {@link #callOnce}, said plainly as {@link #callPlainly} says a call, waiting for the reply. */
    public <R> R callOnceAndWait(
            String operation, LuaScript lua, Durability durability, RScript.ReturnType type, Object... args) {
        return Futures.await(saidPlainly(callOnce(operation, lua, durability, type, args), operation, lua));
    }

    /**
     * {@code failure} of {@code operation} ("Cancel of message 42"), a call of {@code script}, said plainly, of the
     * same type and caused by it: an error Redis replied, naming the operation, the queue, the script and the reply
     * ({@link ErrorReply}), or a connection the client got none of in time ({@link ClientShortage}), whose text
     * Redisson follows with the command and the script's source; {@code null} for any other failure.
     */
    public Throwable plainly(Throwable failure, String operation, LuaScript script) {
        RedisException reply = ErrorReply.itself(failure);
        if (reply != null) {
            return OwnFailure.of(reply, operation + " on queue " + queue + " failed (" + script.title() + "): "
                                        + ErrorReply.plainly(reply));
        }
        String shortage = ClientShortage.advice(failure);
        return shortage == null
                ? null
                : OwnFailure.of(failure, operation + " on queue " + queue + " failed: " + shortage);
    }

    /**
     * Runs {@code lua} and then the command {@code then} adds, in one pipeline (one round trip). Redis runs each
     * command of a pipeline on its own, so the command's reply stands when the script alone was refused or failed: the
     * stage then completes with both. It fails when the command did, or when the pipeline failed otherwise (a wait for
     * replicas that Redis refused, or a shortfall of a {@link Durability#REQUIRED} write). A script Redis did not hold
     * (NOSCRIPT, see {@link #pipelined}) did not run: it is sent again alone, through {@link #call}.
     */
    public <R> CompletionStage<Beside<R>> callBeside(
            String operation, LuaScript lua, Durability durability, RScript.ReturnType type,
            Object[] args, Function<RBatch, RFuture<R>> then) {
        Object[] argv = argv(args);
        RBatch batch = newBatch(durability, false);
        CompletableFuture<Object> script = batch.getScript(ByteArrayCodec.INSTANCE)
                .evalAsync(routingKey, lua.mode(), lua.text(), type, scriptKeys, argv).toCompletableFuture();
        CompletableFuture<R> command = then.apply(batch).toCompletableFuture();
        return client.watch(batch.executeAsync()).handle((done, failure) -> {
            if (failure == null) {
                checkReplicas(operation, durability, done);
                return CompletableFuture.completedFuture(new Beside<>(command.join(), null));
            }
            if (!answered(command) || answered(script)) {
                throw batchFailure(failure);
            }
            // the pipeline's failure is the script's (Redisson may not have failed the script's own future yet)
            RuntimeException scriptFailure = batchFailure(failure);
            if (!(scriptFailure instanceof RedisNoScriptException)) {
                return CompletableFuture.completedFuture(new Beside<>(command.join(), scriptFailure));
            }
            return call(operation, lua, durability, type, args).handle(
                    (alone, again) -> new Beside<>(command.join(), again == null ? null : batchFailure(again)));
        }).thenCompose(Function.identity());
    }

    /**
     * A harmless read followed by the wait for replicas {@link WriteSync} asks of writes: fails as every such write
     * would when Redis cannot do that wait (syncAof on a server without WAITAOF or without an append-only file).
     */
    public CompletionStage<Void> checkWait() {
        RBatch batch = newBatch(Durability.REQUIRED, false);
        batch.getKeys().countExistsAsync(routingKey);
        // unlike pipelined: too few replicas says nothing about whether Redis can wait, only a refused wait fails
        return client.watch(batch.executeAsync()).handle((done, failure) -> {
            if (failure != null) {
                throw batchFailure(failure);
            }
            return null;
        });
    }

    private static boolean answered(CompletableFuture<?> reply) {
        return reply.isDone() && !reply.isCompletedExceptionally();
    }

    /**
     * The reply of the command run beside a script ({@link #callBeside}), and what the script failed with, if it did.
     */
    public record Beside<R>(R reply, RuntimeException scriptFailure) {
    }

    private Object[] argv(Object[] args) {
        Object[] argv = new Object[commonArgs.length + args.length];
        System.arraycopy(commonArgs, 0, argv, 0, commonArgs.length);
        System.arraycopy(args, 0, argv, commonArgs.length, args.length);
        return argv;
    }

    private boolean waits(Durability durability) {
        return sync.enabled() && durability != Durability.NONE;
    }

    /**
     * Sends the commands {@code commands} adds to a batch, a call of {@code lua} among them, in one pipeline
     * ({@link #newBatch}), and completes with the reply of the command it returns.
     * <p>
     * Redisson sends a pipeline's scripts by EVALSHA alone once it has loaded them on a server, and forgets that only
     * when a connection to the server drops (a note shared by the JVM's clients). A server that lost its scripts while
     * the connections stayed ({@code SCRIPT FLUSH}) refuses them with NOSCRIPT until then. The script did not run, nor
     * did anything but a wait for replicas: {@code lua} is loaded on the shard's node and the pipeline sent once more.
     */
    private <R> CompletionStage<R> pipelined(
            String operation, LuaScript lua, Durability durability, boolean once,
            Function<RBatch, RFuture<R>> commands) {
        return sendPipeline(operation, durability, once, commands).exceptionallyCompose(failure -> {
            if (!(Futures.unwrap(failure) instanceof RedisNoScriptException)) {
                return CompletableFuture.failedFuture(failure);
            }
            return script().scriptLoadAsync(routingKey, lua.text())
                    .thenCompose(loaded -> sendPipeline(operation, durability, once, commands));
        });
    }

    /** @param once whether the pipeline is sent at most once: not retried at all ({@link #callOnce}) */
    private <R> CompletionStage<R> sendPipeline(
            String operation, Durability durability, boolean once, Function<RBatch, RFuture<R>> commands) {
        RBatch batch = newBatch(durability, once);
        RFuture<R> result = commands.apply(batch);
        return batch.executeAsync().handle((done, failure) -> {
            if (failure != null) {
                throw batchFailure(failure);
            }
            checkReplicas(operation, durability, done);
            return result.toCompletableFuture().join();
        });
    }

    private RScript script() {
        return client.get().getScript(ByteArrayCodec.INSTANCE);
    }

    /**
     * A pipeline, followed by a wait for replicas as {@link WriteSync} and {@code durability} say; not retried at all
     * when sent {@code once} ({@link #callOnce}).
     */
    private RBatch newBatch(Durability durability, boolean once) {
        BatchOptions options = waits(durability) ? sync.batchOptions() : BatchOptions.defaults();
        return client.get().createBatch(once ? options.retryAttempts(0) : options);
    }

    /**
     * Fails for a {@link Durability#REQUIRED} write that reached too few replicas, or logs the shortfall of a
     * {@link Durability#BEST_EFFORT} one.
     */
    private void checkReplicas(String operation, Durability durability, BatchResult<?> done) {
        boolean waits = waits(durability);
        if (waits && done.getSyncedSlaves() < sync.replicas()) {
            NotReplicatedException shortfall = new NotReplicatedException(
                    queue, hashTag, operation, sync.replicas(),
                    done.getSyncedSlaves(), sync.timeoutMs(), sync.aof());
            if (durability == Durability.REQUIRED) {
                throw shortfall;
            }
            shortfalls.fellShort(shortfall);
        } else if (waits && durability == Durability.BEST_EFFORT) {
            shortfalls.reached();
        }
    }

    /**
     * The failure of a batch, unwrapped; names what syncAof needs when WAITAOF is what failed: Redis 7.2 or later, or,
     * when the server has it, an append-only file (it keeps none) or a user allowed it (the ACL refused it,
     * {@code NOPERM}).
     */
    private RuntimeException batchFailure(Throwable failure) {
        Throwable cause = Futures.unwrap(failure);
        String reply = String.valueOf(cause.getMessage());
        if (sync.aof() && cause instanceof RedisException && reply.contains("WAITAOF")) {
            String needs = reply.startsWith("NOPERM")
                    ? "a Redis user allowed WAITAOF (ACL rule +waitaof)"
                    : reply.contains("appendonly")
                            ? "an append-only file (appendonly yes)"
                    : "Redis 7.2 or later (WAITAOF)";
            return new IllegalStateException(
                    "syncAof=true on queue " + queue + " needs " + needs + "; the server replied: " + reply, cause);
        }
        return cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
    }
}

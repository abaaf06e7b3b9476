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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;

/**
 * Names the root cause of a failure whose message leaves it out: Redisson reports a connection it could not make as
 * "Unable to connect to Redis server: host:port" or "Unexpected exception while processing command", and only the
 * causes tell why (a refused connection, a TLS handshake that failed).
 */
public final class RootCause {

    /** How far down a failure's chain of causes its root cause is looked for. */
    private static final int MAX_CAUSES = 8;

    private RootCause() {
    }

    /**
     * {@code text}, followed by {@code "; caused by "} and the root cause of {@code failure} when {@code text} does not
     * tell it. The root cause is named by the outermost cause that still tells it (an SSLHandshakeException rather than
     * the certificate path error inside it), not by a future's wrapper.
     */
    public static String added(String text, Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable cause = failure; cause != null && chain.size() < MAX_CAUSES && !chain.contains(cause); cause
                = cause.getCause()) {
            chain.add(cause);
        }
        String root = chain.get(chain.size() - 1).getMessage();
        if (chain.size() == 1 || root == null || String.valueOf(text).contains(root)) {
            return text;
        }
        int named = chain.size() - 1;
        while (named > 1 && tells(chain.get(named - 1), root)) {
            named--;
        }
        return text + "; caused by " + chain.get(named);
    }

    /**
     * The first of {@code failure} and its causes (at most {@value #MAX_CAUSES}, a cycle ending the walk) that
     * {@code matches}, or {@code null}.
     */
    public static Throwable first(Throwable failure, Predicate<Throwable> matches) {
        List<Throwable> seen = new ArrayList<>();
        for (Throwable cause = failure; cause != null && seen.size() < MAX_CAUSES && !seen.contains(cause); cause
                = cause.getCause()) {
            if (matches.test(cause)) {
                return cause;
            }
            seen.add(cause);
        }
        return null;
    }

    private static boolean tells(Throwable cause, String root) {
        return String.valueOf(cause.getMessage()).contains(root)
                && !(cause instanceof CompletionException || cause instanceof ExecutionException);
    }
}

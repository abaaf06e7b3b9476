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
package io.github.camelredisdelay;

import java.net.URI;
import java.net.URISyntaxException;

import io.github.camelredisdelay.internal.AddressText;
import org.redisson.misc.RedisURI;

/**
 * Checks the options of the connection the component opens to {@code address} (without a RedissonClient or a Redisson
 * configuration) for what Redisson would not use, or use otherwise than written: Redisson reads the address's scheme,
 * user-info, host and port only, and logs a user in only with a password.
 */
final class OwnConnectionCheck {

    private static final String ADDRESS_FORMS = "give redis://host:port, or rediss://host:port for TLS";

    private OwnConnectionCheck() {
    }

    /**
     * @throws IllegalArgumentException naming the option, its value (the password masked) and what is allowed
     */
    static void check(String address, String username, String password, Integer database, String queue) {
        if (!isRedisUri(address)) {
            throw new IllegalArgumentException(
                    "Invalid address '" + AddressText.of(address) + "' of queue " + queue + ": " + ADDRESS_FORMS
                                               + ", e.g. redis://127.0.0.1:6379");
        }
        RedisURI parsed = new RedisURI(address);
        if (!parsed.isUDS()) {
            requireNothingIgnored(address, database, queue);
        }
        if (username != null && password == null && parsed.getPassword() == null) {
            throw new IllegalArgumentException(
                    "Invalid username of queue " + queue + ": without a password (the password option, or "
                                               + "redis://user:password@host:port) Redis is not asked to log the user "
                                               + "in, and the connection would run as its default user. Give the "
                                               + "user's password (any, for a user with nopass)");
        }
    }

    /**
     * Whether Redisson can connect to {@code address}: Redisson's own check, whose error names neither the option nor
     * the value, and a port, which that check misses when a password precedes the host ({@code redis://:pw@host} would
     * connect to port -1).
     */
    private static boolean isRedisUri(String address) {
        try {
            RedisURI uri = new RedisURI(address);
            return uri.isUDS() || uri.getPort() >= 0;
        } catch (IllegalArgumentException | NullPointerException e) {
            return false;
        }
    }

    /**
     * A database as the address's path ({@code /3}, as many a {@code REDIS_URL} has) or a query would be ignored, the
     * queue in database 0; a path naming the database the connection uses anyway (the database option, else 0) is
     * harmless.
     */
    private static void requireNothingIgnored(String address, Integer database, String queue) {
        URI uri;
        try {
            uri = new URI(address);
        } catch (URISyntaxException e) {
            // Redisson parsed it (isRedisUri): whatever it ignores, this cannot tell
            return;
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String query = uri.getRawQuery();
        boolean harmlessPath = path.isEmpty() || path.equals("/") || path.equals("/" + (database == null ? 0 : database));
        if (harmlessPath && query == null) {
            return;
        }
        throw new IllegalArgumentException(
                "Invalid address '" + AddressText.of(address) + "' of queue " + queue + ": Redisson connects to "
                                           + "its host and port only and would ignore '"
                                           + (query == null ? path : AddressText.of("?" + query)) + "'; "
                                           + (query == null && path.matches("/\\d+")
                                                   ? databaseAdvice(path, database)
                                                   : ADDRESS_FORMS));
    }

    private static String databaseAdvice(String path, Integer database) {
        return database != null
                ? "the database option names database " + database + ": leave the path out"
                : "name the database with the database option instead (database=" + path.substring(1) + ")";
    }
}

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

import org.apache.camel.util.URISupport;

/**
 * A Redis address as messages show it, its password masked. Camel's {@code URISupport.sanitizeUri} masks the password
 * that follows a user and a colon ({@code redis://user:xxxxxx@host:6379}), but Redisson also reads user-info without a
 * colon as a password ({@code redis://password@host:6379}), which that leaves as it is: masked here too.
 */
public final class AddressText {

    private static final String MASK = "xxxxxx";

    private AddressText() {
    }

    /** {@code address} with any password it carries masked; {@code null} as {@code "null"}. */
    public static String of(String address) {
        String sanitized = URISupport.sanitizeUri(String.valueOf(address));
        int scheme = sanitized.indexOf("://");
        if (scheme < 0) {
            return sanitized;
        }
        int start = scheme + 3;
        int end = start;
        while (end < sanitized.length() && "/?#".indexOf(sanitized.charAt(end)) < 0) {
            end++;
        }
        // user-info ends at the last '@' of the host part: a password may hold one
        int at = sanitized.lastIndexOf('@', end - 1);
        if (at < start || sanitized.substring(start, at).contains(":")) {
            return sanitized;
        }
        return sanitized.substring(0, start) + MASK + sanitized.substring(at);
    }
}

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

import java.util.regex.Pattern;

/**
 * A Redis address as messages show it, its password masked: {@code redis://user:xxxxxx@host:6379}, and
 * {@code redis://xxxxxx@host:6379} for user-info without a colon, which Redisson reads as a password too (Camel's
 * {@code URISupport.sanitizeUri} leaves that form as it is). User-info ends at the last {@code @} before the path, as
 * Redisson reads it: a password may hold one. A query, which Redisson ignores, has the values of its parameters named
 * as secrets masked ({@code ?password=xxxxxx}), as Camel masks an endpoint URI's.
 */
public final class AddressText {

    private static final String MASK = "xxxxxx";
    /** A query parameter whose name says it holds a secret, up to its value. */
    private static final Pattern SECRET_PARAMETER = Pattern.compile(
            "([?&][^=&#]*(?:pass|secret|token|key|auth|credential)[^=&#]*=)[^&#]*", Pattern.CASE_INSENSITIVE);

    private AddressText() {
    }

    /**
     * {@code address} (or its query alone) with its passwords masked, if it has any; {@code null} as {@code "null"}.
     */
    public static String of(String address) {
        String text = SECRET_PARAMETER.matcher(String.valueOf(address)).replaceAll("$1" + MASK);
        int scheme = text.indexOf("://");
        if (scheme < 0) {
            return text;
        }
        int start = scheme + 3;
        int end = start;
        while (end < text.length() && "/?#".indexOf(text.charAt(end)) < 0) {
            end++;
        }
        int at = text.lastIndexOf('@', end - 1);
        if (at < start) {
            return text;
        }
        int colon = text.indexOf(':', start);
        String user = colon >= 0 && colon < at ? text.substring(start, colon + 1) : "";
        return text.substring(0, start) + user + MASK + text.substring(at);
    }
}

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

/**
 * Text a message brings (its id, a header name, a route's exception message), made safe for a log line or an exception
 * message: a message id may hold any character, and often comes from untrusted input, so written raw a line break in it
 * would end the line and forge the next one. CR, LF and TAB become {@code \r}, {@code \n} and {@code \t}; other ISO
 * control characters and the line and paragraph separators U+2028 and U+2029 become {@code \}{@code uXXXX}; every other
 * character stays as it is. Only what is logged is escaped: the id stored and delivered is the one sent.
 */
public final class LogText {

    private LogText() {
    }

    /** {@code text} with its line breaks and other control characters escaped; {@code null} as {@code "null"}. */
    public static String of(Object text) {
        String value = String.valueOf(text);
        int first = 0;
        while (first < value.length() && !escaped(value.charAt(first))) {
            first++;
        }
        if (first == value.length()) {
            return value;
        }
        StringBuilder safe = new StringBuilder(value.length() + 16).append(value, 0, first);
        for (int i = first; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\n' -> safe.append("\\n");
                case '\r' -> safe.append("\\r");
                case '\t' -> safe.append("\\t");
                default -> {
                    if (escaped(c)) {
                        safe.append(String.format("\\u%04x", (int) c));
                    } else {
                        safe.append(c);
                    }
                }
            }
        }
        return safe.toString();
    }

    private static boolean escaped(char c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
    }
}

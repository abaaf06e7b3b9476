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
package io.github.camelredisdelay.security;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the reply of {@code ACL LOG} as {@link io.github.camelredisdelay.embedded.RedisServerProcess#command} returns
 * it (every element on its own line) into one line per entry, such as {@code "camel: command 'xclaim' (toplevel)"} or
 * {@code "camel: key 'other:key' (lua)"}.
 */
final class AclLog {

    private AclLog() {
    }

    static List<String> entries(String reply) {
        List<String> entries = new ArrayList<>();
        if (reply == null || reply.isEmpty()) {
            return entries;
        }
        String reason = null;
        String context = null;
        String object = null;
        List<String> lines = reply.lines().toList();
        for (int i = 0; i + 1 < lines.size(); i++) {
            String value = lines.get(i + 1);
            switch (lines.get(i)) {
                case "reason" -> reason = value;
                case "context" -> context = value;
                case "object" -> object = value;
                case "username" -> entries.add(value + ": " + reason + " '" + object + "' (" + context + ")");
                default -> {
                    continue;
                }
            }
            i++;
        }
        return entries;
    }
}

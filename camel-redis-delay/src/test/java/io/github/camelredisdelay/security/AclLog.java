package io.github.camelredisdelay.security;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the reply of {@code ACL LOG} as {@link io.github.camelredisdelay.embedded.RedisServerProcess#command}
 * returns it (every element on its own line) into one line per entry, such as
 * {@code "camel: command 'xclaim' (toplevel)"} or {@code "camel: key 'other:key' (lua)"}.
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

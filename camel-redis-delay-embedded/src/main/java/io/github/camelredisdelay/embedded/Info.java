package io.github.camelredisdelay.embedded;

import java.util.Optional;

/** Reads one field from the text of an {@code INFO} reply ({@code name:value} lines). */
final class Info {

    private Info() {
    }

    static Optional<String> field(String info, String name) {
        String prefix = name + ":";
        return info.lines()
                .filter(line -> line.startsWith(prefix))
                .map(line -> line.substring(prefix.length()).strip())
                .findFirst();
    }
}

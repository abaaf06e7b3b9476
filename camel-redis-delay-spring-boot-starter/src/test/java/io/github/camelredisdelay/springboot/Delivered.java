package io.github.camelredisdelay.springboot;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Bodies the test routes received, in order. */
public final class Delivered {

    private final List<String> bodies = new CopyOnWriteArrayList<>();

    void add(String body) {
        bodies.add(body);
    }

    boolean contains(String body) {
        return bodies.contains(body);
    }
}

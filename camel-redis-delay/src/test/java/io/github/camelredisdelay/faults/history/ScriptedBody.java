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
package io.github.camelredisdelay.faults.history;

import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A body that says what the consumers do with it: how many of its deliveries fail, how long each takes, and how many
 * times the route re-delays it. Every body of a round is unique (its sequence number), so a delivery names the version
 * it delivers. As text: {@code v<sequence>-<source>-f<fails>-p<pause ms>-r<re-delays>}.
 *
 * @param source    who made it: {@code t0}, {@code t1}... (producer threads) or {@code rd} (a route's re-delay)
 * @param failUntil deliveries up to this count fail
 */
public record ScriptedBody(long sequence, String source, int failUntil, int pauseMillis, int redelays) {

    /** Finds a body in any text, e.g. the raw fields of a ready stream entry. */
    static final Pattern PATTERN = Pattern.compile("v(\\d+)-([a-z0-9]+)-f(\\d+)-p(\\d+)-r(\\d+)");

    public String text() {
        return "v" + sequence + "-" + source + "-f" + failUntil + "-p" + pauseMillis + "-r" + redelays;
    }

    public static ScriptedBody parse(String text) {
        Matcher matcher = PATTERN.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("Not a scripted body: " + text);
        }
        return new ScriptedBody(
                Long.parseLong(matcher.group(1)), matcher.group(2), Integer.parseInt(matcher.group(3)),
                Integer.parseInt(matcher.group(4)), Integer.parseInt(matcher.group(5)));
    }

    /** Whether the delivery with this count fails. */
    boolean fails(int deliveryCount) {
        return deliveryCount <= failUntil;
    }

    /** A producer's body: most succeed at once, some fail once or twice, some always (dead letters). */
    static ScriptedBody drawn(Random random, long sequence, String source, int redelays) {
        int failRoll = random.nextInt(100);
        int failUntil = failRoll < 60 ? 0 : failRoll < 78 ? 1 : failRoll < 88 ? 2 : 9;
        return new ScriptedBody(sequence, source, failUntil, pause(random), redelays);
    }

    /** The body a route re-delays this one as: one re-delay fewer, drawn from this body alone. */
    ScriptedBody redelayed(long newSequence) {
        Random random = new Random(text().hashCode());
        int failRoll = random.nextInt(100);
        return new ScriptedBody(
                newSequence, "rd", failRoll < 60 ? 0 : failRoll < 80 ? 1 : 9, random.nextInt(40),
                redelays - 1);
    }

    /** Mostly short, some past a tenth of a second, a few past the visibility timeout (the lease is extended). */
    private static int pause(Random random) {
        int roll = random.nextInt(100);
        return roll < 65 ? random.nextInt(40) : roll < 95 ? 100 + random.nextInt(300) : 1200 + random.nextInt(1300);
    }
}

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

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Generates message ids: 96 random bits written as 16 URL-safe characters. Short, because Redis keeps an id twice per
 * pending message (the record's hash field and its due-set entry) and a 16-character id fits an allocation 8 bytes
 * smaller than a 22-character one (128 bits); long enough that a repeat, which would be taken for a duplicate and kept
 * out, is out of reach: among 100 million messages pending at once the chance of any two ids matching is below 10^-13.
 * The bits come from a fixed set of cryptographically strong generators, seeded once; a thread draws from the one its
 * id points at, or from the next one free when another thread holds that one, so threads seldom wait on each other and
 * a thread that lives for one schedule (a virtual thread per request) does not create and seed a generator of its own.
 * A generator draws the bits of {@value #IDS_PER_DRAW} ids at once, because each draw has a fixed cost on top of its
 * bytes, which the ids of one draw share. Ids stay unique across any number of JVMs.
 */
public final class MessageIds {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    /** Random bytes per id; 12 encode to 16 characters without padding. */
    private static final int ID_BYTES = 12;
    /** Ids whose bits a thread draws from its generator at once. */
    private static final int IDS_PER_DRAW = 32;

    /** The generators: a power of two, at least twice the processors, so that threads seldom meet at one. */
    private static final RandomBits[] GENERATORS = IntStream
            .range(0, Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 4 - 1))
            .mapToObj(i -> new RandomBits())
            .toArray(RandomBits[]::new);

    /**
     * Longest message id accepted from a header, the suffixes of a dead letter's id ({@link #deadLetterId}) not
     * counted.
     */
    public static final int MAX_LENGTH = 512;

    /**
     * The most dead letters of one id from stream entries of one id (in the streams of queues sharing a dead-letter
     * queue) that {@link #deadLetterId} tells apart.
     */
    public static final int MAX_DEAD_LETTER_COPY = 1000;

    /**
     * The suffix {@link #deadLetterId} adds: {@code #} and a stream entry id, two 64-bit numbers, and from the second
     * copy on {@code .<n>}.
     */
    private static final Pattern DEAD_LETTER_SUFFIX = Pattern.compile("#\\d{1,20}-\\d{1,20}(\\.\\d{1,4})?");
    /** What follows the stream entry in the suffix of {@link #deadLetterId}: nothing, or {@code .<copy>}. */
    private static final Pattern COPY_NUMBER = Pattern.compile("(\\.\\d{1,4})?");

    private MessageIds() {
    }

    /**
     * The id under which a dead-letter queue holds a message whose id it already holds: {@code id#<stream entry>}, the
     * stream entry of the delivery it was dead-lettered from; for the {@code copy}th dead letter of the id from an
     * entry of that id (in the streams of queues that share the dead-letter queue) from 2 on,
     * {@code id#<stream entry>.<copy>}.
     */
    public static String deadLetterId(String id, String streamEntryId, int copy) {
        return id + "#" + streamEntryId + (copy == 1 ? "" : "." + copy);
    }

    /**
     * The id of the message a dead letter held under {@code deadLetterId} was dead-lettered from the stream entry
     * {@code streamEntryId}: {@code deadLetterId} without the suffix {@link #deadLetterId} added, or as it is when it
     * has none.
     */
    public static String withoutDeadLetterSuffix(String deadLetterId, String streamEntryId) {
        String suffix = "#" + streamEntryId;
        int at = deadLetterId.lastIndexOf(suffix);
        if (at > 0 && COPY_NUMBER.matcher(deadLetterId).region(at + suffix.length(), deadLetterId.length()).matches()) {
            return deadLetterId.substring(0, at);
        }
        return deadLetterId;
    }

    /**
     * Refuses, naming {@code where} it was given ("in header ... for queue ..."), an {@code id} no message can have: of
     * a length {@link #hasAllowedLength} refuses, of whitespace only (an id expression that found nothing, which would
     * make unrelated messages one), or not valid Unicode (ids are stored as UTF-8, where an unpaired surrogate would
     * become '?', making two ids one); returns it otherwise.
     */
    public static String requireValid(String id, String where) {
        if (!hasAllowedLength(id)) {
            throw new IllegalArgumentException(
                    "Invalid message id of " + id.length() + " characters " + where + ": 1 to "
                                               + MAX_LENGTH + " characters are allowed");
        }
        if (id.isBlank()) {
            throw new IllegalArgumentException(
                    "Invalid message id of " + id.length() + " whitespace characters " + where
                                               + ": an id must have a non-whitespace character");
        }
        int unpaired = UnicodeText.unpairedSurrogate(id);
        if (unpaired >= 0) {
            throw new IllegalArgumentException(
                    "Invalid message id " + where + ": it holds an unpaired UTF-16 surrogate at index " + unpaired
                                               + "; an id must be valid Unicode, as it is stored as UTF-8");
        }
        return id;
    }

    /**
     * Whether {@code id} has a length a header may give: 1 to {@value #MAX_LENGTH} characters, or such an id with one
     * or more suffixes of {@link #deadLetterId}, so that a dead letter can be named by the id the component gave it,
     * also one whose id carried a suffix already (a dead letter copied back to its queue under the id it was held
     * under, or one of a dead-letter queue dead-lettered on, that failed while its dead-letter queue held that id).
     */
    public static boolean hasAllowedLength(String id) {
        int end = id.length();
        // each dead-lettering may have added a suffix: take them off from the end until the id that remains fits
        while (end > MAX_LENGTH) {
            int suffix = id.lastIndexOf('#', end - 1);
            if (suffix <= 0 || !DEAD_LETTER_SUFFIX.matcher(id).region(suffix, end).matches()) {
                return false;
            }
            end = suffix;
        }
        return end > 0;
    }

    /** A new message id. */
    public static String next() {
        RandomBits generator = lockedGenerator();
        try {
            return ENCODER.encodeToString(generator.nextBits());
        } finally {
            generator.lock.unlock();
        }
    }

    /** The generator the current thread's id points at, or the next one free, locked. */
    private static RandomBits lockedGenerator() {
        int mask = GENERATORS.length - 1;
        @SuppressWarnings("deprecation") // Thread.threadId() is Java 19+
        int first = (int) Thread.currentThread().getId();
        for (int i = 0; i < GENERATORS.length; i++) {
            RandomBits generator = GENERATORS[(first + i) & mask];
            if (generator.lock.tryLock()) {
                return generator;
            }
        }
        RandomBits generator = GENERATORS[first & mask];
        generator.lock.lock();
        return generator;
    }

    /** A generator and the bits it drew for ids not yet handed out; used under its lock. */
    private static final class RandomBits {

        private final ReentrantLock lock = new ReentrantLock();
        private final SecureRandom random = newGenerator();
        private final byte[] drawn = new byte[ID_BYTES * IDS_PER_DRAW];
        private int used = drawn.length;

        byte[] nextBits() {
            if (used == drawn.length) {
                random.nextBytes(drawn);
                used = 0;
            }
            byte[] bits = Arrays.copyOfRange(drawn, used, used + ID_BYTES);
            used += ID_BYTES;
            return bits;
        }

        private static SecureRandom newGenerator() {
            try {
                return SecureRandom.getInstance("DRBG");
            } catch (NoSuchAlgorithmException e) {
                return new SecureRandom();
            }
        }
    }
}

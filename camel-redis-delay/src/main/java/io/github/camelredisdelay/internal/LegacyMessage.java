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

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * A message of a Redisson {@code RDelayedQueue} taken over for migration: its member in Redisson's timeout set (random
 * id and value, packed), its due time and the value as Redisson's codec encoded it.
 *
 * @param member the packed member; unique per offer, so the migrated id derived from it is too
 * @param dueAt  epoch ms, as the offering client computed it
 * @param value  the codec's bytes, never decoded here
 */
public record LegacyMessage(byte[] member, long dueAt, byte[] value) {

    /** Prefix of every migrated message's id. */
    public static final String ID_PREFIX = "rdq-";

    /**
     * The id of the migrated message: a hash of the member, so that a batch written twice yields the same ids.
     */
    public String id() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(member);
            return ID_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 18));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}

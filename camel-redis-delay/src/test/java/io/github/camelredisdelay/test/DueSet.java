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
package io.github.camelredisdelay.test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.ScoredEntry;

/**
 * A queue's due set as tests see it behind the component's back: the index sorted set (bucket names by lower bound) and
 * its buckets (message ids by due time), as laid out by {@code due-set.lua}.
 */
public final class DueSet {

    /** The bucket {@link #plant} uses: its bound lies before every real due time. */
    private static final String PLANTED_BUCKET = "0";

    private final RedissonClient redis;
    private final String indexKey;

    public DueSet(RedissonClient redis, String indexKey) {
        this.redis = redis;
        this.indexKey = indexKey;
    }

    /**
     * One bucket of the due set.
     *
     * @param entries message id to due time, earliest first
     */
    public record Bucket(String name, long bound, Map<String, Long> entries) {
    }

    /** The buckets in index order. */
    public List<Bucket> buckets() {
        List<Bucket> buckets = new ArrayList<>();
        for (ScoredEntry<String> indexEntry : index().entryRange(0, -1)) {
            Map<String, Long> entries = new LinkedHashMap<>();
            for (ScoredEntry<String> entry : bucket(indexEntry.getValue()).entryRange(0, -1)) {
                entries.put(entry.getValue(), entry.getScore().longValue());
            }
            buckets.add(new Bucket(indexEntry.getValue(), indexEntry.getScore().longValue(), entries));
        }
        return buckets;
    }

    /** The key of a bucket. */
    public String keyOf(Bucket bucket) {
        return indexKey + ":" + bucket.name();
    }

    /** Every scheduled message id with its due time, earliest first. */
    public Map<String, Long> entries() {
        Map<String, Long> entries = new LinkedHashMap<>();
        buckets().forEach(bucket -> entries.putAll(bucket.entries()));
        return entries;
    }

    /** The due time of a scheduled message, or {@code null} when it is not scheduled. */
    public Long dueOf(String id) {
        return entries().get(id);
    }

    public int size() {
        return entries().size();
    }

    /**
     * Writes message {@code id} into the due set at {@code dueAt}, as if the component had; only for a queue whose
     * other scheduled messages, if any, are due later.
     */
    public void plant(String id, long dueAt) {
        index().add(0, PLANTED_BUCKET);
        bucket(PLANTED_BUCKET).add(dueAt, id);
    }

    private RScoredSortedSet<String> index() {
        return redis.getScoredSortedSet(indexKey, StringCodec.INSTANCE);
    }

    private RScoredSortedSet<String> bucket(String name) {
        return redis.getScoredSortedSet(indexKey + ":" + name, StringCodec.INSTANCE);
    }
}

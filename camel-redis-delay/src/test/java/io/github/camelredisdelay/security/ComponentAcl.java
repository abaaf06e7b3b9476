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

/**
 * The ACL rules a Redis user needs to run the component with the default key prefix {@code camel:delay}: what
 * docs/security.md tells users to grant, and all that {@link AclTest} grants its user. Every command in them was seen
 * running (with {@code MONITOR}) while the tests exercised the component, at top level or inside its scripts.
 */
public final class ComponentAcl {

    /** The rules for Redis 7, in {@code ACL SETUSER} syntax, to follow {@code reset on >password}. */
    static final String REDIS_7_RULES = "~camel:delay:* resetchannels &camel:delay:*"
                                        + " +ping +script|load +evalsha +evalsha_ro +xreadgroup +xclaim +xgroup|create +psubscribe +punsubscribe"
                                        + " +hlen +hscan"
                                        + " +time +exists +hget +hmget +hset +hsetnx +hdel +unlink +zadd +zrem +zscore +zcard +zcount +zrange"
                                        + " +zrangebyscore +zrevrangebyscore +zremrangebyrank +xadd +xack +xdel +xlen +xrange +xrevrange +xpending +xautoclaim +xinfo|consumers +xinfo|groups"
                                        + " +xgroup|delconsumer +publish +info";

    /** Redis 6.2 has no {@code EVALSHA_RO}: Redisson runs read-only scripts with {@code EVALSHA} there. */
    private static final String REDIS_7_ONLY = " +evalsha_ro";

    /**
     * What Redisson's cluster probe leaves in the ACL log: on connecting to a single address it runs
     * {@code EVAL "redis.call('get', KEYS[1]) redis.call('get', KEYS[2])" 2 test1 test2} to see whether a cluster
     * answers (a {@code CROSSSLOT} error), and ignores any other error, so refusing it costs nothing.
     */
    static final String REDISSON_CLUSTER_PROBE = "command 'eval' (toplevel)";

    /**
     * What a consumer with {@code migrateFrom=<legacy>} needs beyond {@link #rulesFor}: Redisson's three keys of that
     * RDelayedQueue, and the commands of the migration's scripts that the component's other scripts do not run
     * ({@code legacy-claim.lua}, {@code legacy-remove.lua}, {@code migrate.lua}, {@code migrated-forget.lua}); the
     * migration's own keys are under the key prefix.
     */
    static String migrationRulesFor(String legacy) {
        return "~redisson_delay_queue_timeout:{" + legacy + "} ~redisson_delay_queue:{" + legacy + "} ~" + legacy
               + " " + MIGRATION_COMMANDS;
    }

    /** The commands of {@link #migrationRulesFor}, each of them necessary. */
    static final String MIGRATION_COMMANDS = "+get +set +llen +lpop +rename +persist +del +incr +smembers +sadd +srem";

    /**
     * What the guide adds for {@code syncReplicas}: Redisson follows the writes with {@code WAIT}, outside any script.
     */
    static final String SYNC_REPLICAS_RULES = "+wait";

    /**
     * What the guide adds for {@code syncAof} (Redis 7.2 and later, Valkey): {@code WAITAOF} instead of {@code WAIT}.
     */
    static final String SYNC_AOF_RULES = "+waitaof";

    private ComponentAcl() {
    }

    /** The rules for a server of the given {@code redis_version}. */
    public static String rulesFor(String redisVersion) {
        return takesRedis7Rules(redisVersion) ? REDIS_7_RULES : REDIS_7_RULES.replace(REDIS_7_ONLY, "");
    }

    /**
     * Whether a server of the given {@code redis_version} takes the ACL rules of Redis 7 ({@code EVALSHA_RO}, read-only
     * key patterns {@code %R~}); Redis 6.2 does not.
     */
    static boolean takesRedis7Rules(String redisVersion) {
        return !redisVersion.startsWith("6.");
    }
}

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
package io.github.camelredisdelay.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Waits until a message published on any node of a new cluster reaches a subscriber on every node. A node forwards each
 * {@code PUBLISH} to the others over the cluster bus, and a link that is up may still lose the first one: Valkey 8.0
 * sends a forwarded {@code PUBLISH} with its light header on a new link before its first ping, and the receiving node
 * closes the link ("Closing link for node that sent a lightweight message ... as its first message on the link") and
 * drops the message (fixed in valkey-io/valkey#2817). A cluster whose every link has carried a forwarded
 * {@code PUBLISH} no longer drops them.
 */
final class PublishReach {

    private static final String CHANNEL = "__cluster-deployment:publish-reach__";

    private PublishReach() {
    }

    /**
     * Subscribes on every node and publishes on every node, again at each poll, until every subscriber has heard every
     * node.
     *
     * @throws IllegalStateException when that does not happen within {@code timeout}
     */
    static void await(List<RedisServerProcess> nodes, Duration timeout) {
        Set<String> publishers = nodes.stream().map(PublishReach::name).collect(Collectors.toSet());
        List<Subscription> subscriptions = new ArrayList<>();
        try {
            for (RedisServerProcess node : nodes) {
                subscriptions.add(Subscription.open(node, CHANNEL, timeout));
            }
            BoundedWait.until("a message published on any node reaches every node", timeout, () -> {
                nodes.forEach(node -> node.command("PUBLISH", CHANNEL, name(node)));
                return subscriptions.stream().allMatch(subscription -> subscription.payloads().equals(publishers));
            }, () -> heard(nodes, subscriptions));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot subscribe to " + CHANNEL, e);
        } finally {
            subscriptions.forEach(Subscription::close);
        }
    }

    private static String name(RedisServerProcess node) {
        return String.valueOf(node.port());
    }

    private static String heard(List<RedisServerProcess> nodes, List<Subscription> subscriptions) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < subscriptions.size(); i++) {
            text.append("the subscriber on port ").append(name(nodes.get(i))).append(" heard the nodes on ports ")
                    .append(subscriptions.get(i).payloads()).append('\n');
        }
        return text.toString();
    }
}

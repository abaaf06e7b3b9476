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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static io.github.camelredisdelay.faults.history.MessageVersion.CLOCK_SLACK_MS;

/**
 * Splits a version into the lives redrives gave it. A dead letter a redrive moves back is the same body under the same
 * id, scheduled anew: its deliveries count from 1 again and carry, as their {@code ScheduledAt}, a time within the
 * redrive's call. Each such life is a {@link MessageVersion} of its own, {@code created} by that redrive, linked to the
 * life before and after it. A dead letter the dead-letter queue's consumer got belongs to the first life that had ended
 * by then and was not moved back before (a redrive running then may move it back too).
 */
final class RedrivenLives {

    /** The round's redrives, by start: one thread sends them, one after the other. */
    private final List<Operation> redrives;
    private final FaultWindows faults;

    RedrivenLives(List<Operation> redrives, FaultWindows faults) {
        this.redrives = redrives;
        this.faults = faults;
    }

    /**
     * The lives of the version {@code created} stored, the first (its own) first, from its body's deliveries (by start)
     * and dead letters.
     */
    List<MessageVersion> of(String id, Operation created, List<Delivery> deliveries, List<DeadLetter> deadLetters) {
        Map<Operation, List<Delivery>> byLife = new LinkedHashMap<>();
        byLife.put(created, new ArrayList<>());
        Operation movedBy = created;
        for (int i = 0; i < deliveries.size(); i++) {
            Delivery d = deliveries.get(i);
            // a redrive gives the dead letter it moves back a ScheduledAt of its own: a delivery with the ScheduledAt
            // of the one before goes on with its life (a schedule that failed unanswered, which Redis ran after the
            // fault, has a ScheduledAt after its end, on every delivery of its version)
            if (i == 0 || !Objects.equals(d.scheduledAt(), deliveries.get(i - 1).scheduledAt())) {
                movedBy = movedBackBy(created, deliveries.subList(0, i), d);
            }
            byLife.computeIfAbsent(movedBy, op -> new ArrayList<>()).add(d);
        }
        List<MessageVersion> lives = new ArrayList<>();
        for (Map.Entry<Operation, List<Delivery>> life : byLife.entrySet()) {
            MessageVersion version = new MessageVersion(
                    id, created.body, life.getKey(), life.getValue(), new ArrayList<>(), faults);
            if (!lives.isEmpty()) {
                version.redrivenFrom = lives.get(lives.size() - 1);
                version.redrivenFrom.redrivenAs = version;
            }
            lives.add(version);
        }
        for (DeadLetter dl : deadLetters) {
            lives.stream().filter(life -> endedBy(life, dl.time())
                    && (life.redrivenAs == null || dl.time() <= life.redrivenAs.created.end + CLOCK_SLACK_MS))
                    .findFirst().orElse(lives.get(lives.size() - 1)).deadLetters.add(dl);
        }
        return lives;
    }

    private static boolean endedBy(MessageVersion life, long at) {
        return life.deliveries.isEmpty() || life.deliveries.get(life.deliveries.size() - 1).end() <= at + CLOCK_SLACK_MS;
    }

    /**
     * The redrive whose call holds the delivery's {@code ScheduledAt}, when that is after the version's own schedule
     * and a delivery before it failed before the redrive ended (a schedule that met a Redis fault may have stored its
     * version when the fault ended, after its call); else the schedule itself.
     */
    private Operation movedBackBy(Operation created, List<Delivery> before, Delivery d) {
        if (d.scheduledAt() == null || d.scheduledAt() <= created.end + CLOCK_SLACK_MS) {
            return created;
        }
        return redrives.stream().filter(r -> r.start - CLOCK_SLACK_MS <= d.scheduledAt()
                && d.scheduledAt() <= r.end + CLOCK_SLACK_MS
                && before.stream().anyMatch(e -> e.failed() && e.start() < r.end + CLOCK_SLACK_MS))
                .findFirst().orElse(created);
    }
}

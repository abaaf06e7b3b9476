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

import java.util.List;

/**
 * Checks a round's {@link History} against the contract (the component page's tables of {@code onDuplicate}, cancel,
 * reschedule and peek, and its retry, dead-letter and re-delay rules): {@link ReplyRules} replays each producer
 * thread's operations over the versions of its ids and checks each reply, then {@link DeliveryRules} checks each
 * version's deliveries and dead letters, and {@link RedriveRules} each redrive's answer and what it moved back.
 */
public final class ContractChecker {

    private ContractChecker() {
    }

    public static Findings check(History history) {
        Findings findings = new Findings();
        ReplyRules replies = new ReplyRules(history, findings);
        for (List<Operation> log : history.threadLogs()) {
            replies.replay(log);
        }
        replies.redelays(history.redelays());
        new DeliveryRules(history, findings).check(replies.versions(), replies.lives());
        new RedriveRules(history, findings).check(replies.lives());
        return findings;
    }
}

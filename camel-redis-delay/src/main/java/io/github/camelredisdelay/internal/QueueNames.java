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

/**
 * The rule for queue names: 1 to 200 characters from {@code [A-Za-z0-9._:-]}, so they are safe inside Redis keys and
 * their hash tags; and not {@code null} in any case, the text the YAML DSL makes of a null value, which would name a
 * queue where its author meant none.
 */
public final class QueueNames {

    public static final int MAX_LENGTH = 200;

    private QueueNames() {
    }

    /**
     * @throws IllegalArgumentException naming the bad character or length and what is allowed
     */
    public static String validate(String queue) {
        if (queue == null || queue.isEmpty()) {
            throw new IllegalArgumentException("A redis-delay queue name is required: redis-delay:<queue>");
        }
        if (isNullText(queue)) {
            throw new IllegalArgumentException(
                    "Queue name '" + queue + "' is refused: it is the text the YAML DSL makes of a null value. Name the "
                                               + "queue: redis-delay:<queue>");
        }
        String problem = problem(queue);
        if (problem != null) {
            throw new IllegalArgumentException("Queue name " + problem);
        }
        return queue;
    }

    /**
     * Checks an option of {@code queue}'s endpoint whose value is a queue name (deadLetterQueue, migrateFrom).
     *
     * @throws IllegalArgumentException naming the option, the queue, the bad character or length and what is allowed
     */
    public static void validateOption(String value, String option, String queue) {
        if (isNullText(value)) {
            throw new IllegalArgumentException(
                    "Invalid " + option + " '" + value + "' of queue " + queue + ": it is the text the YAML DSL makes of "
                                               + "a null value, not a queue name. For the default, leave " + option
                                               + " out; else name the queue");
        }
        String problem = value.isEmpty() ? "'' is empty" : problem(value);
        if (problem != null) {
            throw new IllegalArgumentException("Invalid " + option + " of queue " + queue + ": the queue name " + problem);
        }
    }

    /** Whether {@code value} is the text the YAML DSL makes of a null value ({@code null}, in any case). */
    public static boolean isNullText(String value) {
        return "null".equalsIgnoreCase(value);
    }

    /** What is wrong with a non-empty queue name, or {@code null}. */
    private static String problem(String name) {
        if (name.length() > MAX_LENGTH) {
            return name.substring(0, 20) + "... is " + name.length() + " characters long; at most " + MAX_LENGTH
                   + " are allowed";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!isAllowed(c)) {
                return "'" + name + "' has the character '" + c + "' at position " + i
                       + "; allowed are letters, digits and . _ : -";
            }
        }
        return null;
    }

    private static boolean isAllowed(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == ':'
                || c == '-';
    }
}

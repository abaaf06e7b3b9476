package io.github.camelredisdelay.internal;

/**
 * The rule for queue names: 1 to 200 characters from {@code [A-Za-z0-9._:-]}, so they are safe inside Redis keys
 * and their hash tags.
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
        if (queue.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("Queue name " + queue.substring(0, 20) + "... is " + queue.length()
                                               + " characters long; at most " + MAX_LENGTH + " are allowed");
        }
        for (int i = 0; i < queue.length(); i++) {
            char c = queue.charAt(i);
            if (!isAllowed(c)) {
                throw new IllegalArgumentException("Queue name '" + queue + "' has the character '" + c + "' at position "
                                                   + i + "; allowed are letters, digits and . _ : -");
            }
        }
        return queue;
    }

    private static boolean isAllowed(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == ':'
               || c == '-';
    }
}

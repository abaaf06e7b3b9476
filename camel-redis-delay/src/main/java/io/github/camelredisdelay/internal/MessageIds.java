package io.github.camelredisdelay.internal;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Generates message ids: 128 random bits written as 22 URL-safe characters, short because Redis keeps an id up to
 * three times per message. Each thread has its own cryptographically strong generator, so producer threads never
 * wait on a shared one, and ids stay unique across any number of JVMs (a repeated id would be taken for a duplicate
 * and kept out).
 */
public final class MessageIds {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(MessageIds::newGenerator);

    /** Longest message id accepted from a header. */
    public static final int MAX_LENGTH = 512;

    private MessageIds() {
    }

    public static String next() {
        byte[] bits = new byte[16];
        RANDOM.get().nextBytes(bits);
        return ENCODER.encodeToString(bits);
    }

    private static SecureRandom newGenerator() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }
}

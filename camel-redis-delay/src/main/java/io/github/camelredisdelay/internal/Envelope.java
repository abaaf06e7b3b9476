package io.github.camelredisdelay.internal;

import java.util.Map;

/**
 * A message as it is stored: its body ({@code null}, a {@code String} or a {@code byte[]}) and the headers that
 * survived the header filter.
 */
public record Envelope(Object body, Map<String, Object> headers) {
}

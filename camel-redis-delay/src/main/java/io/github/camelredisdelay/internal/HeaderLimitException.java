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
 * A message's headers do not fit its envelope ({@link EnvelopeCodec}): more than {@value EnvelopeCodec#MAX_HEADERS}
 * headers, or a name longer than {@value EnvelopeCodec#MAX_HEADER_NAME_BYTES} bytes. The message says which limit, not
 * which queue or message: the producer adds those, and how to keep such headers out.
 */
public final class HeaderLimitException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    HeaderLimitException(String message) {
        super(message);
    }
}

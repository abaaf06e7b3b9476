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
package io.github.camelredisdelay;

import java.util.Collection;
import java.util.Iterator;

/**
 * Tells a body of messages, as {@code scheduleBatch} takes it, from a body that is one message: a {@code Collection},
 * an array of objects or an {@code Iterator}. An empty one is refused; another is left to Camel's converters (an
 * application's may turn it into bytes), and refused only when they cannot. Other {@code Iterable}s (a
 * {@code java.nio.file.Path}, say) and arrays of primitives are not bodies of messages.
 */
final class BodiesOfMessages {

    private BodiesOfMessages() {
    }

    /**
     * What kind of body of messages {@code value} is, as "a collection of 2 elements", or {@code null} when it is none.
     */
    static String kind(Object value) {
        if (value instanceof Collection<?> collection) {
            return "a collection of " + collection.size() + " elements";
        }
        if (value instanceof Object[] array) {
            return "an array of " + array.length + " elements";
        }
        if (value instanceof Iterator<?>) {
            return "an iterator of elements";
        }
        return null;
    }

    /** Whether a body of messages ({@link #kind} not {@code null}) holds none; an iterator is not advanced. */
    static boolean isEmpty(Object value) {
        if (value instanceof Collection<?> collection) {
            return collection.isEmpty();
        }
        if (value instanceof Object[] array) {
            return array.length == 0;
        }
        return !((Iterator<?>) value).hasNext();
    }
}

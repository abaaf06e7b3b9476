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
package io.github.camelredisdelay.benchmark;

/**
 * When a message becomes due: {@code millis} from now, or at the epoch millisecond {@code millis}.
 */
record Due(boolean absolute, long millis) {

    static Due in(long delayMillis) {
        return new Due(false, delayMillis);
    }

    static Due at(long epochMillis) {
        return new Due(true, epochMillis);
    }

    /** The delay from now; an instant in the past is due now. */
    long delayFromNow() {
        return absolute ? Math.max(0, millis - System.currentTimeMillis()) : millis;
    }

    /** The intended due time on this machine's clock. */
    long epochMillis() {
        return absolute ? millis : System.currentTimeMillis() + millis;
    }
}

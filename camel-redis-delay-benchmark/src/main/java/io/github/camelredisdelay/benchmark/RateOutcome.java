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

import java.util.Map;

/** The outcome of a throughput measurement (schedules or a drain), as its table rows show it. */
interface RateOutcome {

    double perSecond();

    /** The messages {@link #perSecond()} counts: scheduled, or delivered. */
    long messages();

    RedisWindow.Usage usage();

    /** Everything measured, for the JSON file. */
    Map<String, Object> details();
}

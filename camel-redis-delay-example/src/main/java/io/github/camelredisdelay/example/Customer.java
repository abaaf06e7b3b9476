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
package io.github.camelredisdelay.example;

/**
 * How the simulated customer of an order behaves, so one run shows every outcome within a minute: orders 1, 3, 5... are
 * paid in time, orders 2, 6, 10... are paid after they expired, orders 4, 8, 12... are never paid.
 */
enum Customer {
    PAYS_IN_TIME,
    PAYS_LATE,
    NEVER_PAYS;

    static Customer of(long orderNumber) {
        if (orderNumber % 2 == 1) {
            return PAYS_IN_TIME;
        }
        return orderNumber % 4 == 2 ? PAYS_LATE : NEVER_PAYS;
    }
}

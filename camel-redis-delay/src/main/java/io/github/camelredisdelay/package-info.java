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
/**
 * The {@code redis-delay} Camel component: the public classes (component, endpoint, configuration, headers, exceptions)
 * and, package-private, everything that turns Camel exchanges into Redis calls and back: the producer, the consumers
 * and what they share to deliver and settle messages. Redis itself is reached only through
 * {@link io.github.camelredisdelay.internal}. See docs/architecture.md.
 */
package io.github.camelredisdelay;

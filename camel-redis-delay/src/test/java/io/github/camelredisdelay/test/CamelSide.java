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
package io.github.camelredisdelay.test;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class whose subject is the component's Camel side (stopping and suspending, route policies, hand-overs to
 * other routes, option parsing, Camel Main, metrics, tracing, logging, how often it calls Redis) rather than what Redis
 * does: it talks to a real Redis through the same scripts and commands as the tests of the server's side, so the
 * default build runs it against Redis 7 only, and the Redis 6.2 and Valkey passes leave it out ({@code -Pevery-server}
 * runs it there too).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("camel-side")
public @interface CamelSide {
}

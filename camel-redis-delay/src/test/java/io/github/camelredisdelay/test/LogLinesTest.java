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

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

class LogLinesTest {

    private static final String PARENT = "io.github.camelredisdelay.test.loglines";
    private static final Logger CHILD = LoggerFactory.getLogger(PARENT + ".Child");

    @Test
    void aParentStillCollectsWhatAChildLogsAfterTheChildWasCollectedOnItsOwn() {
        // a test earlier in the JVM collected the child on its own (ShutDownClientBeanTest, RedisDelayConsumer's lines)
        try (LogLines child = LogLines.of(CHILD.getName())) {
            CHILD.warn("first");
            assertThat(child.lines()).containsExactly("WARN first");
        }

        // a later test collects what the whole package logs (TooFewReplicasTest): the child's lines must reach it
        try (LogLines parent = LogLines.of(PARENT)) {
            CHILD.warn("second");
            assertThat(parent.lines()).containsExactly("WARN second");
        }
    }

    @Test
    void twoCollectorsOfOneLoggerOpenAtOnceEachGetItsLines() {
        try (LogLines outer = LogLines.of(CHILD.getName()); LogLines inner = LogLines.of(CHILD.getName())) {
            CHILD.warn("both");
            assertThat(outer.lines()).containsExactly("WARN both");
            assertThat(inner.lines()).containsExactly("WARN both");
        }
    }

    @Test
    void aDebugCollectorLowersTheLevelOnlyWhileItIsOpen() {
        try (LogLines debug = LogLines.ofDebug(LogLinesTest.class)) {
            LoggerFactory.getLogger(LogLinesTest.class).debug("detail");
            assertThat(debug.lines()).containsExactly("DEBUG detail");
        }
        assertThat(LoggerFactory.getLogger(LogLinesTest.class).isDebugEnabled()).isFalse();
    }
}

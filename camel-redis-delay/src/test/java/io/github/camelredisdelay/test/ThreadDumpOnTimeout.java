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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Prints every thread's stack, the lock it waits for and that lock's owner, when a wait for a condition times out in a
 * test or in one of its {@code @BeforeAll}, {@code @BeforeEach}, {@code @AfterEach} or {@code @AfterAll} methods, then
 * fails as before: a failure that shows up once in many runs then says where each thread was.
 */
public final class ThreadDumpOnTimeout implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        dumpIfTimeout(context, failure);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        dumpIfTimeout(context, failure);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        dumpIfTimeout(context, failure);
    }

    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        dumpIfTimeout(context, failure);
    }

    @Override
    public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        dumpIfTimeout(context, failure);
    }

    private static void dumpIfTimeout(ExtensionContext context, Throwable failure) throws Throwable {
        if (failure instanceof ConditionTimeoutException) {
            System.err.print(threadDump("Threads when " + context.getDisplayName() + " timed out waiting:"));
        }
        throw failure;
    }

    /** {@code title} and the stack of every live thread of this JVM. */
    static String threadDump(String title) {
        StringBuilder dump = new StringBuilder(title).append('\n');
        for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            dump.append(stackOf(thread));
        }
        return dump.toString();
    }

    /** ThreadInfo.toString() cuts a stack at 8 frames. */
    private static String stackOf(ThreadInfo thread) {
        StringBuilder text = new StringBuilder().append('"').append(thread.getThreadName()).append("\" ")
                .append(thread.getThreadState());
        if (thread.getLockName() != null) {
            text.append(" on ").append(thread.getLockName());
        }
        if (thread.getLockOwnerName() != null) {
            text.append(" owned by \"").append(thread.getLockOwnerName()).append('"');
        }
        text.append('\n');
        for (StackTraceElement frame : thread.getStackTrace()) {
            text.append("\tat ").append(frame).append('\n');
        }
        return text.append('\n').toString();
    }
}

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

import org.apache.camel.RuntimeCamelException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The failure of a Redisson YAML file that does not parse, told without quoting the file: Redisson replaces
 * {@code ${NAME}} with the variable's value before SnakeYAML parses the text, and SnakeYAML's messages quote the lines
 * around the error, a password among them. The message names the file, what SnakeYAML was reading and where; the
 * parser's exception is not kept as the cause, whose message Camel would log.
 */
final class UnreadableYaml {

    private UnreadableYaml() {
    }

    /** The failure to parse the file at {@code location}. */
    static RuntimeCamelException of(String location, YAMLException failure) {
        MarkedYAMLException innermost = null;
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof MarkedYAMLException marked) {
                innermost = marked;
            }
        }
        return new RuntimeCamelException(
                "Cannot read the Redisson configuration " + location + ": "
                                         + (innermost == null ? failure.getClass().getSimpleName() : where(innermost))
                                         + " (lines and columns of the text with its ${...} variables replaced; the "
                                         + "parser's message is left out, as it quotes that text, passwords among "
                                         + "them)");
    }

    private static String where(MarkedYAMLException marked) {
        String context = marked.getContext() == null ? "" : marked.getContext() + at(marked.getContextMark()) + ": ";
        return context + "invalid YAML or option" + at(marked.getProblemMark());
    }

    private static String at(Mark mark) {
        return mark == null ? "" : " at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
    }
}

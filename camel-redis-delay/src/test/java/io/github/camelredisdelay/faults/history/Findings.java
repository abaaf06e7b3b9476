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
package io.github.camelredisdelay.faults.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the check of a round found: the violations of the contract, and how often it met each case (coverage, for the
 * log).
 */
public final class Findings {

    /** How much of a violation's text names the case let pass. */
    private static final int LET_PASS_PREFIX = 48;

    private final List<String> violations = new ArrayList<>();
    private final Map<String, Integer> coverage = new TreeMap<>();

    void violation(String text) {
        violations.add(text);
    }

    /**
     * A violation when the history is sure of it; otherwise (a Redis fault may explain it) only counted as a case let
     * pass.
     */
    void violationIfSure(boolean sure, String text) {
        if (sure) {
            violation(text);
        } else {
            covered("let pass near a Redis fault: " + text.substring(0, Math.min(LET_PASS_PREFIX, text.length())));
        }
    }

    /** Counts one more instance of a case the check met. */
    void covered(String what) {
        coverage.merge(what, 1, Integer::sum);
    }

    public List<String> violations() {
        return violations;
    }

    public Map<String, Integer> coverage() {
        return coverage;
    }
}

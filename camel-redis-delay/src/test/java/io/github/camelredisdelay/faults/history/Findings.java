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

    private final List<String> violations = new ArrayList<>();
    private final Map<String, Integer> coverage = new TreeMap<>();

    void violation(String text) {
        violations.add(text);
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

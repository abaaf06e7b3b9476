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
package io.github.camelredisdelay.internal;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The values shared by the Java side and the Lua scripts are the same in both languages, under the same names.
 */
class WireTest {

    private static final Pattern LUA_CONSTANT = Pattern.compile("^local ([A-Z_]+) = ('([^']*)'|\\d+)$", Pattern.MULTILINE);

    @Test
    void javaAndLuaDefineTheSameWireValues() {
        Map<String, String> lua = luaConstants("wire.lua");
        Map<String, String> java = Arrays.stream(Wire.class.getDeclaredFields())
                .filter(field -> Modifier.isStatic(field.getModifiers()))
                .collect(Collectors.toMap(Field::getName, WireTest::value, (a, b) -> a, TreeMap::new));

        assertThat(lua).isNotEmpty().isEqualTo(java);
    }

    @Test
    void theRecordHeadIsItsParts() {
        assertThat(Wire.RECORD_HEAD_BYTES).isEqualTo(Wire.SCHEDULED_AT_BYTES + Wire.DUE_AT_BYTES + Wire.GENERATION_BYTES);
    }

    @Test
    void theRecordFormatsOfTheScriptsAreTheHeadSizes() {
        assertThat(luaConstants("record.lua")).containsExactlyInAnyOrderEntriesOf(Map.of(
                "HEAD_FORMAT", ">I" + Wire.SCHEDULED_AT_BYTES + "I" + Wire.DUE_AT_BYTES + "I" + Wire.GENERATION_BYTES,
                "SCHEDULED_AT_FORMAT", ">I" + Wire.SCHEDULED_AT_BYTES,
                "DUE_AT_FORMAT", ">I" + Wire.DUE_AT_BYTES,
                "GENERATION_FORMAT", ">I" + Wire.GENERATION_BYTES,
                "GENERATIONS", String.valueOf(1 << (8 * Wire.GENERATION_BYTES))));
    }

    @Test
    void everyScheduleStatusMapsByItsCode() {
        for (ScheduleResult.Status status : ScheduleResult.Status.values()) {
            assertThat(ScheduleResult.Status.ofCode(codeOf(status))).isEqualTo(status);
        }
    }

    @Test
    void everyScriptIncludesOnlyHelperFilesThatExist() {
        for (LuaScript script : LuaScript.values()) {
            if (!script.queueScript()) {
                assertThat(script.text()).as(script.name()).doesNotContain("local WAKE_READY");
                continue;
            }
            assertThat(script.text()).as(script.name()).contains("local rcall = redis.call", "local WAKE_READY");
        }
        assertThat(LuaScript.Files.includes(LuaScript.Files.load("ack.lua"))).containsExactly("record.lua", "batches.lua");
    }

    /** The constants a Lua file defines at its top level ({@code local NAME = 'text'} or a number). */
    private static Map<String, String> luaConstants(String file) {
        Map<String, String> constants = new TreeMap<>();
        Matcher constant = LUA_CONSTANT.matcher(LuaScript.Files.load(file));
        while (constant.find()) {
            constants.put(constant.group(1), constant.group(3) != null ? constant.group(3) : constant.group(2));
        }
        return constants;
    }

    private static long codeOf(ScheduleResult.Status status) {
        return switch (status) {
            case SCHEDULED -> Wire.STATUS_SCHEDULED;
            case REPLACED -> Wire.STATUS_REPLACED;
            case UNCHANGED -> Wire.STATUS_KEPT;
            case DUPLICATE -> Wire.STATUS_DUPLICATE;
            case DUE_OVERFLOW -> Wire.STATUS_DUE_OVERFLOW;
        };
    }

    private static String value(Field field) {
        try {
            return String.valueOf(field.get(null));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}

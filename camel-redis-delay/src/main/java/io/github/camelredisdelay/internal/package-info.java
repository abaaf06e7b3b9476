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
 * The Redis side of the component: keys, Lua scripts and how they are called, the stored format (record, envelope,
 * stream entries), group commit, the transfer task and the wake channels. The rule of this package: it imports no Camel
 * type, so it can be read, tested and changed as plain Redis code; what it reports goes up as results or as the
 * component's own exceptions ({@code DuplicateMessageException}, {@code NotReplicatedException}). See
 * docs/architecture.md.
 */
package io.github.camelredisdelay.internal;

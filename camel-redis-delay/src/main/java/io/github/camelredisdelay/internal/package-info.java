/**
 * The Redis side of the component: keys, Lua scripts and how they are called, the stored format (record,
 * envelope, stream entries), group commit, the transfer task and the wake channels. The rule of this package: it
 * imports no Camel type, so it can be read, tested and changed as plain Redis code; what it reports goes up as
 * results or as the component's own exceptions ({@code DuplicateMessageException}, {@code NotReplicatedException}).
 * See docs/architecture.md.
 */
package io.github.camelredisdelay.internal;

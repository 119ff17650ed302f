/**
 * cq's engine: a persisted, memory-mapped queue ({@link io.cq.core.MappedQueue}), its idle strategies and its
 * message layer. Only the public API is exported; everything under {@code io.cq.core.internal} is the engine's
 * own and may change in any release (docs/architecture.md).
 *
 * <p>On the module path, mapping files calls native code through the FFM API: run with
 * {@code --enable-native-access=io.cq.core} (on the class path, {@code ALL-UNNAMED}) to keep the JDK from
 * warning about it. Method writers and readers define classes beside your message interfaces, so a module that
 * declares such interfaces opens their package to {@code io.cq.core}; Jackson reads your message types, so it
 * opens them to {@code tools.jackson.databind} as well.
 */
module io.cq.core {
    requires transitive tools.jackson.databind;
    requires tools.jackson.dataformat.cbor;
    requires org.lz4.java;

    exports io.cq.core;
    exports io.cq.core.codec;
    exports io.cq.core.idle;
    exports io.cq.core.message;
}

package io.cq.core.internal.message;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.dataformat.cbor.CBORMapper;

/**
 * CBOR in the message layer: the codes of the items the record codecs read and write, and the Jackson mappers. In
 * the mappers default typing stays off: a type name in the data is honoured only where a type asks for it
 * ({@code @JsonTypeInfo}), and then only through the reader's allow-list. Unknown properties are ignored and absent
 * ones take their default, so readers tolerate fields that writers added or removed.
 */
final class Cbor {
    /** Major types (RFC 8949, 3.1): the top three bits of an item's first byte. */
    static final int MAJOR_UNSIGNED = 0;
    static final int MAJOR_NEGATIVE = 1;
    static final int MAJOR_TEXT = 3;
    static final int MAJOR_MAP = 5;
    /** First bytes of the items the record codecs read and write (RFC 8949, 3.2 and 3.3). */
    static final int INDEFINITE_MAP = 0xBF;
    static final int BREAK = 0xFF;
    static final int FALSE = 0xF4;
    static final int TRUE = 0xF5;
    static final int NULL = 0xF6;
    static final int FLOAT32 = 0xFA;
    static final int FLOAT64 = 0xFB;

    /** For writing and for untyped trees, neither of which instantiates a class named by the data. */
    static final CBORMapper SHARED = mapper(AllowList.NOTHING);

    private Cbor() {
    }

    /**
     * A mapper for messages. An object with no property Jackson can see is written as an empty document, as a marker
     * class or a Kotlin {@code object} event must be; the other side of it, private fields without getters written as
     * nothing, is documented (docs/messages.md).
     */
    static CBORMapper mapper(AllowList allowList) {
        return CBORMapper.builder()
                .polymorphicTypeValidator(allowList)
                .typeFactory(new GuardedTypeFactory(allowList))
                .deactivateDefaultTyping()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .build();
    }
}

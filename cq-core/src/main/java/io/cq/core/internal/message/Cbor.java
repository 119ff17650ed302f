package io.cq.core.internal.message;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.dataformat.cbor.CBORMapper;

/**
 * The Jackson mappers of the message layer. Default typing stays off: a type name in the data is honoured
 * only where a type asks for it ({@code @JsonTypeInfo}), and then only through the reader's allow-list.
 * Unknown properties are ignored and absent ones take their default, so readers tolerate fields that writers
 * added or removed.
 */
final class Cbor {
    /** For writing and for untyped trees, neither of which instantiates a class named by the data. */
    static final CBORMapper SHARED = mapper(AllowList.NOTHING);

    private Cbor() {
    }

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

package io.cq.core.internal.message;

import io.cq.core.message.BytesMessage;

import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;

/**
 * How a parameter is written and read, decided once from its declared type: the {@link MessageEncoder} method
 * a generated writer calls and the {@link ArgumentDecoder} method a generated invoker calls. Primitives keep
 * their own methods so that nothing is boxed.
 */
enum ArgumentKind {
    BOOLEAN("argBoolean", ConstantDescs.CD_boolean, "readBoolean", ConstantDescs.CD_boolean),
    BYTE("argByte", ConstantDescs.CD_byte, "readByte", ConstantDescs.CD_byte),
    SHORT("argShort", ConstantDescs.CD_short, "readShort", ConstantDescs.CD_short),
    CHAR("argChar", ConstantDescs.CD_char, "readChar", ConstantDescs.CD_char),
    INT("argInt", ConstantDescs.CD_int, "readInt", ConstantDescs.CD_int),
    LONG("argLong", ConstantDescs.CD_long, "readLong", ConstantDescs.CD_long),
    FLOAT("argFloat", ConstantDescs.CD_float, "readFloat", ConstantDescs.CD_float),
    DOUBLE("argDouble", ConstantDescs.CD_double, "readDouble", ConstantDescs.CD_double),
    TEXT("argText", ClassDesc.of(CharSequence.class.getName()), "readText", ConstantDescs.CD_String),
    SELF_WRITTEN("argMessage", ClassDesc.of(BytesMessage.class.getName()), "readMessage",
            ClassDesc.of(BytesMessage.class.getName())),
    DOCUMENT("argObject", ConstantDescs.CD_Object, "readDocument", ConstantDescs.CD_Object);

    private static final ClassDesc ENCODER = ClassDesc.of(MessageEncoder.class.getName());

    final String encoderMethod;
    final MethodTypeDesc encoderType;
    final String decoderMethod;
    /** What the decoder method returns; slot kinds are then cast to the parameter's type. */
    final ClassDesc decodedType;

    ArgumentKind(String encoderMethod, ClassDesc written, String decoderMethod, ClassDesc decoded) {
        this.encoderMethod = encoderMethod;
        this.encoderType = MethodTypeDesc.of(ConstantDescs.CD_void, written);
        this.decoderMethod = decoderMethod;
        this.decodedType = decoded;
    }

    /** Reference kinds are decoded per parameter slot (the slot's reused instance or Jackson reader). */
    boolean takesSlot() {
        return this == SELF_WRITTEN || this == DOCUMENT;
    }

    static ClassDesc encoder() {
        return ENCODER;
    }

    static ArgumentKind of(Class<?> parameter) {
        ArgumentKind primitive = ofPrimitive(parameter);
        if (primitive != null) {
            return primitive;
        } else if (parameter == String.class || parameter == CharSequence.class) {
            return TEXT;
        } else if (BytesMessage.class.isAssignableFrom(parameter)) {
            return SELF_WRITTEN;
        }
        return DOCUMENT;
    }

    /** The kind of a primitive type, or null for any other: the one place primitives are told apart. */
    static ArgumentKind ofPrimitive(Class<?> type) {
        if (type == boolean.class) {
            return BOOLEAN;
        } else if (type == byte.class) {
            return BYTE;
        } else if (type == short.class) {
            return SHORT;
        } else if (type == char.class) {
            return CHAR;
        } else if (type == int.class) {
            return INT;
        } else if (type == long.class) {
            return LONG;
        } else if (type == float.class) {
            return FLOAT;
        } else if (type == double.class) {
            return DOUBLE;
        }
        return null;
    }
}

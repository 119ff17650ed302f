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
        if (parameter == boolean.class) {
            return BOOLEAN;
        } else if (parameter == byte.class) {
            return BYTE;
        } else if (parameter == short.class) {
            return SHORT;
        } else if (parameter == char.class) {
            return CHAR;
        } else if (parameter == int.class) {
            return INT;
        } else if (parameter == long.class) {
            return LONG;
        } else if (parameter == float.class) {
            return FLOAT;
        } else if (parameter == double.class) {
            return DOUBLE;
        } else if (parameter == String.class || parameter == CharSequence.class) {
            return TEXT;
        } else if (BytesMessage.class.isAssignableFrom(parameter)) {
            return SELF_WRITTEN;
        }
        return DOCUMENT;
    }
}

package io.cq.core.internal.message;

import java.util.Arrays;

/**
 * An enum's constants as Jackson writes them (by default their {@code toString()}), checked once by reading
 * each back through Jackson: {@link #constants} is null unless every constant is written as a distinct text
 * string that Jackson reads back as that constant.
 */
final class EnumNames {
    final byte[][] names;
    final Object[] constants;

    private EnumNames(byte[][] names, Object[] constants) {
        this.names = names;
        this.constants = constants;
    }

    static EnumNames of(Class<?> type) {
        Object[] constants = type.getEnumConstants();
        byte[][] names = new byte[constants.length][];
        try {
            for (int i = 0; i < constants.length; i++) {
                byte[] written = Cbor.SHARED.writeValueAsBytes(constants[i]);
                names[i] = CborText.definiteText(written);
                if (names[i] == null || Cbor.SHARED.readerFor(type).readValue(written) != constants[i]) {
                    return new EnumNames(null, null);
                }
                for (int j = 0; j < i; j++) {
                    if (Arrays.equals(names[i], names[j])) {
                        return new EnumNames(null, null);
                    }
                }
            }
        } catch (RuntimeException | LinkageError e) {
            return new EnumNames(null, null); // Jackson cannot write or read it plainly: leave it to Jackson
        }
        return new EnumNames(names, constants);
    }
}

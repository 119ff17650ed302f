package io.cq.core.internal.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.WriteContext;
import tools.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes a message from a method name and JSON trees, for tools that have the data but not the interface
 * ({@code cq write}). Each argument takes the tag a method writer would have chosen for the nearest Java type:
 * booleans {@code Z}, integers {@code I} when they fit an int (which readers widen to long and double) else
 * {@code J}, other numbers {@code D}, strings {@code T}, null {@code N}, objects and arrays a CBOR document.
 */
public final class TreeMessages {
    private TreeMessages() {
    }

    public static long write(ExcerptAppender appender, String method, List<? extends JsonNode> arguments) {
        byte[] name = method.getBytes(StandardCharsets.UTF_8);
        if (name.length > MessageLayout.MAX_NAME_BYTES) {
            throw new IllegalArgumentException("method name " + method + " is longer than "
                    + MessageLayout.MAX_NAME_BYTES + " UTF-8 bytes");
        }
        if (arguments.size() > MessageLayout.MAX_ARGUMENTS) {
            throw new IllegalArgumentException(arguments.size() + " arguments for " + method
                    + "; a message holds at most "
                    + MessageLayout.MAX_ARGUMENTS);
        }
        byte[][] documents = new byte[arguments.size()][];
        for (int i = 0; i < documents.length; i++) {
            JsonNode argument = arguments.get(i);
            if (argument.isContainer() || argument.isBinary() || argument.isBigInteger()) {
                documents[i] = Cbor.SHARED.writeValueAsBytes(argument);
            }
        }
        try (WriteContext context = appender.writingDocument()) {
            try {
                ExcerptBytes bytes = context.bytes();
                bytes.writeInt(MessageLayout.MAGIC).writeByte((byte) 0);
                bytes.writeByte((byte) name.length).writeBytes(name);
                bytes.writeByte((byte) arguments.size());
                for (int i = 0; i < documents.length; i++) {
                    writeArgument(bytes, arguments.get(i), documents[i]);
                }
            } catch (RuntimeException | Error e) {
                context.rollbackOnClose();
                throw e;
            }
            return context.index();
        }
    }

    private static void writeArgument(ExcerptBytes bytes, JsonNode argument, byte[] document) {
        if (document != null) {
            bytes.writeByte(MessageLayout.COMPACT_DOCUMENT);
            MessageLayout.writeLength(bytes, document.length);
            bytes.writeBytes(document);
        } else if (argument.isNull() || argument.isMissingNode()) {
            bytes.writeByte(MessageLayout.NULL);
        } else if (argument.isBoolean()) {
            bytes.writeByte(MessageLayout.BOOLEAN).writeBoolean(argument.booleanValue());
        } else if (argument.isIntegralNumber() && argument.canConvertToInt()) {
            bytes.writeByte(MessageLayout.INT).writeInt(argument.intValue());
        } else if (argument.isIntegralNumber()) {
            bytes.writeByte(MessageLayout.LONG).writeLong(argument.longValue());
        } else if (argument.isNumber()) {
            bytes.writeByte(MessageLayout.DOUBLE).writeDouble(argument.doubleValue());
        } else {
            bytes.writeByte(MessageLayout.TEXT).writeUtf8(argument.asString());
        }
    }
}

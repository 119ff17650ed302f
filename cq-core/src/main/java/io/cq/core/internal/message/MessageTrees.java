package io.cq.core.internal.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.TextHeaders;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Decodes any message excerpt into a JSON tree without knowing its interface: documents become trees (no class
 * named by the data is ever loaded), primitives become numbers, self-written messages their bytes in hex.
 */
public final class MessageTrees {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private MessageTrees() {
    }

    /** Makes the record types of the queue in {@code directory} known, now and whenever an unknown one is met. */
    public static void useRecordTypesOf(Path directory) {
        MessageTypes.of(directory).load();
    }

    public static boolean isMessage(ExcerptBytes bytes) {
        return MessageLayout.isMessage(bytes);
    }

    /** {"method": ..., "arguments": [...], "history": {...}, "headers": {...}} (the last two only when present). */
    public static ObjectNode toTree(ExcerptBytes bytes, long index) {
        long position = bytes.position();
        try {
            MessageHeader header = new MessageHeader();
            if (!header.read(bytes, index, null)) {
                throw new MessageDecodingException(index, null, "not a message excerpt (raw bytes or text)", null);
            }
            long arguments = bytes.position();
            ObjectNode tree = NODES.objectNode();
            String name = header.name();
            tree.put("method", name);
            ArrayNode values = tree.putArray("arguments");
            for (int i = 0; i < header.argumentCount; i++) {
                values.add(argument(bytes, index, name, i));
            }
            bytes.position(MessageLayout.FLAGS_OFFSET);
            if ((bytes.readByte() & MessageLayout.FLAG_HISTORY) != 0) {
                tree.set("history", history(bytes));
            }
            TextHeaders headers = new TextHeaders();
            if (MessageLayout.readHeaders(bytes, index, headers)) {
                ObjectNode node = tree.putObject("headers");
                for (int i = 0; i < headers.size(); i++) {
                    node.put(headers.name(i), headers.value(i));
                }
            }
            bytes.position(arguments);
            return tree;
        } catch (MessageDecodingException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new MessageDecodingException(index, null, "malformed message: " + e.getMessage(), e);
        } finally {
            bytes.position(position);
        }
    }

    private static ObjectNode history(ExcerptBytes bytes) {
        ObjectNode history = NODES.objectNode();
        ArrayNode sources = history.putArray("sources");
        int sourceCount = bytes.readByte() & 0xFF;
        for (int i = 0; i < sourceCount; i++) {
            sources.addObject().put("sourceId", bytes.readInt()).put("index", bytes.readLong());
        }
        ArrayNode timings = history.putArray("timings");
        int timingCount = bytes.readByte() & 0xFF;
        for (int i = 0; i < timingCount; i++) {
            timings.add(bytes.readLong());
        }
        return history;
    }

    /** See {@link MessageLayout#readHeaders}. */
    public static boolean readHeaders(ExcerptBytes bytes, long index, TextHeaders into) {
        return MessageLayout.readHeaders(bytes, index, into);
    }

    /** The method name of a message excerpt, or null when the excerpt is not a message. */
    public static String methodName(ExcerptBytes bytes, long index) {
        long position = bytes.position();
        try {
            MessageHeader header = new MessageHeader();
            return header.read(bytes, index, null) ? header.name() : null;
        } finally {
            bytes.position(position);
        }
    }

    private static JsonNode argument(ExcerptBytes bytes, long index, String method, int argument) {
        try {
            byte tag = bytes.readByte();
            return switch (tag) {
                case MessageLayout.BOOLEAN -> NODES.booleanNode(bytes.readBoolean());
                case MessageLayout.BYTE -> NODES.numberNode(bytes.readByte());
                case MessageLayout.SHORT -> NODES.numberNode(bytes.readShort());
                case MessageLayout.CHAR -> NODES.stringNode(String.valueOf(bytes.readChar()));
                case MessageLayout.INT -> NODES.numberNode(bytes.readInt());
                case MessageLayout.LONG -> NODES.numberNode(bytes.readLong());
                case MessageLayout.FLOAT -> NODES.numberNode(bytes.readFloat());
                case MessageLayout.DOUBLE -> NODES.numberNode(bytes.readDouble());
                case MessageLayout.TEXT -> NODES.stringNode(bytes.readUtf8());
                case MessageLayout.NULL -> NODES.nullNode();
                case MessageLayout.DOCUMENT, MessageLayout.COMPACT_DOCUMENT -> {
                    byte[] document = lengthPrefixed(bytes, tag == MessageLayout.DOCUMENT
                            ? bytes.readInt() : MessageLayout.readLength(bytes));
                    CborLimits.check(document, 0, document.length);
                    yield CborTrees.read(document);
                }
                case MessageLayout.RECORD -> record(lengthPrefixed(bytes, MessageLayout.readLength(bytes)));
                case MessageLayout.SELF_WRITTEN -> NODES.objectNode()
                        .put("selfWrittenHex", HexFormat.of().formatHex(lengthPrefixed(bytes, bytes.readInt())));
                default -> throw new MessageDecodingException(index, method, "argument " + argument + ": "
                        + ArgumentDecoder.describeTag(tag), null);
            };
        } catch (MessageDecodingException e) {
            throw e;
        } catch (RuntimeException e) {
            // bounds, a text length prefix that is not one, CBOR that is not CBOR: all the data's fault
            throw new MessageDecodingException(index, method, "argument " + argument + " is malformed: "
                    + e.getMessage(), e);
        }
    }

    /**
     * A positional record as the document its names make of it; or, where its type is not known (no queue in this
     * JVM defines it), {"recordType": id in hex, "values": [...]}.
     */
    private static JsonNode record(byte[] record) {
        if (record.length < Long.BYTES) {
            throw new IndexOutOfBoundsException("a record of " + record.length + " bytes has no room for its type id");
        }
        long id = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
        byte[] values = Arrays.copyOfRange(record, Long.BYTES, record.length);
        byte[][] names = MessageTypes.known(id);
        if (names != null) {
            PositionalRecords document = new PositionalRecords();
            document.rewrite(values, values.length, names);
            return CborTrees.read(Arrays.copyOf(document.buffer(), document.count()));
        }
        ObjectNode unknown = NODES.objectNode().put("recordType", Long.toHexString(id));
        ArrayNode items = unknown.putArray("values");
        long[] workspace = CborLimits.workspace();
        for (int at = 0; at < values.length; ) {
            int end = CborLimits.check(values, at, values.length - at, workspace);
            items.add(CborTrees.read(Arrays.copyOfRange(values, at, end)));
            at = end;
        }
        return unknown;
    }

    private static byte[] lengthPrefixed(ExcerptBytes bytes, int length) {
        if (length < 0 || length > bytes.remaining()) {
            throw new IndexOutOfBoundsException("a value of " + length + " bytes with " + bytes.remaining() + " left");
        }
        byte[] value = new byte[length];
        bytes.readBytes(value);
        return value;
    }
}

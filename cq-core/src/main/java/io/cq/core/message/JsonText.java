package io.cq.core.message;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.Base64;
import java.util.Map;

/**
 * A JSON tree as compact JSON text, character for character what Jackson's {@code JsonMapper} writes (JsonTextTest
 * compares them), without building a mapper: the first mapper of a JVM loads most of Jackson's databind, a tenth
 * of a second on the path to {@code cq tail}'s first line (docs/cli.md).
 */
final class JsonText {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private JsonText() {
    }

    static String of(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out);
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out) {
        switch (node.getNodeType()) {
            case OBJECT -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonNode> property : node.properties()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    string(property.getKey(), out);
                    out.append(':');
                    write(property.getValue(), out);
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                boolean first = true;
                for (JsonNode element : node.values()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    write(element, out);
                }
                out.append(']');
            }
            case STRING -> string(node.stringValue(), out);
            case NUMBER -> number(node, out);
            case BOOLEAN -> out.append(node.booleanValue());
            case NULL -> out.append("null");
            case BINARY -> out.append('"').append(Base64.getEncoder().encodeToString(node.binaryValue())).append('"');
            // What a tree of a decoded message never holds (a POJO, a missing node): the mapper knows best.
            default -> out.append(JsonMapper.shared().writeValueAsString(node));
        }
    }

    private static void number(JsonNode node, StringBuilder out) {
        if (node.isInt()) {
            out.append(node.intValue());
        } else if (node.isLong()) {
            out.append(node.longValue());
        } else if (node.isBigInteger()) {
            out.append(node.bigIntegerValue());
        } else if (node.isBigDecimal()) {
            out.append(node.decimalValue());
        } else if (node.isFloat()) {
            float value = node.floatValue();
            // Jackson quotes what JSON has no number for.
            if (Float.isFinite(value)) {
                out.append(value);
            } else {
                out.append('"').append(value).append('"');
            }
        } else {
            double value = node.doubleValue();
            if (Double.isFinite(value)) {
                out.append(value);
            } else {
                out.append('"').append(value).append('"');
            }
        }
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}

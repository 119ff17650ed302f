package io.cq.core.internal.message;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.cbor.CBORFactory;

/**
 * A CBOR document as a JSON tree, built from the streaming parser's tokens. What {@code CBORMapper.readTree} makes,
 * without a mapper: building the first mapper of a JVM loads most of Jackson's databind, a tenth of a second on the
 * path to {@code cq tail}'s first line (docs/cli.md), where trees are all that is needed.
 */
final class CborTrees {
    private static final CBORFactory FACTORY = new CBORFactory();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Deeper documents are refused before they are parsed ({@link CborLimits}); this guards the recursion too. */
    private static final int MAX_DEPTH = 1_000;

    private CborTrees() {
    }

    /** The document's tree; one CBOR value, nothing after it. */
    static JsonNode read(byte[] document) {
        try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), document)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                return NODES.missingNode();
            }
            JsonNode tree = value(parser, first, 0);
            if (parser.nextToken() != null) {
                throw new IllegalArgumentException("more than one CBOR value in a document");
            }
            return tree;
        }
    }

    private static JsonNode value(JsonParser parser, JsonToken token, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("a CBOR document nested deeper than " + MAX_DEPTH);
        }
        return switch (token) {
            case START_OBJECT -> {
                ObjectNode object = NODES.objectNode();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_OBJECT; next = parser.nextToken()) {
                    String name = parser.currentName();
                    object.set(name, value(parser, parser.nextToken(), depth + 1));
                }
                yield object;
            }
            case START_ARRAY -> {
                ArrayNode array = NODES.arrayNode();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
                    array.add(value(parser, next, depth + 1));
                }
                yield array;
            }
            case VALUE_STRING -> NODES.stringNode(parser.getString());
            case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                case INT -> NODES.numberNode(parser.getIntValue());
                case LONG -> NODES.numberNode(parser.getLongValue());
                default -> NODES.numberNode(parser.getBigIntegerValue());
            };
            case VALUE_NUMBER_FLOAT -> switch (parser.getNumberType()) {
                case FLOAT -> NODES.numberNode(parser.getFloatValue());
                case DOUBLE -> NODES.numberNode(parser.getDoubleValue());
                default -> NODES.numberNode(parser.getDecimalValue());
            };
            case VALUE_TRUE -> NODES.booleanNode(true);
            case VALUE_FALSE -> NODES.booleanNode(false);
            case VALUE_NULL -> NODES.nullNode();
            case VALUE_EMBEDDED_OBJECT -> parser.getEmbeddedObject() instanceof byte[] bytes ? NODES.binaryNode(bytes)
                    : NODES.pojoNode(parser.getEmbeddedObject());
            default -> throw new IllegalArgumentException("unexpected CBOR token " + token);
        };
    }
}

package io.cq.core.internal.message;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The tree built from CBOR tokens is the tree Jackson's mapper reads, node type for node type. */
class CborTreesTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    record Sample(String text, int small, long large, float single, double real, BigDecimal decimal,
                  BigInteger huge, byte[] bytes, List<Object> list, Map<String, Object> map, Boolean flag,
                  Object nothing) {
    }

    @Test
    void shouldReadEveryRandomDocumentAsTheMapperDoes() {
        SplittableRandom random = new SplittableRandom(1126L);
        for (int i = 0; i < 500; i++) {
            byte[] document = Cbor.SHARED.writeValueAsBytes(i % 2 == 0 ? randomTree(random, 0) : sample(random));
            JsonNode expected = Cbor.SHARED.readTree(document);
            assertThat(CborTrees.read(document)).as("document %d", i).isEqualTo(expected);
            assertThat(types(CborTrees.read(document))).as("node types of document %d", i).isEqualTo(types(expected));
        }
    }

    private static byte[] oneDocument() {
        return Cbor.SHARED.writeValueAsBytes(NODES.objectNode().put("a", 1));
    }

    @Test
    void shouldRefuseTrailingValues() {
        byte[] one = oneDocument();
        byte[] two = new byte[one.length * 2];
        System.arraycopy(one, 0, two, 0, one.length);
        System.arraycopy(one, 0, two, one.length, one.length);
        assertThatThrownBy(() -> CborTrees.read(two)).hasMessageContaining("more than one CBOR value");
    }

    @Test
    void shouldRefuseTruncatedDocuments() {
        byte[] one = oneDocument();
        byte[] cut = java.util.Arrays.copyOf(one, one.length - 1);
        assertThatThrownBy(() -> CborTrees.read(cut)).isInstanceOf(RuntimeException.class);
    }

    private static String types(JsonNode node) {
        StringBuilder out = new StringBuilder(node.getClass().getSimpleName());
        if (node.isContainer()) {
            out.append('(');
            for (JsonNode child : node.values()) {
                out.append(types(child)).append(' ');
            }
            out.append(')');
        }
        return out.toString();
    }

    private static Sample sample(SplittableRandom random) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("k" + random.nextInt(100), random.nextDouble());
        map.put("n", random.nextBoolean() ? null : random.nextLong());
        byte[] bytes = new byte[random.nextInt(20)];
        random.nextBytes(bytes);
        return new Sample(text(random), random.nextInt(), random.nextLong(), (float) random.nextDouble(-1e6, 1e6),
                random.nextDouble(-1e300, 1e300), BigDecimal.valueOf(random.nextLong(), random.nextInt(-5, 20)),
                BigInteger.valueOf(random.nextLong()).shiftLeft(70), bytes,
                List.of(random.nextInt(), text(random), List.of(1.5, "x")), map, random.nextBoolean() ? null : true,
                null);
    }

    private static JsonNode randomTree(SplittableRandom random, int depth) {
        int kind = random.nextInt(depth > 3 ? 9 : 11);
        return switch (kind) {
            case 0 -> NODES.stringNode(text(random));
            case 1 -> NODES.numberNode(random.nextInt());
            case 2 -> NODES.numberNode(random.nextLong());
            case 3 -> NODES.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(-300, 300)));
            case 4 -> NODES.booleanNode(random.nextBoolean());
            case 5 -> NODES.nullNode();
            case 6 -> NODES.numberNode(new BigInteger(100, new java.util.Random(random.nextLong())));
            case 7 -> {
                byte[] bytes = new byte[random.nextInt(10)];
                random.nextBytes(bytes);
                yield NODES.binaryNode(bytes);
            }
            case 8 -> NODES.numberNode((float) random.nextDouble());
            case 9 -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    array.add(randomTree(random, depth + 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    object.set(text(random), randomTree(random, depth + 1));
                }
                yield object;
            }
        };
    }

    private static String text(SplittableRandom random) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            int c = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(0x20);
                case 1 -> random.nextInt(0x20, 0x7F);
                case 2 -> random.nextInt(0x80, 0xD800);
                default -> 0x1F600 + random.nextInt(50);
            };
            text.appendCodePoint(c);
        }
        return text.toString();
    }
}

package io.cq.core.message;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** JSON text written by hand is exactly what Jackson's mapper writes for the same tree. */
class JsonTextTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Test
    void shouldWriteEveryRandomTreeAsTheMapperDoes() {
        SplittableRandom random = new SplittableRandom(2611L);
        JsonMapper mapper = JsonMapper.shared();
        for (int i = 0; i < 2_000; i++) {
            JsonNode tree = tree(random, 0);
            assertThat(JsonText.of(tree)).as("tree %d", i).isEqualTo(mapper.writeValueAsString(tree));
        }
    }

    @Test
    void shouldWriteTheNumbersAndCharactersJsonHasNoPlainFormFor() {
        JsonMapper mapper = JsonMapper.shared();
        ArrayNode edge = NODES.arrayNode().add(Double.NaN).add(Double.POSITIVE_INFINITY).add(Float.NEGATIVE_INFINITY)
                .add(1e300).add(-0.0).add(1e-7f).add(new BigDecimal("1E+5")).add(new BigDecimal("-0.000"))
                .add(Long.MIN_VALUE).add(Integer.MIN_VALUE).add(new BigInteger("123456789012345678901234567890"))
                .add("\u0000\u001f\u007f\u2028/\"\\\b\f\n\r\t\uD83D\uDE00").add(new byte[] {0, -1, 7});
        assertThat(JsonText.of(edge)).isEqualTo(mapper.writeValueAsString(edge));
    }

    private static JsonNode tree(SplittableRandom random, int depth) {
        return switch (random.nextInt(depth > 3 ? 9 : 11)) {
            case 0 -> NODES.stringNode(text(random));
            case 1 -> NODES.numberNode(random.nextInt());
            case 2 -> NODES.numberNode(random.nextLong());
            case 3 -> NODES.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(-300, 300)));
            case 4 -> NODES.booleanNode(random.nextBoolean());
            case 5 -> NODES.nullNode();
            case 6 -> NODES.numberNode(BigDecimal.valueOf(random.nextLong(), random.nextInt(-10, 30)));
            case 7 -> {
                byte[] bytes = new byte[random.nextInt(10)];
                random.nextBytes(bytes);
                yield NODES.binaryNode(bytes);
            }
            case 8 -> NODES.numberNode((float) (random.nextDouble() * Math.pow(10, random.nextInt(-30, 30))));
            case 9 -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    array.add(tree(random, depth + 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    object.set(text(random), tree(random, depth + 1));
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
                case 1 -> random.nextInt(0x20, 0x80);
                case 2 -> random.nextInt(0x80, 0xD800);
                default -> 0x1F600 + random.nextInt(50);
            };
            text.appendCodePoint(c);
        }
        return text.toString();
    }
}

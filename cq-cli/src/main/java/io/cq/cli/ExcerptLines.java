package io.cq.cli;

import io.cq.core.ExcerptTailer;
import io.cq.core.ReadContext;
import io.cq.core.message.ExcerptRendering;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.MethodReader;
import io.cq.core.message.MethodReaderBuilder;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/** The next excerpt of a tailer as one printable line (or, for text excerpts without -l, a few lines). */
sealed interface ExcerptLines {
    /** An excerpt's index and how it shows. */
    record Line(long index, String text) {
    }

    /** The next excerpt, or null when there is none yet. */
    Line next();

    /** Renders each excerpt without knowing its interface: messages as JSON, text as text, the rest as hex. */
    final class Rendered implements ExcerptLines {
        private final ExcerptTailer tailer;
        private final boolean json;
        private final boolean oneLine;

        Rendered(ExcerptTailer tailer, boolean json, boolean oneLine) {
            this.tailer = tailer;
            this.json = json;
            this.oneLine = oneLine;
        }

        @Override
        public Line next() {
            try (ReadContext context = tailer.readingDocument()) {
                return context.isPresent() ? new Line(context.index(), render(context)) : null;
            }
        }

        String render(ReadContext context) {
            if (!json) {
                return ExcerptRendering.text(context.bytes(), oneLine);
            }
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            node.put("index", Queues.hex(context.index()));
            ExcerptRendering.json(context.bytes(), node);
            return ExcerptRendering.json(node);
        }
    }

    /**
     * Dispatches each excerpt to a method reader built for the {@code -r} interfaces, so that arguments are decoded
     * as their declared types; excerpts that are no call of those interfaces are shown as {@link Rendered} shows
     * them, from the same read.
     */
    final class Typed implements ExcerptLines {
        private final ExcerptTailer tailer;
        private final boolean json;
        private final RecordedCall recorder = new RecordedCall();
        private final MethodReader reader;
        private final Rendered fallback;
        private final JsonMapper mapper = JsonMapper.shared();

        Typed(ExcerptTailer tailer, List<Class<?>> interfaces, boolean json) {
            this.tailer = tailer;
            this.json = json;
            this.reader = MethodReaderBuilder.forDispatch()
                    .handler(RecordedCall.handlerFor(interfaces, recorder), interfaces.toArray(Class<?>[]::new))
                    .build();
            this.fallback = new Rendered(tailer, json, true);
        }

        @Override
        public Line next() {
            try (ReadContext context = tailer.readingDocument()) {
                if (!context.isPresent()) {
                    return null;
                }
                recorder.clear();
                String undecodable = null;
                try {
                    reader.dispatch(context);
                } catch (MessageDecodingException e) {
                    undecodable = e.getMessage();
                }
                if (recorder.method() == null) {
                    // not a call of these interfaces (another method, raw bytes), or not decodable with them
                    context.bytes().position(0);
                    String shown = fallback.render(context);
                    return new Line(context.index(), undecodable == null ? shown
                            : shown + "  (not decodable with -r: " + undecodable + ")");
                }
                return new Line(context.index(), render(context.index()));
            }
        }

        private String render(long index) {
            ObjectNode node = mapper.createObjectNode();
            if (json) {
                node.put("index", Queues.hex(index));
            }
            node.put("method", recorder.method().getName());
            ArrayNode arguments = node.putArray("arguments");
            for (Object argument : recorder.arguments()) {
                arguments.add(mapper.valueToTree(argument));
            }
            return json ? mapper.writeValueAsString(node) : ExcerptRendering.messageText(node);
        }
    }
}

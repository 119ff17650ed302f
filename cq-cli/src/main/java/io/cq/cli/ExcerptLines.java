package io.cq.cli;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.MethodReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/** The next excerpt of a tailer as one printable line (or, for text excerpts without -l, a few lines). */
sealed interface ExcerptLines {
    /** The line for the next excerpt, or null when there is none yet. */
    String next();

    /** Renders each excerpt without knowing its interface: messages as JSON, text as text, the rest as hex. */
    final class Rendered implements ExcerptLines {
        private final ExcerptTailer tailer;
        private final boolean json;
        private final boolean oneLine;
        private final ExcerptRenderer renderer = new ExcerptRenderer();
        private final JsonMapper mapper = JsonMapper.shared();

        Rendered(ExcerptTailer tailer, boolean json, boolean oneLine) {
            this.tailer = tailer;
            this.json = json;
            this.oneLine = oneLine;
        }

        @Override
        public String next() {
            try (ReadContext context = tailer.readingDocument()) {
                if (!context.isPresent()) {
                    return null;
                }
                if (!json) {
                    return renderer.text(context.bytes(), oneLine);
                }
                ObjectNode node = mapper.createObjectNode();
                node.put("index", Queues.hex(context.index()));
                renderer.json(context.bytes(), node);
                return mapper.writeValueAsString(node);
            }
        }
    }

    /**
     * Reads method calls through a method reader built for the {@code -r} interfaces, so that arguments are
     * decoded as their declared types; excerpts that are no call of those interfaces are shown as
     * {@link Rendered} shows them.
     */
    final class Typed implements ExcerptLines {
        private final ExcerptTailer tailer;
        private final ExcerptTailer raw;
        private final boolean json;
        private final RecordedCall recorder = new RecordedCall();
        private final MethodReader reader;
        private final Rendered fallback;
        private final JsonMapper mapper = JsonMapper.shared();

        Typed(MappedQueue queue, ExcerptTailer tailer, List<Class<?>> interfaces, boolean json) {
            this.tailer = tailer;
            this.raw = queue.createTailer();
            this.json = json;
            this.reader = tailer.methodReaderBuilder().handlers(RecordedCall.handlerFor(interfaces, recorder)).build();
            this.fallback = new Rendered(raw, json, true);
        }

        @Override
        public String next() {
            long index = tailer.index();
            recorder.clear();
            try {
                if (!reader.readOne()) {
                    return null;
                }
            } catch (MessageDecodingException e) {
                // consumed but not decodable as these interfaces' types: show what it holds instead
                raw.moveToIndex(index);
                return fallback.next() + "  (not decodable with -r: " + e.getMessage() + ")";
            }
            if (recorder.method() == null) {
                // not a call of these interfaces (another method, raw bytes): show it as it is
                raw.moveToIndex(index);
                return fallback.next();
            }
            ObjectNode node = mapper.createObjectNode();
            if (json) {
                node.put("index", Queues.hex(index));
            }
            node.put("method", recorder.method().getName());
            ArrayNode arguments = node.putArray("arguments");
            for (Object argument : recorder.arguments()) {
                arguments.add(mapper.valueToTree(argument));
            }
            return json ? mapper.writeValueAsString(node) : ExcerptRenderer.messageText(node);
        }
    }
}

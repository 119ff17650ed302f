package io.cq.core.internal.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.message.TextHeaders;

/** Creates method writers from the per-interface {@link WriterPlan}: generation happens once per interface. */
public final class MethodWriters {
    private MethodWriters() {
    }

    public static <T> T create(Class<T> type, ExcerptAppender appender, boolean history, int sourceId,
                               TextHeaders headers) {
        WriterPlan plan = WriterPlan.forInterface(type);
        MessageEncoder encoder = new MessageEncoder(appender, plan, history, sourceId, headers, true);
        try {
            return type.cast(plan.constructor().invoke(encoder));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot instantiate the generated method writer of " + type.getName(), e);
        }
    }
}

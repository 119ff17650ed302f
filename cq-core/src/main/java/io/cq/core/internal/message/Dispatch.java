package io.cq.core.internal.message;

import io.cq.core.message.BytesMessage;
import tools.jackson.databind.ObjectReader;

/**
 * One handler's method as a reader calls it: the generated invoker, and per parameter slot its type, the
 * Jackson reader for documents (bound to the reader's allow-list) with, for a record Jackson would read plainly,
 * the {@link RecordPlan} that reads it without Jackson; or the reused {@link BytesMessage} instance.
 */
final class Dispatch {
    final Object handler;
    final MethodInvoker invoker;
    final Class<?>[] parameterTypes;
    final ObjectReader[] documentReaders;
    final RecordPlan[] recordPlans;
    final BytesMessage[] messages;

    Dispatch(Object handler, MethodInvoker invoker, Class<?>[] parameterTypes, ObjectReader[] documentReaders,
             BytesMessage[] messages) {
        this.handler = handler;
        this.invoker = invoker;
        this.parameterTypes = parameterTypes;
        this.documentReaders = documentReaders;
        this.messages = messages;
        this.recordPlans = new RecordPlan[parameterTypes.length];
        for (int slot = 0; slot < parameterTypes.length; slot++) {
            if (documentReaders[slot] != null) {
                recordPlans[slot] = RecordPlan.of(parameterTypes[slot]);
            }
        }
    }
}

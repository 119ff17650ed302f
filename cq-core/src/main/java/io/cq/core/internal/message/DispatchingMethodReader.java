package io.cq.core.internal.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.ReadContext;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.MessageHistory;
import io.cq.core.message.MethodReader;

/**
 * The {@link MethodReader}: reads one excerpt through its tailer, finds the method by its UTF-8 name and calls
 * every handler that has it through generated invokers. Reads allocate nothing beyond what decoding documents
 * needs. Failure handling is described on {@link MethodReader}: decoding failures consume the excerpt, handler
 * failures roll the read back.
 */
final class DispatchingMethodReader implements MethodReader {
    private static final System.Logger LOG = System.getLogger(MethodReader.class.getName());

    private final ExcerptTailer tailer;
    private final MethodTable table;
    private final boolean history;
    private final MessageHeader header = new MessageHeader();
    private final ArgumentDecoder decoder = new ArgumentDecoder();
    private long messagesRead;
    private long unknownMethodsSkipped;
    private long otherExcerptsSkipped;

    DispatchingMethodReader(ExcerptTailer tailer, MethodTable table, boolean history) {
        this.tailer = tailer;
        this.table = table;
        this.history = history;
        if (tailer != null) {
            decoder.types(MessageTypes.of(tailer));
        }
    }

    @Override
    public boolean readOne() {
        if (tailer == null) {
            throw new IllegalStateException("this method reader was built without a tailer: call "
                    + "dispatch(ReadContext)");
        }
        final ReadContext context = tailer.readingDocument();
        try {
            if (!context.isPresent()) {
                return false;
            }
            read(context, true);
            return true;
        } finally {
            context.close();
        }
    }

    @Override
    public boolean dispatch(ReadContext context) {
        return read(context, false);
    }

    /**
     * Decodes and dispatches one message; with {@code rollBackOnHandlerFailure}, a failing handler (as opposed to
     * a failing decode) leaves the context rolled back so that the excerpt is read again.
     *
     * @return whether a handler was called
     */
    private boolean read(ReadContext context, boolean rollBackOnHandlerFailure) {
        boolean dispatching = false;
        try {
            final ExcerptBytes bytes = context.bytes();
            final MessageHistory messageHistory = history ? MessageHistory.current() : null;
            if (!header.read(bytes, context.index(), messageHistory)) {
                otherExcerptsSkipped++;
                return false;
            }
            if (messageHistory != null) {
                messageHistory.addTiming(System.nanoTime());
            }
            final Dispatch[] dispatches = table.find(header.name, header.nameLength);
            if (dispatches == null) {
                skipUnknown(context.index());
                return false;
            }
            final long arguments = bytes.position();
            dispatching = true;
            for (Dispatch dispatch : dispatches) {
                bytes.position(arguments);
                decoder.bind(bytes, context.index(), header, dispatch);
                dispatch.invoker.invoke(dispatch.handler, decoder);
            }
            messagesRead++;
            return true;
        } catch (MessageDecodingException e) {
            if (rollBackOnHandlerFailure && dispatching && !decoder.failed()) {
                context.rollbackOnClose(); // thrown by a handler, not by decoding: read the excerpt again
            }
            throw e;
        } catch (RuntimeException e) {
            if (dispatching) {
                if (rollBackOnHandlerFailure) {
                    context.rollbackOnClose(); // the handler failed: at-least-once, so the excerpt is read again
                }
                throw e;
            }
            throw new MessageDecodingException(context.index(), null, "malformed message: " + e, e);
        } catch (Error e) {
            if (rollBackOnHandlerFailure) {
                context.rollbackOnClose(); // out of memory, stack overflow...: nothing says the excerpt is at fault
            }
            throw e;
        } catch (Throwable e) {
            // A checked exception a handler's interface declares, passed on unchecked by the generated invoker: the
            // handler failed like any other, so the excerpt is read again.
            if (rollBackOnHandlerFailure && dispatching) {
                context.rollbackOnClose();
            }
            throw e;
        } finally {
            if (history) {
                // a writer used outside a handler must not inherit this message's route
                MessageHistory.current().reset();
            }
        }
    }

    private void skipUnknown(long index) {
        unknownMethodsSkipped++;
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "skipped message {0} at index 0x{1}: no handler has that method",
                    header.name(), Long.toHexString(index));
        }
    }

    @Override
    public long messagesRead() {
        return messagesRead;
    }

    @Override
    public long unknownMethodsSkipped() {
        return unknownMethodsSkipped;
    }

    @Override
    public long otherExcerptsSkipped() {
        return otherExcerptsSkipped;
    }

    @Override
    public ExcerptTailer tailer() {
        return tailer;
    }
}

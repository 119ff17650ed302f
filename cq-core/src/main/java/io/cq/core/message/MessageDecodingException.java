package io.cq.core.message;

import io.cq.core.QueueException;

/**
 * A message excerpt that cannot be turned back into a call: malformed bytes, an argument of another kind than
 * the handler's parameter, a document that does not fit the parameter's type, or a type refused by the
 * reader's allow-list. The excerpt has been consumed when this is thrown (reading it again would fail again);
 * the reader stays usable and reads the next excerpt on its next call.
 */
public final class MessageDecodingException extends QueueException {
    private final long index;
    private final String method;

    public MessageDecodingException(long index, String method, String message, Throwable cause) {
        super(describe(index, method) + ": " + message, cause);
        this.index = index;
        this.method = method;
    }

    private static String describe(long index, String method) {
        String where = index < 0 ? "message excerpt" : "message excerpt at index 0x" + Long.toHexString(index);
        return method == null ? where : where + " (method " + (method.isEmpty() ? "<object>" : method) + ")";
    }

    /** Index of the excerpt, or -1 when it was decoded from bytes with no known index. */
    public long index() {
        return index;
    }

    /** The method the excerpt names, or null when the excerpt was too malformed to tell. */
    public String method() {
        return method;
    }
}

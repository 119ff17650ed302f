package io.cq.integration.mapping;

import java.util.Map;

/**
 * The layout of an excerpt that carries a Spring message's payload together with some of its headers: one
 * message-layer excerpt (docs/messages.md) of method {@value #METHOD} with two documents, the payload and a map
 * of the kept headers. Tools show it as {@code {"method":"springMessage","arguments":[payload, {headers}]}}.
 * The payload comes first so that {@code Messages.readObject} decodes it with the allow-list of the reader's
 * payload type.
 *
 * <p>Written through a method writer of this interface; public only because generated writers implement it.
 */
public interface SpringMessageEnvelope {
    /** The method name that marks an envelope excerpt. */
    String METHOD = "springMessage";

    /** Appends one envelope excerpt. */
    void springMessage(Object payload, Map<String, Object> headers);
}

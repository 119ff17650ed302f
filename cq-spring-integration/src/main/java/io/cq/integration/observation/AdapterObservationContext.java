package io.cq.integration.observation;

/** What both adapter observations' contexts tell the conventions: the queue, the adapter and the excerpt's index. */
interface AdapterObservationContext {
    String queueName();

    String adapterId();

    /** The excerpt's index, or -1 before it has one (a send not appended yet). */
    long index();
}

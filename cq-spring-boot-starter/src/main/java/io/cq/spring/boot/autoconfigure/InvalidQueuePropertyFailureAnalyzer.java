package io.cq.spring.boot.autoconfigure;

import io.cq.spring.support.InvalidQueuePropertyException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a queue that cannot be opened with its configured properties into a report naming the property. */
public final class InvalidQueuePropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidQueuePropertyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidQueuePropertyException cause) {
        String description = "The cq property '" + cause.property() + "' has the value '" + cause.value() + "': "
                + cause.problem();
        return new FailureAnalysis(description, cause.action(), cause);
    }
}

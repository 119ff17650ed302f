package io.cq.core;

import io.cq.core.internal.fixturea.InternalFixture;

/** A deliberately bad public API type: it names and uses an internal type (RulesCatchViolationsTest). */
public class LeakyApiFixture {
    public InternalFixture leak() {
        return new InternalFixture();
    }
}

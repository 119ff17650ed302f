package io.cq.core.internal.fixtureb;

import io.cq.core.internal.fixturea.InternalFixture;

/** The other half of a deliberate package cycle (RulesCatchViolationsTest). */
public class OtherInternalFixture {
    public InternalFixture back() {
        return new InternalFixture();
    }
}

package io.cq.core.internal.fixturec.nested;

import io.cq.core.internal.fixturec.ParentInternalFixture;

/** The sub-package half of a deliberate parent-child package cycle (RulesCatchViolationsTest). */
public class NestedInternalFixture {
    public ParentInternalFixture parent() {
        return new ParentInternalFixture();
    }
}

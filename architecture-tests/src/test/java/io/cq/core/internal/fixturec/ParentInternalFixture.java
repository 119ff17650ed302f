package io.cq.core.internal.fixturec;

import io.cq.core.internal.fixturec.nested.NestedInternalFixture;

/**
 * A deliberately bad internal type: it and a class of its own sub-package form a package cycle, which slices by
 * internal package ({@code internal.(*)..}) cannot see (RulesCatchViolationsTest).
 */
public class ParentInternalFixture {
    public NestedInternalFixture nested() {
        return new NestedInternalFixture();
    }
}

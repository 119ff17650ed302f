package io.cq.integration;

import io.cq.integration.fixture.SubFixture;

/**
 * A deliberately bad class in the module's root package: it and a class of a sub-package form a package cycle, which
 * the rule must see although the root has no sub-package name of its own (RulesCatchViolationsTest).
 */
public class RootFixture {
    public SubFixture sub() {
        return new SubFixture();
    }
}

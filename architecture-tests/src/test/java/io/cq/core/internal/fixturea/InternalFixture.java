package io.cq.core.internal.fixturea;

import io.cq.core.internal.fixtureb.OtherInternalFixture;
import io.cq.core.message.Messages;

/** A deliberately bad internal type: it uses an entry point and closes a package cycle (RulesCatchViolationsTest). */
public class InternalFixture {
    public Class<?> entryPoint() {
        return Messages.class;
    }

    public OtherInternalFixture other() {
        return new OtherInternalFixture();
    }
}

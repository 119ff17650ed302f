package io.cq.core.internal.message;

import java.lang.constant.ClassDesc;
import java.lang.invoke.MethodHandles;

/**
 * Defines generated classes as hidden classes in the package of the interface they implement or call, so that
 * they may use package-private interfaces and are unloaded with the interface's class loader.
 */
final class HiddenClasses {
    private HiddenClasses() {
    }

    static ClassDesc describe(Class<?> type) {
        return type.describeConstable().orElseThrow(() -> new IllegalArgumentException(
                type + " cannot be named from generated code (a hidden or anonymous class?)"));
    }

    static MethodHandles.Lookup define(Class<?> nextTo, byte[] classBytes) {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(nextTo, MethodHandles.lookup());
            return lookup.defineHiddenClass(classBytes, true);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException("cannot define a generated class next to " + nextTo.getName()
                    + ": its module does not open package " + nextTo.getPackageName() + " to cq", e);
        }
    }
}

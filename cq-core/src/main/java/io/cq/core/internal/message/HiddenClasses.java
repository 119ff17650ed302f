package io.cq.core.internal.message;

import java.lang.constant.ClassDesc;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Modifier;

/**
 * Defines generated classes next to the interface they implement or call. Where cq may define classes in the
 * interface's package (same module, or a package opened to cq), they are hidden classes there: they may use a
 * package-private interface and are unloaded with the interface's class loader. Otherwise (the interface lives in
 * another module, e.g. loaded by another class loader), the class is defined in a class loader of its own that
 * sees both the interface and cq, which needs a public interface.
 */
final class HiddenClasses {
    private HiddenClasses() {
    }

    static ClassDesc describe(Class<?> type) {
        return type.describeConstable().orElseThrow(() -> new IllegalArgumentException(
                type + " cannot be named from generated code (a hidden or anonymous class?)"));
    }

    static MethodHandles.Lookup define(Class<?> nextTo, byte[] classBytes) {
        MethodHandles.Lookup lookup;
        try {
            lookup = MethodHandles.privateLookupIn(nextTo, MethodHandles.lookup());
        } catch (IllegalAccessException e) {
            lookup = null;
        }
        if (lookup != null && lookup.hasFullPrivilegeAccess()) {
            try {
                return lookup.defineHiddenClass(classBytes, true);
            } catch (IllegalAccessException e) {
                // not ours to define into after all: define it beside
            }
        }
        return defineBeside(nextTo, classBytes);
    }

    private static MethodHandles.Lookup defineBeside(Class<?> nextTo, byte[] classBytes) {
        if (!Modifier.isPublic(nextTo.getModifiers())) {
            throw new IllegalArgumentException("cannot generate code for " + nextTo.getName() + ": it is not public and "
                    + "its module (" + nextTo.getModule() + ") is not cq's and does not open package "
                    + nextTo.getPackageName() + " to cq; make the interface public, or open its package to cq");
        }
        Class<?> defined = new BesideLoader(nextTo.getClassLoader()).define(classBytes);
        return MethodHandles.publicLookup().in(defined);
    }

    /**
     * Sees the interface's classes through its parent and cq's own classes through cq's loader, so that the class
     * it defines can implement the one and call the other.
     */
    private static final class BesideLoader extends ClassLoader {
        private static final ClassLoader CQ = HiddenClasses.class.getClassLoader();

        BesideLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("io.cq.core.")) {
                return CQ.loadClass(name);
            }
            return super.loadClass(name, resolve);
        }

        Class<?> define(byte[] classBytes) {
            return defineClass(null, classBytes, 0, classBytes.length);
        }
    }
}

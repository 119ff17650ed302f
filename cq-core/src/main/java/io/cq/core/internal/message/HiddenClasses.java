package io.cq.core.internal.message;

import java.lang.constant.ClassDesc;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Modifier;

/**
 * Defines generated classes next to the interface they implement or call. Where cq may define classes in the
 * interface's package (same module, or a package opened to cq), they are hidden classes there: they may use a
 * package-private interface and are unloaded with the interface's class loader. Otherwise (the interface lives in
 * another module, e.g. loaded by another class loader), the class is defined in a class loader of its own that
 * sees both the interface and cq, which needs a public interface. That is always the case when cq-core runs as a
 * named module (the module path): its internals are then exported to that class loader's module alone.
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
            throw new IllegalArgumentException("cannot generate code for " + nextTo.getName()
                    + ": it is not public and "
                    + "its module (" + nextTo.getModule() + ") is not cq's and does not open package "
                    + nextTo.getPackageName() + " to cq; make the interface public, or open its package to cq");
        }
        BesideLoader loader = new BesideLoader(nextTo.getClassLoader());
        // Before the class is defined: its superinterface may be cq's own (an invoker), checked at definition.
        openTo(loader.getUnnamedModule());
        Class<?> defined = loader.define(classBytes);
        return MethodHandles.publicLookup().in(defined);
    }

    /**
     * Where cq-core is a named module (on the module path), generated code calls this package from the interface's
     * module, which the module descriptor does not export to: export it to that one module, and read it, so cq can
     * look up its interface. Nothing else of cq's internals becomes reachable. A no-op on the class path.
     */
    private static void openTo(Module target) {
        Module cq = HiddenClasses.class.getModule();
        if (cq.isNamed() && cq != target) {
            cq.addReads(target);
            cq.addExports(HiddenClasses.class.getPackageName(), target);
        }
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

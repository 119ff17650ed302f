package io.cq.core.internal.message;

import tools.jackson.databind.JavaType;
import tools.jackson.databind.type.TypeFactory;
import tools.jackson.databind.type.TypeModifier;
import tools.jackson.databind.util.LookupCache;

import java.util.Arrays;

/**
 * Jackson's type factory with the reader's allow-list in front of class loading. A type id such as
 * {@code Box<evil.Gadget>} has its raw name checked by the {@link AllowList} but its type parameters resolved by
 * loading them (and so running their static initialisers) before any check; here a name the allow-list does not
 * hold is refused before any class of that name is loaded. The JDK's own {@code java.*} types may be loaded: they
 * are the parameters of ordinary collections.
 */
final class GuardedTypeFactory extends TypeFactory {
    private static final long serialVersionUID = 1L;

    private final transient AllowList allowList;

    GuardedTypeFactory(AllowList allowList) {
        this.allowList = allowList;
    }

    private GuardedTypeFactory(AllowList allowList, LookupCache<Object, JavaType> cache, TypeModifier[] modifiers,
                               ClassLoader classLoader) {
        super(cache, modifiers, classLoader);
        this.allowList = allowList;
    }

    @Override
    public Class<?> findClass(String className) throws ClassNotFoundException {
        // Names without a dot are primitives, which the base class resolves without loading anything.
        if (className.indexOf('.') >= 0 && !className.startsWith("java.") && !allowList.allows(className)) {
            throw new ClassNotFoundException("type " + className + " is not allowed here: a reader loads only types "
                    + "reachable from its handlers' parameter types and those added with "
                    + "MethodReaderBuilder.allowTypes");
        }
        return super.findClass(className);
    }

    @Override
    public TypeFactory snapshot() {
        return new GuardedTypeFactory(allowList, _typeCache.snapshot(), _modifiers, _classLoader);
    }

    @Override
    public TypeFactory withClassLoader(ClassLoader classLoader) {
        return new GuardedTypeFactory(allowList, _typeCache, _modifiers, classLoader);
    }

    @Override
    public TypeFactory withCache(LookupCache<Object, JavaType> cache) {
        return new GuardedTypeFactory(allowList, cache, _modifiers, _classLoader);
    }

    @Override
    public TypeFactory withModifier(TypeModifier modifier) {
        if (modifier == null) {
            return new GuardedTypeFactory(allowList, _typeCache, null, _classLoader);
        }
        TypeModifier[] modifiers = _modifiers == null ? new TypeModifier[] {modifier}
                : Arrays.copyOf(_modifiers, _modifiers.length + 1);
        modifiers[modifiers.length - 1] = modifier;
        return new GuardedTypeFactory(allowList, _typeCache, modifiers, _classLoader);
    }
}

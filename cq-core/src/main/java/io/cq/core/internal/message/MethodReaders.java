package io.cq.core.internal.message;

import io.cq.core.ExcerptTailer;
import io.cq.core.message.BytesMessage;
import io.cq.core.message.MethodReader;
import tools.jackson.databind.ObjectReader;
import tools.jackson.dataformat.cbor.CBORMapper;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds a {@link DispatchingMethodReader}: everything reflective happens here, once, never per message. */
public final class MethodReaders {
    private MethodReaders() {
    }

    public static MethodReader create(ExcerptTailer tailer, List<Object> handlers, Collection<Class<?>> allowedTypes,
                                      boolean history) {
        return create(tailer, handlers, new IdentityHashMap<>(), allowedTypes, history);
    }

    /**
     * @param onlyInterfaces for the handlers it names (an identity map), the interfaces whose methods are dispatched
     *                       to them (the others they implement are ignored); other handlers get all their non-JDK
     *                       interfaces
     */
    public static MethodReader create(ExcerptTailer tailer, List<Object> handlers,
                                      Map<Object, List<Class<?>>> onlyInterfaces, Collection<Class<?>> allowedTypes,
                                      boolean history) {
        if (handlers.isEmpty()) {
            throw new IllegalArgumentException("a method reader needs at least one handler");
        }
        // Handlers are told apart by identity, in the order given: their own equals/hashCode are not consulted.
        List<Map.Entry<Object, Map<Class<?>, Method[]>>> methodsByHandler = new ArrayList<>();
        List<Method> allMethods = new ArrayList<>();
        for (Object handler : handlers) {
            if (handler == null) {
                throw new IllegalArgumentException("a method reader's handler is null");
            }
            Map<Class<?>, Method[]> byInterface = new LinkedHashMap<>();
            List<Class<?>> only = onlyInterfaces.getOrDefault(handler, List.of());
            for (Class<?> type : only) {
                if (!type.isInterface() || !type.isInstance(handler)) {
                    throw new IllegalArgumentException("handler " + handler.getClass().getName()
                            + " does not implement "
                            + "interface " + type.getName());
                }
            }
            for (Class<?> type : interfacesOf(handler.getClass())) {
                if (isPlatformType(type) || (!only.isEmpty() && !only.contains(type))) {
                    continue; // Runnable, AutoCloseable, Serializable...: not message interfaces
                }
                Method[] methods = WriterPlan.messageMethods(type);
                byInterface.put(type, methods);
                allMethods.addAll(List.of(methods));
            }
            if (byInterface.isEmpty()) {
                throw new IllegalArgumentException("handler " + handler.getClass().getName()
                        + " implements no interface:"
                        + " a method reader calls the methods that a handler's interfaces declare");
            }
            methodsByHandler.add(Map.entry(handler, byInterface));
        }
        CBORMapper mapper = Cbor.mapper(AllowList.reachableFrom(allMethods, allowedTypes));
        Map<String, List<Dispatch>> byName = new LinkedHashMap<>();
        methodsByHandler.forEach(entry -> {
            Object handler = entry.getKey();
            Map<Class<?>, Method[]> byInterface = entry.getValue();
            Set<String> seen = new LinkedHashSet<>();
            byInterface.forEach((type, methods) -> {
                for (Method method : methods) {
                    if (seen.add(method.getName())) {
                        byName.computeIfAbsent(method.getName(), name -> new ArrayList<>())
                                .add(dispatch(handler, type, method, mapper));
                    }
                }
            });
        });
        return new DispatchingMethodReader(tailer, new MethodTable(byName), history);
    }

    private static Dispatch dispatch(Object handler, Class<?> type, Method method, CBORMapper mapper) {
        Class<?>[] parameters = method.getParameterTypes();
        ObjectReader[] readers = new ObjectReader[parameters.length];
        BytesMessage[] messages = new BytesMessage[parameters.length];
        for (int slot = 0; slot < parameters.length; slot++) {
            switch (ArgumentKind.of(parameters[slot])) {
                case DOCUMENT -> readers[slot] =
                        mapper.readerFor(mapper.constructType(method.getGenericParameterTypes()[slot]));
                case SELF_WRITTEN -> messages[slot] = instantiate(parameters[slot], method, slot);
                default -> {
                }
            }
        }
        return new Dispatch(handler, InvokerClassGenerator.invoker(type, method), parameters, readers, messages);
    }

    /** The one instance a reader reuses for a {@link BytesMessage} parameter. */
    private static BytesMessage instantiate(Class<?> type, Method method, int slot) {
        try {
            Constructor<?> constructor = type.getConstructor();
            return (BytesMessage) constructor.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("parameter " + slot + " of " + WriterPlan.describe(method) + ": "
                    + type.getName() + " is a BytesMessage, so it needs a public no-argument constructor (the reader"
                    + " fills one reused instance per parameter)", e);
        }
    }

    private static boolean isPlatformType(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.");
    }

    /** Every interface a class implements, its superclasses' and superinterfaces' included, nearest first. */
    private static Set<Class<?>> interfacesOf(Class<?> type) {
        Set<Class<?>> interfaces = new LinkedHashSet<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Class<?> i : c.getInterfaces()) {
                addWithSuperinterfaces(i, interfaces);
            }
        }
        return interfaces;
    }

    private static void addWithSuperinterfaces(Class<?> type, Set<Class<?>> into) {
        if (into.add(type)) {
            for (Class<?> parent : type.getInterfaces()) {
                addWithSuperinterfaces(parent, into);
            }
        }
    }
}

package io.cq.spring.listener.invoke;

import org.springframework.util.ClassUtils;

import java.util.ArrayList;
import java.util.List;

/** The argument resolvers every listener gets, after the application's own. */
public final class BuiltInResolvers {
    private static final boolean MESSAGING_PRESENT = ClassUtils.isPresent("org.springframework.messaging.Message",
            BuiltInResolvers.class.getClassLoader());

    private BuiltInResolvers() {
    }

    public static List<ListenerArgumentResolver> create() {
        List<ListenerArgumentResolver> resolvers = new ArrayList<>();
        resolvers.add(new HeaderArgumentResolver());
        resolvers.add(new PayloadArgumentResolver());
        if (MESSAGING_PRESENT) {
            resolvers.add(new MessageArgumentResolver());
        }
        resolvers.add(new DocumentArgumentResolver()); // last: every other type is a payload object
        return resolvers;
    }
}

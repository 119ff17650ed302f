package io.cq.modulecheck;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Run by {@code ModulePathTest} in a JVM that has cq-core on the module path and this class on the class path:
 * an application's view of the io.cq.core module. Prints what it found, one {@code key=value} per line.
 */
public final class ModulePathProbe {
    /** A message interface of the application (in the unnamed module). */
    public interface Greetings {
        void hello(String who);

        void greet(Greeting greeting);
    }

    /** A document of the application, which cq reads without Jackson when it may call its constructor. */
    public record Greeting(String who, int times) {
    }

    private ModulePathProbe() {
    }

    public static void main(String[] args) throws Exception {
        Module cq = MappedQueue.class.getModule();
        System.out.println("module=" + cq.getName());
        System.out.println("exports=" + cq.getDescriptor().exports().stream().map(e -> e.source()).sorted().toList());
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).build();
             ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("over the module path");
            Greetings writer = Messages.methodWriter(appender, Greetings.class);
            writer.hello("module");
            writer.greet(new Greeting("record", 2));
            ExcerptTailer tailer = queue.createTailer();
            System.out.println("text=" + tailer.readText());
            List<Object> heard = new ArrayList<>();
            Greetings handler = new Greetings() {
                @Override
                public void hello(String who) {
                    heard.add(who);
                }

                @Override
                public void greet(Greeting greeting) {
                    heard.add(greeting);
                }
            };
            io.cq.core.message.MethodReader reader = Messages.methodReader(tailer, handler);
            reader.readOne();
            System.out.println("message=" + heard);
            reader.readOne();
            System.out.println("document=" + heard.getLast());
        }
        try {
            Class<?> engine = Class.forName("io.cq.core.internal.queue.StoreQueue");
            engine.getConstructors()[0].newInstance(null, false);
            System.out.println("internal=reachable");
        } catch (IllegalAccessException e) {
            System.out.println("internal=refused");
        }
    }
}

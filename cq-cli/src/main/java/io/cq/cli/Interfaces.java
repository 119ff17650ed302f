package io.cq.cli;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Loads the interfaces named with {@code -r} from the tool's class path plus the {@code --classpath} entries. */
final class Interfaces {
    private Interfaces() {
    }

    static List<Class<?>> load(List<String> names, String classPath) {
        ClassLoader loader = classLoader(classPath);
        List<Class<?>> interfaces = new ArrayList<>();
        for (String name : names) {
            Class<?> type;
            try {
                type = Class.forName(name.trim(), false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new UserInputException("cannot load interface " + name + " (" + e.getMessage()
                        + "): add the JAR or "
                        + "classes directory that holds it with --classpath");
            }
            if (!type.isInterface()) {
                throw new UserInputException(name + " is a class, not an interface: -r takes the interface that the "
                        + "method writer implemented");
            }
            interfaces.add(type);
        }
        return interfaces;
    }

    private static ClassLoader classLoader(String classPath) {
        ClassLoader parent = Interfaces.class.getClassLoader();
        if (classPath == null || classPath.isBlank()) {
            return parent;
        }
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            if (!Files.exists(Path.of(entry))) {
                throw new UserInputException("--classpath entry " + entry + " does not exist");
            }
            try {
                urls.add(Path.of(entry).toUri().toURL());
            } catch (MalformedURLException e) {
                throw new UserInputException("--classpath entry " + entry + " is not a path");
            }
        }
        return new URLClassLoader(urls.toArray(URL[]::new), parent);
    }
}

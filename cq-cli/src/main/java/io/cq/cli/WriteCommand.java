package io.cq.cli;

import io.cq.core.CodecsMismatchException;
import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.MissingKeyException;
import io.cq.core.codec.Compression;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.message.ExcerptRendering;
import io.cq.core.message.Messages;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLParser;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code cq write}: method calls from YAML or JSON documents, one excerpt per document. */
@Command(name = "write", mixinStandardHelpOptions = true, versionProvider = CqCli.Version.class,
        description = {"Append method calls to a queue, one per YAML or JSON document read from the files (or from "
                + "stdin when none is given). A document that is an array holds the call's arguments; any other "
                + "document is its single argument; an empty document is a call without arguments. YAML files may hold "
                + "several documents separated by ---, JSON input several values one after the other.",
                "Prints the index of each excerpt written."})
final class WriteCommand implements Callable<Integer> {
    /** Input holds several documents one after the other: each is read on its own, so what follows it is no error. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<dir>", description = "The queue directory.")
    Path directory;

    @Parameters(index = "1", paramLabel = "<method>", description = "The method name the calls carry.")
    String method;

    @Parameters(index = "2..*", paramLabel = "<file.yaml|file.json>",
            description = "Documents to send; stdin when none.")
    List<Path> files = new ArrayList<>();

    @Option(names = {"-r", "--interface"}, paramLabel = "<interface>",
            description = "Write through a method writer of this interface: arguments are converted to the method's "
                    + "parameter types first, so readers get exactly what the interface's own writer would send.")
    String interfaceName;

    @Option(names = {"-cp", "--classpath"}, paramLabel = "<path>",
            description = "JARs and class directories holding the -r interface and its argument types.")
    String classPath;

    @Option(names = "--create", description = "Create the queue when the directory holds none yet (encrypted with "
            + "the --key-store's key when one is given).")
    boolean create;

    @Option(names = "--checksums", description = "With --create: a CRC-32C of each excerpt, checked on every read. "
            + "A queue's codecs are chosen when it is made; for one that exists they must be its own.")
    boolean checksums;

    @Option(names = "--compression", paramLabel = "<method>",
            description = "With --create: compress each excerpt of at least --compression-threshold bytes with "
                    + "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Compression compression = Compression.NONE;

    @Option(names = "--compression-threshold", paramLabel = "<bytes>",
            description = "With --compression: the smallest excerpt compressed (default: ${DEFAULT-VALUE}).")
    int compressionThreshold = ExcerptCodecs.DEFAULT_COMPRESSION_THRESHOLD;

    @Mixin
    KeyStoreOptions keys = new KeyStoreOptions();

    @Override
    public Integer call() throws IOException {
        if (!ExcerptRendering.isPlainName(method)) {
            throw new UserInputException("the method name "
                    + ExcerptRendering.json(JsonNodeFactory.instance.stringNode(method))
                    + " is empty or holds spaces or control characters; give a name such as onOrder");
        }
        if (!create) {
            Queues.checkQueueDirectory(directory);
        }
        List<List<JsonNode>> calls = new ArrayList<>();
        if (files.isEmpty()) {
            calls.addAll(read(YAML, System.in, "stdin"));
        }
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                throw new UserInputException(file + " is not a file");
            }
            ObjectMapper mapper = file.toString().endsWith(".json") ? JSON : YAML;
            try (InputStream in = Files.newInputStream(file)) {
                calls.addAll(read(mapper, in, file.toString()));
            }
        }
        // Every call is converted before the queue is opened: bad input appends nothing, and --create makes nothing.
        TypedCalls typed = interfaceName == null ? null : new TypedCalls();
        List<Object[]> converted = new ArrayList<>();
        if (typed != null) {
            for (List<JsonNode> arguments : calls) {
                converted.add(typed.convert(arguments));
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        try (MappedQueue queue = open(); ExcerptAppender appender = queue.acquireAppender()) {
            if (typed == null) {
                for (List<JsonNode> arguments : calls) {
                    Messages.write(appender, method, arguments);
                    out.println(Queues.hex(appender.lastIndexAppended()));
                }
            } else {
                typed.bind(appender);
                for (Object[] values : converted) {
                    typed.write(values);
                    out.println(Queues.hex(appender.lastIndexAppended()));
                }
            }
        }
        out.flush();
        return 0;
    }

    /**
     * For writing, with the key store's keys; {@code --create} in a directory without a queue makes one, encrypted
     * when a key store was given.
     */
    private MappedQueue open() {
        boolean exists = Files.exists(directory.resolve(Queues.TABLE_STORE));
        MappedQueueBuilder builder = MappedQueue.builder(exists || !create ? Queues.checkQueueDirectory(directory)
                : directory);
        EncryptionKeys given = keys.keys(true);
        ExcerptCodecs chosen = chosenCodecs();
        if (given != null) {
            builder = exists && chosen == null ? builder.encryptionKeys(given)
                    : builder.codecs((chosen == null ? ExcerptCodecs.none() : chosen).withEncryption(given));
        } else if (chosen != null) {
            builder = builder.codecs(chosen);
        }
        try {
            return builder.build();
        } catch (MissingKeyException e) {
            throw keys.explain(e, directory);
        } catch (CodecsMismatchException e) {
            throw new UserInputException(e.getMessage() + "; a queue's codecs are chosen when it is made: leave out "
                    + "--checksums and --compression to write with its own");
        }
    }

    /** The codecs {@code --checksums} and {@code --compression} ask for, or null when neither was given. */
    private ExcerptCodecs chosenCodecs() {
        if (!checksums && compression == Compression.NONE) {
            return null;
        }
        ExcerptCodecs codecs = checksums ? ExcerptCodecs.none().withChecksums() : ExcerptCodecs.none();
        if (compression == Compression.NONE) {
            return codecs;
        }
        try {
            return codecs.withCompression(compression, compressionThreshold);
        } catch (IllegalArgumentException e) {
            throw new UserInputException("--compression-threshold: " + e.getMessage());
        }
    }

    /**
     * YAML aliases ({@code *name}) are refused: the parser hands them over as the anchor's name, not the value it
     * stands for, so they would be written as the wrong value; and expanding them is how alias bombs multiply a
     * few lines into gigabytes. One pass over the tokens, before anything is decoded.
     */
    private static void refuseAliases(byte[] input, String source) {
        try (JsonParser parser = YAML.createParser(input)) {
            while (parser.nextToken() != null) {
                if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
                    throw new UserInputException(source + " uses the YAML alias *" + parser.getString() + " (line "
                            + parser.currentTokenLocation().getLineNr() + "): aliases are not supported; write the "
                            + "value out");
                }
            }
        } catch (JacksonException e) {
            throw new UserInputException(source + " is not valid YAML: " + oneLine(e));
        }
    }

    /**
     * A parse error in one line, with its line and column: SnakeYAML's messages run over several lines, quoting the
     * input under a caret, and Jackson's add the source; the lines that say what is wrong are kept.
     */
    private static String oneLine(JacksonException e) {
        String said = Arrays.stream(String.valueOf(e.getOriginalMessage()).split("\\R"))
                .filter(line -> !line.isBlank() && !Character.isWhitespace(line.charAt(0)))
                .collect(Collectors.joining("; "));
        return said + (e.getLocation() == null ? ""
                : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")");
    }

    /** Each top-level document or value is one call (a top-level array is an argument list, not a stream of calls). */
    private static List<List<JsonNode>> read(ObjectMapper mapper, InputStream in, String source) {
        byte[] input;
        try {
            input = in.readAllBytes();
        } catch (IOException e) {
            throw new UserInputException("cannot read " + source + ": " + e.getMessage());
        }
        if (mapper == YAML) {
            refuseAliases(input, source);
        }
        List<List<JsonNode>> calls = new ArrayList<>();
        // Parsed as text: a parse error then says line and column (from bytes, Jackson's JSON parser gives an offset).
        try (JsonParser parser = mapper.createParser(new String(input, StandardCharsets.UTF_8))) {
            while (parser.nextToken() != null) {
                JsonNode document = mapper.readTree(parser);
                if (document == null || document.isMissingNode() || document.isNull()) {
                    calls.add(List.of());
                } else if (document.isArray()) {
                    List<JsonNode> arguments = new ArrayList<>();
                    document.forEach(arguments::add);
                    calls.add(arguments);
                } else {
                    calls.add(List.of(document));
                }
            }
        } catch (JacksonException e) {
            throw new UserInputException(source + " is not valid " + (mapper == YAML ? "YAML" : "JSON") + ": "
                    + oneLine(e));
        }
        return calls;
    }

    /** Calls of the {@code -r} interface's method through its method writer, arguments converted to its types. */
    private final class TypedCalls {
        private final Class<?> type;
        private final Method target;
        private Object writer;
        private final JavaType[] parameterTypes;
        private final JsonMapper mapper = JsonMapper.shared();

        TypedCalls() {
            type = Interfaces.load(List.of(interfaceName), classPath).getFirst();
            target = Arrays.stream(type.getMethods()).filter(m -> m.getName().equals(method)).findFirst()
                    .orElseThrow(() -> new UserInputException(type.getName() + " has no method " + method + "; it has "
                            + Arrays.stream(type.getMethods()).map(Method::getName).sorted().distinct()
                            .collect(Collectors.joining(", "))));
            parameterTypes = Arrays.stream(target.getGenericParameterTypes())
                    .map(mapper.getTypeFactory()::constructType).toArray(JavaType[]::new);
        }

        Object[] convert(List<JsonNode> arguments) {
            if (arguments.size() > parameterTypes.length) {
                throw new UserInputException(method + " takes " + parameterTypes.length + " arguments, a document has "
                        + arguments.size());
            }
            Object[] values = new Object[parameterTypes.length];
            for (int i = 0; i < values.length; i++) {
                JsonNode argument = i < arguments.size() ? arguments.get(i) : mapper.nullNode();
                try {
                    values[i] = mapper.treeToValue(argument, parameterTypes[i]);
                } catch (JacksonException e) {
                    throw new UserInputException("argument " + (i + 1) + " of " + method + " does not convert to "
                            + parameterTypes[i].toCanonical() + ": " + e.getOriginalMessage());
                }
            }
            return values;
        }

        /** The method writer of the interface on this appender: calls converted before are written through it. */
        void bind(ExcerptAppender appender) {
            writer = Messages.methodWriter(appender, type);
        }

        void write(Object[] values) {
            try {
                target.invoke(writer, values);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("cannot call " + target, e);
            }
        }
    }
}

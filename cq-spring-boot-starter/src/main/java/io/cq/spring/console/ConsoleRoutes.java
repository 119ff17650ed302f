package io.cq.spring.console;

import io.cq.spring.actuate.QueueDescriptor.ListenerDescriptor;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The console over HTTP: its page and assets (plain HTML, CSS and JavaScript inside the jar, nothing fetched from
 * elsewhere) and the JSON the page reads. The write route exists only when the {@code queues} endpoint allows
 * writes, as Boot maps no write operation of a read-only endpoint. Every answer says {@code nosniff} and is not
 * cached; the page's Content-Security-Policy allows only its own scripts and styles, no inline ones.
 */
public final class ConsoleRoutes {
    private static final String ASSETS = "io/cq/spring/console/static/";
    private static final Map<String, MediaType> ASSET_TYPES = Map.of(
            "index.html", MediaType.TEXT_HTML,
            "console.css", MediaType.valueOf("text/css"),
            "console.js", MediaType.valueOf("text/javascript"),
            "views.js", MediaType.valueOf("text/javascript"),
            "excerpts.js", MediaType.valueOf("text/javascript"),
            "chart.js", MediaType.valueOf("text/javascript"));
    private static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    /** Largest body of a write request: an action and an index. */
    private static final int MAX_BODY = 4096;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ConsoleRoutes() {
    }

    /** The console's routes under its path. */
    public static RouterFunction<ServerResponse> routes(ConsoleApi api) {
        String path = api.settings().path();
        Map<String, byte[]> assets = loadAssets();
        RouterFunctions.Builder routes = RouterFunctions.route()
                .GET(path, request -> ServerResponse.status(HttpStatus.FOUND)
                        .location(URI.create(request.requestPath().value() + "/")).build())
                .GET(path + "/", request -> asset("index.html", assets))
                .GET(path + "/api/overview", request -> json(HttpStatus.OK, api.overview(request.servletRequest())))
                .GET(path + "/api/queues/{name}/excerpts", request -> page(api, request));
        for (String name : ASSET_TYPES.keySet()) {
            routes.GET(path + "/" + name, request -> asset(name, assets));
        }
        if (api.settings().writable()) {
            routes.POST(path + "/api/queues/{name}/listeners/{listener}", request -> act(api, request));
        }
        return routes.build();
    }

    /**
     * A page of excerpts. {@code Server-Timing} says what it cost in the application: {@code read} to position a
     * tailer, read and render the excerpts, {@code total} with the JSON written too.
     */
    private static ServerResponse page(ConsoleApi api, ServerRequest request) {
        long started = System.nanoTime();
        ExcerptPages.Request wanted;
        try {
            wanted = pageRequest(request, api.settings().pageSize());
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return error(HttpStatus.BAD_REQUEST, e.getMessage());
        }
        ExcerptPages.Page page = api.page(request.pathVariable("name"), wanted, request.servletRequest());
        if (page == null) {
            return error(HttpStatus.NOT_FOUND, "no queue named '" + request.pathVariable("name") + "'");
        }
        byte[] json = JSON.writeValueAsBytes(page);
        double total = (System.nanoTime() - started) / 1e6;
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).headers(ConsoleRoutes::noStore)
                .header("Server-Timing", String.format(Locale.ROOT, "read;dur=%.2f, total;dur=%.2f",
                        page.serverMillis(), total))
                .body(json);
    }

    /** {@code from=start|end|at|after|before|time}, with {@code index} (decimal or 0x hex) or {@code time}. */
    static ExcerptPages.Request pageRequest(ServerRequest request, int pageSize) {
        String from = request.param("from").orElse("start");
        ExcerptPages.From kind;
        try {
            kind = ExcerptPages.From.valueOf(from.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("from=" + from + ": use start, end, at, after, before or time");
        }
        long index = -1;
        Instant time = null;
        if (kind == ExcerptPages.From.AT || kind == ExcerptPages.From.AFTER || kind == ExcerptPages.From.BEFORE) {
            index = parseIndex(request.param("index").orElseThrow(
                    () -> new IllegalArgumentException("from=" + from + " needs an index")));
        } else if (kind == ExcerptPages.From.TIME) {
            time = Instant.parse(request.param("time").orElseThrow(() -> new IllegalArgumentException(
                    "from=time needs a time (ISO-8601, e.g. 2026-12-07T08:00:00Z)")));
        }
        int limit = request.param("limit").map(Integer::parseInt).orElse(pageSize);
        return new ExcerptPages.Request(kind, index, time, limit);
    }

    static long parseIndex(String text) {
        String trimmed = text.strip();
        try {
            long index = trimmed.startsWith("0x") || trimmed.startsWith("0X")
                    ? Long.parseUnsignedLong(trimmed.substring(2), 16) : Long.parseLong(trimmed);
            if (index < 0) {
                throw new NumberFormatException("negative");
            }
            return index;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("index=" + text + " is not an index: give it in decimal, or in hex with "
                    + "0x as the console shows it");
        }
    }

    private static ServerResponse act(ConsoleApi api, ServerRequest request) throws IOException {
        String refusal = api.refusal(request.servletRequest());
        if (refusal != null) {
            return error(HttpStatus.FORBIDDEN, refusal);
        }
        JsonNode body;
        try (InputStream in = request.servletRequest().getInputStream()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                return error(HttpStatus.CONTENT_TOO_LARGE, "an action is at most " + MAX_BODY + " bytes of JSON");
            }
            body = JSON.readTree(bytes);
        } catch (JacksonException e) {
            return error(HttpStatus.BAD_REQUEST, "the body is not JSON: " + e.getOriginalMessage());
        }
        String action = body.path("action").asString("");
        Long index = body.hasNonNull("index") ? parseIndex(body.get("index").asString()) : null;
        try {
            ListenerDescriptor state = api.act(request.pathVariable("name"), request.pathVariable("listener"), action,
                    index);
            return state == null ? error(HttpStatus.NOT_FOUND, "queue '" + request.pathVariable("name")
                    + "' has no listener '" + request.pathVariable("listener") + "'") : json(HttpStatus.OK, state);
        } catch (InvalidEndpointRequestException e) {
            return error(HttpStatus.BAD_REQUEST, e.getMessage());
        } catch (IllegalStateException e) {
            return error(HttpStatus.CONFLICT, e.getMessage());
        }
    }

    private static ServerResponse asset(String name, Map<String, byte[]> assets) {
        ServerResponse.BodyBuilder response = ServerResponse.ok().contentType(ASSET_TYPES.get(name))
                .headers(ConsoleRoutes::noStore);
        if (name.endsWith(".html")) {
            response.header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                    .header("Referrer-Policy", "no-referrer");
        }
        return response.body(assets.get(name));
    }

    private static ServerResponse json(HttpStatus status, Object value) {
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).headers(ConsoleRoutes::noStore)
                .body(JSON.writeValueAsBytes(value));
    }

    private static ServerResponse error(HttpStatus status, @Nullable String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status.value());
        body.put("error", message == null ? status.getReasonPhrase() : message);
        return json(status, body);
    }

    private static void noStore(HttpHeaders headers) {
        headers.setCacheControl("no-store");
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("X-Frame-Options", "DENY");
    }

    private static Map<String, byte[]> loadAssets() {
        Map<String, byte[]> assets = new LinkedHashMap<>();
        ClassLoader loader = ConsoleRoutes.class.getClassLoader();
        for (String name : ASSET_TYPES.keySet()) {
            try (InputStream in = loader.getResourceAsStream(ASSETS + name)) {
                if (in == null) {
                    throw new IllegalStateException("the console's " + ASSETS + name + " is missing from the jar");
                }
                assets.put(name, in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the console's " + ASSETS + name, e);
            }
        }
        return assets;
    }
}

package io.cq.samples.secured;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A client of the console as a script or a browser's page is one: its own cookies (the session Spring Security keeps
 * its CSRF token in), signed in with HTTP Basic or not at all.
 */
final class Session {
    static final String CONSOLE = "/actuator/queues-console";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String base;
    private final String authorization;
    private final HttpClient http;

    private Session(int port, String authorization) {
        this.base = "http://localhost:" + port;
        this.authorization = authorization;
        this.http = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    static Session anonymous(int port) {
        return new Session(port, null);
    }

    static Session signedIn(int port, String user, String password) {
        return new Session(port, "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8)));
    }

    HttpResponse<String> get(String path, String accept) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).header("Accept", accept);
        return send(request.GET());
    }

    /** The console's figures, as JSON; fails unless they are given. */
    JsonNode overview() throws IOException, InterruptedException {
        HttpResponse<String> response = get(CONSOLE + "/api/overview", "application/json");
        if (response.statusCode() != 200) {
            throw new AssertionError("overview answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** A POST with a JSON body and these headers, name and value in turn. */
    HttpResponse<String> post(String path, String json, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json").header("Accept", "application/json");
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** A write action as the console's page sends it: its token and Spring Security's, both from the overview. */
    HttpResponse<String> act(String listener, String json) throws IOException, InterruptedException {
        JsonNode overview = overview();
        return post(CONSOLE + "/api/queues/orders/listeners/" + listener, json,
                "X-CQ-Console-Token", overview.get("token").asString(),
                overview.at("/springSecurity/header").asString(), overview.at("/springSecurity/token").asString());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}

package io.cq.spring.console;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Protects the console's write actions against cross-site request forgery, in three layers (docs/console.md,
 * "Security"):
 * <ol>
 *   <li>a token: random, made at start-up, handed to the page in the answer of a GET that only a page of the same
 *       origin can read (the console sends no CORS headers), and required in the {@value #HEADER} header of every
 *       POST;</li>
 *   <li>that custom header and a JSON body: a form or a link of another site can send neither, and a script of
 *       another origin that tries must ask first (a CORS preflight), which the console does not answer;</li>
 *   <li>the browser's word: a POST whose {@code Sec-Fetch-Site} says it comes from another site is refused.</li>
 * </ol>
 * When Spring Security is present its own CSRF protection applies as well; the page is given its token to send.
 * Thread-safe.
 */
final class CsrfGuard {
    /** The header that carries the token. */
    static final String HEADER = "X-CQ-Console-Token";
    private static final Set<String> SAME_SITE = Set.of("same-origin", "none");

    private final String token;

    CsrfGuard() {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        this.token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    String token() {
        return token;
    }

    /** Why a write request is refused, or null when it may go on. */
    @Nullable String refusal(HttpServletRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null && !SAME_SITE.contains(site.toLowerCase(Locale.ROOT))) {
            return "refused: the request comes from another site (Sec-Fetch-Site: " + site + ")";
        }
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            return "refused: the console's actions are JSON requests (Content-Type: application/json)";
        }
        String sent = request.getHeader(HEADER);
        if (sent == null || !MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8))) {
            return "refused: missing or wrong " + HEADER + " header; reload the console to get the current token";
        }
        return null;
    }

    /**
     * Spring Security's CSRF token for this request, as {@code header} and {@code token}, when Spring Security put one
     * there ({@code _csrf}); read through its two accessors so that the starter needs no Spring Security.
     */
    static @Nullable Map<String, String> springSecurityToken(HttpServletRequest request) {
        Object csrf = request.getAttribute("_csrf");
        if (csrf == null) {
            return null;
        }
        try {
            Method header = csrf.getClass().getMethod("getHeaderName");
            Method value = csrf.getClass().getMethod("getToken");
            header.setAccessible(true);
            value.setAccessible(true);
            return Map.of("header", String.valueOf(header.invoke(csrf)), "token", String.valueOf(value.invoke(csrf)));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}

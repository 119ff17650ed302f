package io.cq.spring.boot.requester;

import io.cq.spring.annotation.QueueWriter;
import io.cq.spring.boot.reply.QuoteApplication.Quote;
import io.cq.spring.boot.reply.QuoteApplication.QuoteRequest;
import org.springframework.boot.autoconfigure.SpringBootApplication;

import java.util.concurrent.CompletableFuture;

/** An application that only requests: it has no listener, and reads replies from the queue the responder names. */
@SpringBootApplication
public class RequesterApplication {

    /** The quoter's requests, as this application declares them. */
    @QueueWriter(queue = "quotes")
    public interface RemoteQuotes {
        CompletableFuture<Quote> quote(QuoteRequest request);
    }
}

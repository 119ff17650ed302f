package io.cq.docs.context;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.message.TextHeaders;
import io.cq.spring.core.QueueTemplate;

import java.nio.file.Path;

/** The variables the documentation's fragments take as given; never run, only compiled. */
public abstract class DocContext {
    protected MappedQueue queue;
    protected MappedQueue q1;
    protected MappedQueue q2;
    protected MappedQueue orders;
    protected MappedQueue replyQueue;
    protected MappedQueue trades;
    protected ExcerptAppender appender;
    protected ExcerptTailer tailer;
    protected ExcerptTailer requestTailer;
    protected Path dir;
    protected long orderId;
    protected String symbol;
    protected int quantity;
    protected double price;
    protected byte[] bytes;
    protected TextHeaders incoming;
    protected Order order;
    protected int published;
    protected QueueTemplate template;
    protected Book book;
    protected OrderService orderService;
}

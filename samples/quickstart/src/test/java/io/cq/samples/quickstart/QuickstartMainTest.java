package io.cq.samples.quickstart;

import io.cq.core.MappedQueue;
import io.cq.test.QueueExcerpt;
import io.cq.test.QueueProbe;
import io.cq.test.TempQueue;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The quickstart run twice on a queue of the test's own ({@code @TempQueue}, deleted afterwards), as the README
 * suggests: each run appends three orders and five live ones, and the named tailer resumes where the first run left
 * it.
 */
class QuickstartMainTest {
    @TempQueue
    MappedQueue queue;

    private List<String> orders() {
        return QueueProbe.of(queue).read(order -> order.readUtf8() + " " + order.readInt());
    }

    @Test
    void shouldAppendTheOrders() throws Exception {
        QuickstartMain.main(new String[] {queue.path().toString()});

        assertThat(orders()).containsExactly("AAPL 100", "AAPL 200", "AAPL 300",
                "MSFT 10", "MSFT 11", "MSFT 12", "MSFT 13", "MSFT 14");
    }

    @Test
    void shouldLeaveTheNamedTailerAfterTheOrdersItRead() throws Exception {
        QuickstartMain.main(new String[] {queue.path().toString()});

        List<QueueExcerpt> excerpts = QueueProbe.of(queue).excerpts();
        assertThat(queue.namedTailer("quickstart").orElseThrow().nextIndex()).isEqualTo(excerpts.get(3).index());
    }

    @Test
    void shouldResumeTheNamedTailerOnASecondRun() throws Exception {
        QuickstartMain.main(new String[] {queue.path().toString()});
        QuickstartMain.main(new String[] {queue.path().toString()});

        List<QueueExcerpt> excerpts = QueueProbe.of(queue).excerpts();
        assertThat(excerpts).hasSize(16);
        assertThat(orders().subList(8, 11)).containsExactly("AAPL 100", "AAPL 200", "AAPL 300");
        assertThat(queue.namedTailer("quickstart").orElseThrow().nextIndex()).isEqualTo(excerpts.get(11).index());
    }
}

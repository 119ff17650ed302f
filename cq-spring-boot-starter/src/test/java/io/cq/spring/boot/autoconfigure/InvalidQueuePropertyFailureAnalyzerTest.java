package io.cq.spring.boot.autoconfigure;

import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Each wrong value stops start-up with an analysis naming the property and the fix. */
class InvalidQueuePropertyFailureAnalyzerTest {
    @TempDir
    Path dir;

    private FailureAnalysis startupFailure(String... properties) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir)
                .withPropertyValues(properties)
                .run(context -> {
                    assertThat(context).hasFailed();
                    analysis[0] = StartupFailures.analyze(context.getStartupFailure());
                });
        return analysis[0];
    }

    @Test
    void shouldNameAnUnknownRollCycleAndListTheValidOnes() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.roll-cycle=fortnightly");
        assertThat(analysis.getDescription()).contains("cq.queues.orders.roll-cycle").contains("fortnightly");
        assertThat(analysis.getAction()).contains("HOURLY").contains("DAILY");
    }

    @Test
    void shouldNameABlockSizeThatIsNotAMultipleOfThePageSize() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.block-size=300000B");
        assertThat(analysis.getDescription()).isEqualTo("The cq property 'cq.queues.orders.block-size' has the value "
                + "'300000B': a block size must be a multiple of 4096 bytes and at least 260KB for roll cycle DAILY "
                + "(the default is 64MB)");
        assertThat(analysis.getAction())
                .isEqualTo("Set cq.queues.orders.block-size to a multiple of 4KB of at least 260KB, e.g. 296KB.");
    }

    @Test
    void shouldSuggestABlockSizeThatTheRollCycleAccepts() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.roll-cycle=minutely",
                "cq.queues.orders.block-size=5000B");
        assertThat(analysis.getDescription()).contains("at least 132KB for roll cycle MINUTELY");
        assertThat(analysis.getAction()).endsWith("e.g. 132KB.");
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir, "cq.queues.orders.roll-cycle=minutely",
                        "cq.queues.orders.block-size=132KB")
                .run(context -> assertThat(context).hasNotFailed().getBean("orders", MappedQueue.class)
                        .extracting(queue -> queue.settings().blockSize()).isEqualTo(132L * 1024));
    }

    @Test
    void shouldNameABlockSizeTooSmallForTheRollCycleOfTheExistingQueue() {
        MappedQueue.builder(dir.resolve("orders")).rollCycle(RollCycle.XLARGE_DAILY).build().close();
        FailureAnalysis analysis = startupFailure("cq.queues.orders.block-size=260KB");
        assertThat(analysis.getDescription()).startsWith("The cq property 'cq.queues.orders.block-size' has the value "
                + "'266240': blockSize=266240 must be a multiple of 4096 from 528384 (for rollCycle=XLARGE_DAILY)");
        assertThat(analysis.getAction()).isEqualTo("Change cq.queues.orders.block-size as the message says.");
    }

    @Test
    void shouldNameAnIndexSpacingThatIsNotAPowerOfTwo() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.index-spacing=100");
        assertThat(analysis.getDescription()).contains("'cq.queues.orders.index-spacing' has the value '100'")
                .contains("power of two");
        assertThat(analysis.getAction()).isEqualTo("Set cq.queues.orders.index-spacing to a power of two, e.g. 64.");
    }

    @Test
    void shouldNameAPathThatIsAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("orders"), "not a queue");
        FailureAnalysis analysis = startupFailure("cq.queues.orders.durability=page-cache");
        assertThat(analysis.getDescription()).contains("'cq.queues.orders.path' has the value '" + file + "'")
                .contains("it exists and is not a directory");
        assertThat(analysis.getAction()).contains("Point cq.queues.orders.path (or cq.base-path) at a directory");
    }

    @Test
    void shouldNameAPathThatCannotBeCreated() throws Exception {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        FailureAnalysis analysis = startupFailure("cq.queues.orders.path=" + file.resolve("orders"));
        assertThat(analysis.getDescription()).contains("'cq.queues.orders.path'")
                .contains("it cannot be created: " + file + " is not a directory");
    }

    @Test
    void shouldNameARollCycleThatContradictsTheExistingQueue() {
        MappedQueue.builder(dir.resolve("orders")).rollCycle(RollCycle.HOURLY).build().close();
        FailureAnalysis analysis = startupFailure("cq.queues.orders.roll-cycle=daily");
        assertThat(analysis.getDescription()).contains("'cq.queues.orders.roll-cycle' has the value 'DAILY'")
                .contains("was created with roll cycle HOURLY");
        assertThat(analysis.getAction()).startsWith("Set cq.queues.orders.roll-cycle=HOURLY or remove the property");
    }

    @Test
    void shouldNameAMissingDeadLetterQueue() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.durability=page-cache",
                "cq.listener.recoverer=dead-letter", "cq.listener.dead-letter-queue=orders-dlq");
        assertThat(analysis.getDescription()).contains("'cq.listener.dead-letter-queue' has the value 'orders-dlq'")
                .contains("the queues are [orders]");
        assertThat(analysis.getAction()).contains("cq.queues.orders-dlq.path");
    }

    @Test
    void shouldNameAnUnknownIdleStrategyWithTheValidOnes() {
        FailureAnalysis analysis = startupFailure("cq.listener.idle.strategy=sleepy");
        assertThat(analysis.getDescription()).contains("cq.listener.idle.strategy").contains("sleepy");
        assertThat(analysis.getAction()).containsIgnoringCase("backoff").containsIgnoringCase("busy_spin");
    }

    @Test
    void shouldNameIdleParksThatCannotWork() {
        FailureAnalysis analysis = startupFailure("cq.listener.idle.min-park=10ms", "cq.listener.idle.max-park=1ms");
        assertThat(analysis.getDescription()).contains("'cq.listener.idle.max-park' has the value")
                .contains("at least cq.listener.idle.min-park (PT0.01S)");
        assertThat(analysis.getAction()).contains("cq.listener.idle.max-park to at least cq.listener.idle.min-park");
    }

    @Test
    void shouldNameARetryPolicyThatCannotWork() {
        FailureAnalysis analysis = startupFailure("cq.listener.retry.max-attempts=0");
        assertThat(analysis.getDescription()).contains("'cq.listener.retry.max-attempts' has the value '0'");
        assertThat(analysis.getAction()).contains("cq.listener.retry.max-attempts to 1 or more");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "cq.listener.retry.max-attempts=0 | cq.listener.retry.max-attempts | 0",
        "cq.listener.retry.interval=-1s | cq.listener.retry.interval | PT-1S",
        "cq.listener.retry.multiplier=0.5 | cq.listener.retry.multiplier | 0.5",
        "cq.listener.retry.max-interval=10ms | cq.listener.retry.max-interval | PT0.01S",
        "cq.listener.idle.max-spins=-5 | cq.listener.idle.max-spins | -5",
        "cq.listener.idle.max-yields=-1 | cq.listener.idle.max-yields | -1",
        "cq.listener.idle.min-park=-1ms | cq.listener.idle.min-park | PT-0.001S",
        "cq.listener.idle.max-park=-1ms | cq.listener.idle.max-park | PT-0.001S",
        "cq.listener.shutdown-timeout=-1s | cq.listener.shutdown-timeout | PT-1S",
        "cq.listener.idle-event-interval=0s | cq.listener.idle-event-interval | PT0S"})
    void shouldNameTheOneListenerSettingThatCannotWork(String setting, String property, String value) {
        FailureAnalysis analysis = startupFailure(setting);
        assertThat(analysis.getDescription()).startsWith("The cq property '" + property + "' has the value '" + value
                + "': ");
        assertThat(analysis.getAction()).startsWith("Set " + property + " ");
    }

    @Test
    void shouldRefuseAZeroSleepingPeriodButAcceptAZeroParkForOtherStrategies() {
        FailureAnalysis analysis = startupFailure("cq.listener.idle.strategy=sleeping", "cq.listener.idle.min-park=0s",
                "cq.listener.idle.max-park=0s");
        assertThat(analysis.getDescription()).contains("'cq.listener.idle.max-park' has the value 'PT0S'")
                .contains("positive: it is the sleeping strategy's period");
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir, "cq.listener.idle.min-park=0s",
                        "cq.listener.idle.max-park=0s")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void shouldRefuseAMisspeltQueuePropertyNamingTheClosestOne() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.roll-cyle=hourly");
        assertThat(analysis.getDescription()).startsWith("The cq property 'cq.queues.orders.roll-cyle' has the value "
                + "'hourly': cq has no such property").endsWith("so it would be ignored");
        assertThat(analysis.getAction())
                .isEqualTo("Did you mean cq.queues.orders.roll-cycle? Rename it, or remove it.");
    }

    @Test
    void shouldRefuseAPropertyThatNamesNoSettingEvenOnANewQueue() {
        FailureAnalysis analysis = startupFailure("cq.queues.extra.bogus=1");
        assertThat(analysis.getDescription()).startsWith("The cq property 'cq.queues.extra.bogus' has the value '1': "
                + "cq has no such property");
        assertThat(analysis.getAction()).startsWith("Remove it, or use one of the properties listed in "
                + "docs/spring-boot.md: ").contains("block-size").contains("roll-cycle");
    }

    /** Without the check, a console turned on with a typo would stay off without a word. */
    @Test
    void shouldRefuseAMisspeltConsoleProperty() {
        FailureAnalysis analysis = startupFailure("cq.console.enable=true");
        assertThat(analysis.getDescription()).contains("'cq.console.enable' has the value 'true'");
        assertThat(analysis.getAction()).isEqualTo("Did you mean cq.console.enabled? Rename it, or remove it.");
    }

    @Test
    void shouldRefuseAMisspeltListenerProperty() {
        FailureAnalysis analysis = startupFailure("cq.listener.retry.max-atempts=5");
        assertThat(analysis.getDescription()).contains("'cq.listener.retry.max-atempts' has the value '5'");
        assertThat(analysis.getAction()).isEqualTo("Did you mean cq.listener.retry.max-attempts? Rename it, or remove "
                + "it.");
    }

    @Test
    void shouldAcceptQueuePropertiesFromEnvironmentVariables() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class))
                .withInitializer(context -> context.getEnvironment().getPropertySources().addFirst(
                        new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                Map.of("CQ_BASEPATH", dir.toString(), "CQ_QUEUES_ORDERS_ROLLCYCLE", "hourly",
                                        "CQ_QUEUES_ORDERS_BLOCK_SIZE", "1MB", "CQ_LISTENER_RETRY_MAXATTEMPTS", "2",
                                        // as Kubernetes sets for a Service named cq-listener: not cq's to refuse
                                        "CQ_LISTENER_SERVICE_HOST", "10.0.0.1"))))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    MappedQueue orders = context.getBean("orders", MappedQueue.class);
                    assertThat(orders.rollCycle()).isEqualTo(RollCycle.HOURLY);
                    assertThat(orders.settings().blockSize()).isEqualTo(1024 * 1024);
                });
    }

    @Test
    void shouldNameAZoneWithDaylightSavingOnAnHourlyQueue() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.roll-cycle=hourly",
                "cq.queues.orders.roll-time-zone=America/New_York");
        assertThat(analysis.getDescription()).startsWith("The cq property 'cq.queues.orders.roll-time-zone' has the "
                + "value 'America/New_York': rollTime 00:00 in America/New_York with HOURLY");
        assertThat(analysis.getAction()).startsWith("Set cq.queues.orders.roll-time-zone to a fixed offset");
    }

    @Test
    void shouldNameAnAsyncBufferDirectoryThatIsAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("buffer-file"), "x");
        FailureAnalysis analysis = startupFailure("cq.queues.orders.async-mode=true",
                "cq.queues.orders.async-buffer-directory=" + file);
        assertThat(analysis.getDescription()).isEqualTo("The cq property 'cq.queues.orders.async-buffer-directory' "
                + "has the value '" + file + "': it exists and is not a directory");
        assertThat(analysis.getAction()).startsWith("Point cq.queues.orders.async-buffer-directory at a directory");
    }

    /**
     * A directory the checks pass but the file system will not create: /proc refuses new directories even to root,
     * who may write there by its permissions. Elsewhere nothing passes the checks and still fails.
     */
    @Test
    void shouldNameDirectoriesThatTheFileSystemRefusesToCreate() {
        Path proc = Path.of("/proc");
        assumeTrue(Files.isDirectory(proc) && Files.isWritable(proc), "needs a writable-looking /proc (root)");
        Path refused = proc.resolve("cq-test-" + ProcessHandle.current().pid());
        FailureAnalysis path = startupFailure("cq.queues.orders.path=" + refused.resolve("orders"));
        assertThat(path.getDescription()).startsWith("The cq property 'cq.queues.orders.path' has the value '"
                + refused.resolve("orders") + "': cannot create queue directory");
        FailureAnalysis buffer = startupFailure("cq.queues.orders.async-mode=true",
                "cq.queues.orders.async-buffer-directory=" + refused);
        assertThat(buffer.getDescription()).startsWith("The cq property 'cq.queues.orders.async-buffer-directory' has "
                + "the value '" + refused + "': cannot open the async buffer");
        assertThat(buffer.getAction()).startsWith("Point cq.queues.orders.async-buffer-directory at a directory");
    }

    @Test
    void shouldAcceptAReadOnlyQueueOverTheDirectoryOfAWritableOne() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir, "cq.queues.orders.durability=page-cache",
                        "cq.queues.orders-view.path=" + dir.resolve("orders"), "cq.queues.orders-view.read-only=true")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void shouldRefuseTwoQueuesOverOneDirectory() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.durability=page-cache",
                "cq.queues.orders-dlq.path=" + dir.resolve("orders"));
        assertThat(analysis.getDescription()).contains("has the same directory, so the two names would be one queue");
        assertThat(analysis.getAction()).contains("different directories");
    }

    @Test
    void shouldAdviseRenamingTheQueueWhenItsNameIsTakenByTheStartersOwnBean() {
        FailureAnalysis analysis = startupFailure("cq.queues.queueTemplate.durability=page-cache");
        assertThat(analysis.getDescription()).contains("already has a bean named 'queueTemplate'");
        assertThat(analysis.getAction()).startsWith("The name is taken by cq's own bean: rename the queue");
    }
}

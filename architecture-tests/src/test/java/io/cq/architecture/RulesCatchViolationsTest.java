package io.cq.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.cq.cli.fixture.ReachingInFixture;
import io.cq.core.LeakyApiFixture;
import io.cq.core.internal.fixturea.InternalFixture;
import io.cq.core.internal.fixtureb.OtherInternalFixture;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The rules fail on deliberately bad classes (the fixtures beside this test), so a green run means something. */
class RulesCatchViolationsTest {
    private final JavaClasses fixtures = new ClassFileImporter().importClasses(LeakyApiFixture.class,
            InternalFixture.class, OtherInternalFixture.class, ReachingInFixture.class);

    @Test
    void shouldFailAPublicSignatureThatNamesAnInternalType() {
        assertThatThrownBy(() -> CqArchitecture.noPublicSignatureNamesAnInternalType().check(fixtures))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("LeakyApiFixture.leak() returns io.cq.core.internal.fixturea.InternalFixture");
    }

    @Test
    void shouldFailAnApiTypeOtherThanAnEntryPointThatUsesInternals() {
        assertThatThrownBy(() -> CqArchitecture.onlyEntryPointsUseInternals().check(fixtures))
                .isInstanceOf(AssertionError.class).hasMessageContaining("LeakyApiFixture");
    }

    @Test
    void shouldFailAnInternalTypeThatUsesAnEntryPoint() {
        assertThatThrownBy(() -> CqArchitecture.internalsDoNotDependOnEntryPoints().check(fixtures))
                .isInstanceOf(AssertionError.class).hasMessageContaining("io.cq.core.message.Messages");
    }

    @Test
    void shouldFailACycleBetweenInternalPackages() {
        assertThatThrownBy(() -> CqArchitecture.internalPackagesAreFreeOfCycles().check(fixtures))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Cycle detected");
    }

    @Test
    void shouldFailAnotherModuleThatReachesIntoTheInternals() {
        assertThatThrownBy(() -> CqArchitecture.otherModulesUseOnlyThePublicApi().check(fixtures))
                .isInstanceOf(AssertionError.class).hasMessageContaining("ReachingInFixture");
    }
}

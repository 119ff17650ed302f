package io.cq.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.cq.cli.fixture.ReachingInFixture;
import io.cq.core.LeakyApiFixture;
import io.cq.core.internal.fixturea.InternalFixture;
import io.cq.core.internal.fixtureb.OtherInternalFixture;
import io.cq.core.internal.fixturec.ParentInternalFixture;
import io.cq.core.internal.fixturec.nested.NestedInternalFixture;
import io.cq.integration.RootFixture;
import io.cq.integration.fixture.SubFixture;
import io.cq.spring.fixture.ParentFixture;
import io.cq.spring.fixture.nested.ChildFixture;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatNoException;
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

    /** A parent package and its own sub-package: one slice for slices by first-level package, two for this rule. */
    @Test
    void shouldFailACycleBetweenAStarterPackageAndItsSubPackage() {
        JavaClasses cycle = new ClassFileImporter().importClasses(ParentFixture.class, ChildFixture.class);
        assertThatNoException().isThrownBy(() -> CqArchitecture.modulesAreFreeOfCycles().check(cycle));
        assertThatThrownBy(() -> CqArchitecture.packagesAreFreeOfCycles("io.cq.spring").check(cycle))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Cycle detected")
                .hasMessageContaining("io.cq.spring.fixture.nested");
    }

    /** The module's root package takes part too, though it has no sub-package name to slice by. */
    @Test
    void shouldFailACycleBetweenSpringIntegrationsRootPackageAndASubPackage() {
        JavaClasses cycle = new ClassFileImporter().importClasses(RootFixture.class, SubFixture.class);
        assertThatThrownBy(() -> CqArchitecture.packagesAreFreeOfCycles("io.cq.integration").check(cycle))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Cycle detected")
                .hasMessageContaining("io.cq.integration.fixture");
    }

    @Test
    void shouldFailACycleBetweenACorePackageAndItsSubPackage() {
        JavaClasses cycle = new ClassFileImporter().importClasses(ParentInternalFixture.class,
                NestedInternalFixture.class);
        assertThatNoException().isThrownBy(() -> CqArchitecture.internalPackagesAreFreeOfCycles().check(cycle));
        assertThatThrownBy(() -> CqArchitecture.packagesAreFreeOfCycles("io.cq.core").check(cycle))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Cycle detected")
                .hasMessageContaining("io.cq.core.internal.fixturec.nested");
    }

    @Test
    void shouldFailAnotherModuleThatReachesIntoTheInternals() {
        assertThatThrownBy(() -> CqArchitecture.otherModulesUseOnlyThePublicApi().check(fixtures))
                .isInstanceOf(AssertionError.class).hasMessageContaining("ReachingInFixture");
    }
}

package io.cq.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** cq-core's own shape (docs/architecture.md). */
class CoreArchitectureTest {
    private static JavaClasses core;

    @BeforeAll
    static void importCore() {
        core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.cq.core");
        assertThat(core).as("cq-core's classes on the class path").hasSizeGreaterThan(100);
    }

    @Test
    void shouldNameNoInternalTypeInAnyPublicSignature() {
        CqArchitecture.noPublicSignatureNamesAnInternalType().check(core);
    }

    @Test
    void shouldReachIntoInternalsOnlyFromTheEntryPoints() {
        CqArchitecture.onlyEntryPointsUseInternals().check(core);
    }

    @Test
    void shouldKeepInternalsFromDependingOnTheEntryPoints() {
        CqArchitecture.internalsDoNotDependOnEntryPoints().check(core);
    }

    @Test
    void shouldKeepInternalPackagesFreeOfCycles() {
        CqArchitecture.internalPackagesAreFreeOfCycles().check(core);
    }

    /**
     * Every package of cq-core, the API's and each internal one (sub-packages included), apart from the others. The
     * API reaches its engine and its message codec by name (QueueEngine, MessageEngine: docs/architecture.md, "The
     * API and the engine"), so the internals may use the API's types without a cycle.
     */
    @Test
    void shouldKeepEveryPackageFreeOfCycles() {
        CqArchitecture.packagesAreFreeOfCycles("io.cq.core").check(core);
    }

    @Test
    void shouldLayerTheInternalPackagesAsDocumented() {
        CqArchitecture.internalPackagesAreLayered().check(core);
    }

    @Test
    void shouldLayerTheApiPackagesWithTheMessageLayerOnTop() {
        CqArchitecture.apiPackagesAreLayered().check(core);
    }
}

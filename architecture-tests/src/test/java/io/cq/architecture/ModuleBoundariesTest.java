package io.cq.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every module's main classes: the CLI, the Spring modules, the test support and the samples against cq-core. */
class ModuleBoundariesTest {
    private static JavaClasses all;

    @BeforeAll
    static void importEveryModule() {
        all = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.cq");
        for (String module : new String[] {"io.cq.core.", "io.cq.cli.", "io.cq.spring.", "io.cq.integration.",
                "io.cq.test.", "io.cq.samples.", "io.cq.benchmarks."}) {
            assertThat(all.stream().anyMatch(type -> type.getName().startsWith(module)))
                    .as("classes of %s* were imported", module).isTrue();
        }
    }

    @Test
    void shouldUseOnlyCqCoresPublicApiFromOtherModules() {
        CqArchitecture.otherModulesUseOnlyThePublicApi().check(all);
    }

    @Test
    void shouldKeepModulesFreeOfCycles() {
        CqArchitecture.modulesAreFreeOfCycles().check(all);
    }

    @Test
    void shouldKeepTheStartersPackagesFreeOfCycles() {
        CqArchitecture.packagesAreFreeOfCycles("io.cq.spring").check(all);
    }

    @Test
    void shouldKeepSpringIntegrationsPackagesFreeOfCycles() {
        CqArchitecture.packagesAreFreeOfCycles("io.cq.integration").check(all);
    }
}

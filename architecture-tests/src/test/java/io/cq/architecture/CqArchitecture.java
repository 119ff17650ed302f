package io.cq.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.Architectures;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

import java.util.LinkedHashSet;
import java.util.Set;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The architecture of docs/architecture.md as rules. The public API of cq-core is three packages; the engine's
 * internals sit under it in layers; four entry points ({@link #ENTRY_POINTS}) open the internals for the API, and
 * nothing internal knows them, so no dependency cycle crosses the API's edge.
 */
final class CqArchitecture {
    static final String[] API_PACKAGES = {"io.cq.core", "io.cq.core.codec", "io.cq.core.idle", "io.cq.core.message"};
    static final String INTERNAL = "io.cq.core.internal..";

    /** The public classes that create the engine's objects: the only API classes that may use internals. */
    static final DescribedPredicate<JavaClass> ENTRY_POINTS = new DescribedPredicate<>(
            "entry points (MappedQueueBuilder, Messages, MethodWriterBuilder, MethodReaderBuilder)") {
        private final Set<String> names = Set.of("io.cq.core.MappedQueueBuilder", "io.cq.core.message.Messages",
                "io.cq.core.message.MethodWriterBuilder", "io.cq.core.message.MethodReaderBuilder");

        @Override
        public boolean test(JavaClass type) {
            return names.contains(type.getName());
        }
    };

    private static final DescribedPredicate<JavaClass> API = resideInAnyPackage(API_PACKAGES).as("the public API");
    private static final DescribedPredicate<JavaClass> INTERNAL_TYPES = resideInAPackage(INTERNAL)
            .as("are cq-core's internals");

    private CqArchitecture() {
    }

    /** What users compile against never mentions an internal type, so they cannot couple to one by accident. */
    static ArchRule noPublicSignatureNamesAnInternalType() {
        return classes().that(API).and().arePublic().should(exposeNo(INTERNAL_TYPES))
                .because("users compile against the public API only (module-info exports nothing else)");
    }

    /** Only the entry points reach into the internals; everything else in the API is interfaces and values. */
    static ArchRule onlyEntryPointsUseInternals() {
        return noClasses().that(API).and(not(ENTRY_POINTS)).should().dependOnClassesThat(INTERNAL_TYPES)
                .because("the API is the vocabulary the internals implement; the entry points alone create them");
    }

    /** So that no cycle runs through the API: the internals implement it, the entry points sit above them. */
    static ArchRule internalsDoNotDependOnEntryPoints() {
        return noClasses().that(INTERNAL_TYPES).should().dependOnClassesThat(ENTRY_POINTS)
                .because("the entry points sit above the internals; a dependency back would close a cycle");
    }

    static ArchRule internalPackagesAreFreeOfCycles() {
        return slices().matching("io.cq.core.internal.(*)..").should().beFreeOfCycles();
    }

    /** The API packages among themselves: the message layer on top of the engine, idle strategies below it. */
    static ArchRule apiPackagesAreLayered() {
        return Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("idle").definedBy("io.cq.core.idle")
                .layer("codec API").definedBy("io.cq.core.codec")
                .layer("engine API").definedBy("io.cq.core")
                .layer("message API").definedBy("io.cq.core.message")
                .whereLayer("message API").mayNotBeAccessedByAnyLayer()
                .whereLayer("engine API").mayOnlyBeAccessedByLayers("message API")
                .whereLayer("idle").mayOnlyBeAccessedByLayers("engine API", "message API")
                .whereLayer("codec API").mayOnlyBeAccessedByLayers("engine API", "message API");
    }

    /** The internal layers of docs/architecture.md, lowest first; each may use only those below it. */
    static ArchRule internalPackagesAreLayered() {
        return Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("layout").definedBy("io.cq.core.internal.layout")
                .layer("system").definedBy("io.cq.core.internal.system")
                .layer("os").definedBy("io.cq.core.internal.os")
                .layer("memory").definedBy("io.cq.core.internal.memory")
                .layer("codec").definedBy("io.cq.core.internal.codec")
                .layer("table").definedBy("io.cq.core.internal.table")
                .layer("lock").definedBy("io.cq.core.internal.lock")
                .layer("named").definedBy("io.cq.core.internal.named")
                .layer("index").definedBy("io.cq.core.internal.index")
                .layer("file").definedBy("io.cq.core.internal.file")
                .layer("inspect").definedBy("io.cq.core.internal.inspect")
                .layer("settings").definedBy("io.cq.core.internal.settings")
                .layer("queue").definedBy("io.cq.core.internal.queue")
                .layer("async").definedBy("io.cq.core.internal.async")
                .layer("engine").definedBy("io.cq.core.internal.engine")
                .layer("message").definedBy("io.cq.core.internal.message")
                .whereLayer("engine").mayNotBeAccessedByAnyLayer()
                .whereLayer("message").mayNotBeAccessedByAnyLayer()
                .whereLayer("async").mayOnlyBeAccessedByLayers("engine")
                .whereLayer("queue").mayOnlyBeAccessedByLayers("async", "engine")
                .whereLayer("settings").mayOnlyBeAccessedByLayers("queue", "engine")
                .whereLayer("inspect").mayOnlyBeAccessedByLayers("queue")
                .whereLayer("file").mayOnlyBeAccessedByLayers("inspect", "queue", "async")
                .whereLayer("index").mayOnlyBeAccessedByLayers("file", "inspect", "queue", "async")
                .whereLayer("lock").mayOnlyBeAccessedByLayers("inspect", "queue", "async")
                .whereLayer("named").mayOnlyBeAccessedByLayers("inspect", "queue", "async")
                .whereLayer("table").mayOnlyBeAccessedByLayers("lock", "named", "file", "inspect", "queue", "async")
                .whereLayer("codec").mayOnlyBeAccessedByLayers("file", "inspect", "queue", "async")
                .whereLayer("memory").mayOnlyBeAccessedByLayers("codec", "table", "lock", "named", "index", "file",
                        "inspect", "queue", "async", "engine")
                .whereLayer("os").mayOnlyBeAccessedByLayers("memory", "file", "inspect", "queue", "async")
                .whereLayer("system").mayOnlyBeAccessedByLayers("os", "memory", "codec", "table", "lock", "named",
                        "file", "inspect", "queue", "async", "engine")
                .whereLayer("layout").mayOnlyBeAccessedByLayers("system", "memory", "codec", "table", "lock", "named",
                        "index", "file", "inspect", "settings", "queue", "async", "engine");
    }

    /** The CLI, the Spring modules, the test support and the samples use cq-core's public API and nothing else. */
    static ArchRule otherModulesUseOnlyThePublicApi() {
        return noClasses().that().resideOutsideOfPackage("io.cq.core..").should()
                .dependOnClassesThat(INTERNAL_TYPES)
                .because("cq-core exports only its API; Spring applications run on the class path, where only this "
                        + "rule keeps them from its internals");
    }

    /** The modules' top-level packages: engine, command line, Spring, Spring Integration, test support, samples. */
    static ArchRule modulesAreFreeOfCycles() {
        return slices().matching("io.cq.(*)..").should().beFreeOfCycles();
    }

    /**
     * No cycle among the packages under {@code root}, the root included, each package a slice of its own: a
     * sub-package ({@code io.cq.spring.listener.invoke}) is as separate from its parent ({@code io.cq.spring.listener})
     * as from a sibling, so a cycle between the two fails too, which slices by first-level package would miss.
     */
    static ArchRule packagesAreFreeOfCycles(String root) {
        return slices().assignedFrom(eachPackageUnder(root)).should().beFreeOfCycles();
    }

    /** Every package at or under {@code root} as a slice named after it; classes elsewhere belong to none. */
    static SliceAssignment eachPackageUnder(String root) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass type) {
                String name = type.getPackageName();
                return name.equals(root) || name.startsWith(root + ".") ? SliceIdentifier.of(name)
                        : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "every package at or under " + root;
            }
        };
    }

    /** Public and protected members and the supertypes of a class name none of {@code forbidden}. */
    static ArchCondition<JavaClass> exposeNo(DescribedPredicate<JavaClass> forbidden) {
        return new ArchCondition<>("name no class that " + forbidden.getDescription() + " in a public signature") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                Set<String> problems = new LinkedHashSet<>();
                for (JavaType supertype : type.getInterfaces()) {
                    collect(supertype, forbidden, type.getName() + " implements", problems);
                }
                type.getRawSuperclass().ifPresent(superclass ->
                        collect(superclass, forbidden, type.getName() + " extends", problems));
                for (JavaMember member : type.getMembers()) {
                    if (!isVisibleToUsers(member)) {
                        continue;
                    }
                    String where = member.getFullName();
                    if (member instanceof JavaField field) {
                        collect(field.getType(), forbidden, where, problems);
                    } else if (member instanceof JavaCodeUnit code) {
                        collect(code.getReturnType(), forbidden, where + " returns", problems);
                        for (JavaType parameter : code.getParameterTypes()) {
                            collect(parameter, forbidden, where + " takes", problems);
                        }
                        code.getThrowsClause().getTypes().forEach(thrown ->
                                collect(thrown, forbidden, where + " throws", problems));
                    }
                }
                problems.forEach(problem -> events.add(SimpleConditionEvent.violated(type, problem)));
            }
        };
    }

    private static boolean isVisibleToUsers(JavaMember member) {
        Set<JavaModifier> modifiers = member.getModifiers();
        return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
    }

    private static void collect(JavaType type, DescribedPredicate<JavaClass> forbidden, String where,
                                Set<String> problems) {
        for (JavaClass involved : type.getAllInvolvedRawTypes()) {
            if (forbidden.test(involved)) {
                problems.add(where + " " + involved.getName());
            }
        }
    }
}

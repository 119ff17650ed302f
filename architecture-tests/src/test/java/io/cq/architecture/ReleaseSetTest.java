package io.cq.architecture;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a release publishes (README, "Release"), read from the poms: every module either publishes a jar with a
 * module name or says it is never published, and cq-bom, which cannot inherit cq-parent's metadata, manages
 * exactly the published jars at the project's version and repeats that metadata.
 */
class ReleaseSetTest {
    private static final Path ROOT = Path.of("..");
    private static final List<String> SHARED_METADATA =
            List.of("url", "inceptionYear", "licenses", "developers", "scm", "issueManagement");

    private static Document parent;
    private static Document bom;
    private static Map<String, Path> modules;

    @BeforeAll
    static void readPoms() throws Exception {
        parent = read(ROOT.resolve("pom.xml"));
        bom = read(ROOT.resolve("cq-bom/pom.xml"));
        modules = new LinkedHashMap<>();
        NodeList declared = parent.getElementsByTagName("module");    // the profiles' modules (jcstress) too
        for (int i = 0; i < declared.getLength(); i++) {
            Path directory = ROOT.resolve(declared.item(i).getTextContent().strip());
            modules.put(text(read(directory.resolve("pom.xml")).getDocumentElement(), "artifactId"), directory);
        }
        assertThat(modules).containsKeys("cq-bom", "cq-core", "cq-cli", "cq-spring-boot-starter",
                "cq-spring-integration", "cq-test", "cq-architecture-tests", "cq-jcstress");
    }

    @Test
    void shouldManageInTheBomExactlyThePublishedJarsAtTheProjectsVersion() throws Exception {
        Element root = bom.getDocumentElement();
        List<String> managed = new ArrayList<>();
        NodeList dependencies = root.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            assertThat(text(dependency, "groupId")).isEqualTo("io.cq");
            assertThat(text(dependency, "version")).isEqualTo("${project.version}");
            managed.add(text(dependency, "artifactId"));
        }

        assertThat(text(root, "version")).isEqualTo(text(parent.getDocumentElement(), "version"));
        assertThat(managed).containsExactlyInAnyOrderElementsOf(publishedJars());
    }

    @Test
    void shouldRepeatTheParentsPublishedMetadataInTheBom() {
        for (String element : SHARED_METADATA) {
            assertThat(words(child(bom.getDocumentElement(), element)))
                    .as(element).isEqualTo(words(child(parent.getDocumentElement(), element)));
        }
    }

    @Test
    void shouldGiveEveryPublishedJarAModuleName() throws Exception {
        for (String artifactId : publishedJars()) {
            Path directory = modules.get(artifactId);
            boolean declared = Files.exists(directory.resolve("src/main/java/module-info.java"));
            NodeList automatic = read(directory.resolve("pom.xml")).getElementsByTagName("Automatic-Module-Name");
            assertThat(declared || automatic.getLength() == 1).as(artifactId + " has a module name").isTrue();
            if (!declared) {
                String name = automatic.item(0).getTextContent().strip();
                assertThat(directory.resolve("src/main/java/" + name.replace('.', '/'))).as(artifactId
                        + "'s module name is the package its classes are under").isDirectory();
            }
        }
    }

    /** The jar modules that do not set cq.publish.skip (and so are staged and deployed). */
    private static List<String> publishedJars() throws Exception {
        List<String> published = new ArrayList<>();
        for (Map.Entry<String, Path> module : modules.entrySet()) {
            Element project = read(module.getValue().resolve("pom.xml")).getDocumentElement();
            Element packaging = child(project, "packaging");
            Element properties = child(project, "properties");
            Element skip = properties == null ? null : child(properties, "cq.publish.skip");
            boolean jar = packaging == null || packaging.getTextContent().strip().equals("jar");
            if (jar && (skip == null || !skip.getTextContent().strip().equals("true"))) {
                published.add(module.getKey());
            }
        }
        return published;
    }

    /** The element's text with its layout (line breaks, indentation) taken out. */
    private static String words(Element element) {
        return element.getTextContent().strip().replaceAll("\\s+", " ");
    }

    private static Document read(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    private static String text(Element element, String name) {
        Element child = child(element, name);
        assertThat(child).as(name + " of " + element.getTagName()).isNotNull();
        return child.getTextContent().strip();
    }

    /** A direct child element: getElementsByTagName would also find the parent's or a dependency's. */
    private static Element child(Element element, String name) {
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child && child.getTagName().equals(name)) {
                return child;
            }
        }
        return null;
    }
}

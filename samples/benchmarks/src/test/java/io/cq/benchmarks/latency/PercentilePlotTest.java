package io.cq.benchmarks.latency;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;

import static org.assertj.core.api.Assertions.assertThat;

class PercentilePlotTest {
    private static final String SVG_NAMESPACE = "http://www.w3.org/2000/svg";
    private static final Set<String> COORDINATES = Set.of("x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "width",
            "height");

    /** 1,000 values: 1 µs, 2 µs ... 1 ms, so that p99 is 990 µs and the maximum 1 ms. */
    private static Histogram uniform(long stepNanos) {
        Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        for (int i = 1; i <= 1_000; i++) {
            histogram.recordValue(i * stepNanos);
        }
        return histogram;
    }

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> elements(Document document, String name, String cssClass) {
        NodeList nodes = document.getElementsByTagNameNS(SVG_NAMESPACE, name);
        List<Element> found = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            Element element = (Element) nodes.item(i);
            if (cssClass == null || cssClass.equals(element.getAttribute("class"))) {
                found.add(element);
            }
        }
        return found;
    }

    private static double[][] points(Element polyline) {
        return Arrays.stream(polyline.getAttribute("points").split(" "))
                .map(pair -> Arrays.stream(pair.split(",")).mapToDouble(Double::parseDouble).toArray())
                .toArray(double[][]::new);
    }

    /** Every coordinate of every element, as drawn: finite and inside the picture. */
    private static void assertCoordinatesInsideThePicture(Document document) {
        Element svg = document.getDocumentElement();
        double width = Double.parseDouble(svg.getAttribute("width"));
        double height = Double.parseDouble(svg.getAttribute("height"));
        NodeList all = document.getElementsByTagNameNS(SVG_NAMESPACE, "*");
        int checked = 0;
        for (int i = 0; i < all.getLength(); i++) {
            NamedNodeMap attributes = all.item(i).getAttributes();
            for (int a = 0; a < attributes.getLength(); a++) {
                Node attribute = attributes.item(a);
                List<Double> values = new ArrayList<>();
                if (COORDINATES.contains(attribute.getNodeName())) {
                    values.add(Double.parseDouble(attribute.getNodeValue()));
                } else if (attribute.getNodeName().equals("points")) {
                    for (String number : attribute.getNodeValue().split("[ ,]")) {
                        values.add(Double.parseDouble(number));
                    }
                }
                for (double value : values) {
                    assertThat(value).as("%s of <%s>", attribute.getNodeName(), all.item(i).getLocalName())
                            .isFinite().isBetween(0.0, Math.max(width, height));
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(20);
    }

    /** Two series, cq and Chronicle Queue, of 1,000 values each, under a title and a subtitle. */
    private static Document twoSeries() throws Exception {
        return parse(PercentilePlot.render(List.of("Latency by percentile: 40-byte messages at 100K/s, one JVM",
                "2 cores; OpenJDK 25; 2026-11-28"), List.of(new PercentilePlot.Series("cq", uniform(1_000)),
                new PercentilePlot.Series("Chronicle Queue", uniform(3_000)))));
    }

    @Test
    void shouldWriteWellFormedSvgUnderItsTitle() throws Exception {
        Document document = twoSeries();

        assertThat(document.getDocumentElement().getLocalName()).isEqualTo("svg");
        assertThat(document.getDocumentElement().getNamespaceURI()).isEqualTo(SVG_NAMESPACE);
        assertThat(elements(document, "title", null)).singleElement().extracting(Element::getTextContent)
                .isEqualTo("Latency by percentile: 40-byte messages at 100K/s, one JVM");
    }

    @Test
    void shouldDrawOneLabelledCurvePerSeries() throws Exception {
        Document document = twoSeries();

        List<Element> series = elements(document, "g", "series");
        assertThat(series).extracting(element -> element.getAttribute("data-label"))
                .containsExactly("cq", "Chronicle Queue");
        for (Element curve : series) {
            assertThat(curve.getElementsByTagNameNS(SVG_NAMESPACE, "polyline").getLength()).isOne();
            assertThat(curve.getElementsByTagNameNS(SVG_NAMESPACE, "circle").getLength()).isOne();
        }
        assertCoordinatesInsideThePicture(document);
    }

    @Test
    void shouldPutTheFiguresOfEachSeriesInTheLegend() throws Exception {
        assertThat(elements(twoSeries(), "text", "legend")).extracting(Element::getTextContent).containsExactly(
                "cq1,000 values · p50 500 µs · p99 990 µs · p99.9 999 µs · max 1 ms",
                "Chronicle Queue1,000 values · p50 1.5 ms · p99 2.97 ms · p99.9 3 ms · max 3 ms");
    }

    @Test
    void shouldReferToNothingOutsideTheDocument() {
        String svg = PercentilePlot.render(List.of("t"), List.of(new PercentilePlot.Series("cq", uniform(1_000))));

        assertThat(svg).doesNotContain("<script", "href", "url(", "@import", "<image", "<foreignObject", "<style")
                .contains("font-family=\"sans-serif\"");
    }

    @Test
    void shouldDrawEachCurveFromZeroToTheNinesOfItsMaximumRisingWithThePercentile() throws Exception {
        Document document = parse(PercentilePlot.render(List.of("t"),
                List.of(new PercentilePlot.Series("cq", uniform(1_000)))));

        double[][] points = points(elements(document, "polyline", null).getFirst());
        double left = Double.parseDouble(elements(document, "text", "x-tick").getFirst().getAttribute("x"));
        double right = Double.parseDouble(elements(document, "text", "x-tick").getLast().getAttribute("x"));
        // 1,000 values reach their maximum at 99.9%, three nines: the axis ends there.
        assertThat(points[0][0]).isEqualTo(left);
        assertThat(points[points.length - 1][0]).isEqualTo(right);
        for (int i = 1; i < points.length; i++) {
            assertThat(points[i][0]).isGreaterThan(points[i - 1][0]);
            // SVG's y grows downwards: a longer latency is higher up, a smaller y.
            assertThat(points[i][1]).isLessThanOrEqualTo(points[i - 1][1]);
        }
        Element max = elements(document, "circle", null).getFirst();
        assertThat(Double.parseDouble(max.getAttribute("cx"))).isEqualTo(right);
        assertThat(Double.parseDouble(max.getAttribute("cy"))).isEqualTo(points[points.length - 1][1]);
    }

    /** 1,002 values from 150 ns to 40 ms: the maximum lies just past three nines, so the axis reaches four. */
    private static Document wideRange() throws Exception {
        Histogram wide = uniform(1_000);
        wide.recordValue(150);
        wide.recordValue(TimeUnit.MILLISECONDS.toNanos(40));
        return parse(PercentilePlot.render(List.of("t"), List.of(new PercentilePlot.Series("cq", wide))));
    }

    @Test
    void shouldLabelThePercentileAxisInNinesWithTicksInOrder() throws Exception {
        List<Element> xTicks = elements(wideRange(), "text", "x-tick");

        assertThat(xTicks).extracting(Element::getTextContent)
                .containsExactly("0%", "50%", "90%", "99%", "99.9%", "99.99%");
        for (int i = 1; i < xTicks.size(); i++) {
            assertThat(Double.parseDouble(xTicks.get(i).getAttribute("x")))
                    .isGreaterThan(Double.parseDouble(xTicks.get(i - 1).getAttribute("x")));
        }
    }

    @Test
    void shouldLabelTheLatencyAxisInUnitsWithTicksInOrder() throws Exception {
        List<Element> yTicks = elements(wideRange(), "text", "y-tick");

        assertThat(yTicks).extracting(Element::getTextContent)
                .containsExactly("100 ns", "1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms");
        for (int i = 1; i < yTicks.size(); i++) {
            assertThat(Double.parseDouble(yTicks.get(i).getAttribute("y")))
                    .isLessThan(Double.parseDouble(yTicks.get(i - 1).getAttribute("y")));
        }
    }

    @Test
    void shouldAddTwosAndFivesBetweenThePowersOfTenWhenTheLatenciesSpanFewDecades() throws Exception {
        Histogram narrow = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        narrow.recordValue(20);
        narrow.recordValue(100);
        narrow.recordValue(5_000);
        Document document = parse(PercentilePlot.render(List.of("t"),
                List.of(new PercentilePlot.Series("cq", narrow))));

        assertThat(elements(document, "text", "y-tick")).extracting(Element::getTextContent)
                .containsExactly("10 ns", "20 ns", "50 ns", "100 ns", "200 ns", "500 ns", "1 µs", "2 µs", "5 µs",
                        "10 µs");
    }

    /** Two series: "empty", with no value, and "one", with a single value of 5 µs. */
    private static Document emptyAndOneValue() throws Exception {
        Histogram one = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        one.recordValue(5_000);
        return parse(PercentilePlot.render(List.of("t"), List.of(
                new PercentilePlot.Series("empty", new Histogram(TimeUnit.SECONDS.toNanos(60), 3)),
                new PercentilePlot.Series("one", one))));
    }

    @Test
    void shouldListAnEmptyHistogramWithoutDrawingIt() throws Exception {
        Document document = emptyAndOneValue();

        List<Element> series = elements(document, "g", "series");
        assertThat(series.getFirst().getChildNodes().getLength()).isLessThanOrEqualTo(1);
        assertThat(series.getFirst().getElementsByTagNameNS(SVG_NAMESPACE, "polyline").getLength()).isZero();
        assertThat(elements(document, "text", "legend")).extracting(Element::getTextContent)
                .containsExactly("emptyno values", "one1 value · p50 5 µs · p99 5 µs · p99.9 5 µs · max 5 µs");
    }

    @Test
    void shouldDrawASingleValueAsADot() throws Exception {
        Document document = emptyAndOneValue();

        List<Element> series = elements(document, "g", "series");
        assertThat(series.getLast().getElementsByTagNameNS(SVG_NAMESPACE, "circle").getLength()).isOne();
        assertThat(elements(document, "text", "x-tick")).extracting(Element::getTextContent)
                .containsExactly("0%", "50%", "90%", "99%");
        assertCoordinatesInsideThePicture(document);
    }

    @Test
    void shouldDrawNoSeriesAtAllOnDefaultAxes() throws Exception {
        Document document = parse(PercentilePlot.render(List.of(), List.of()));

        assertThat(elements(document, "g", "series")).isEmpty();
        assertThat(elements(document, "text", "y-tick").getFirst().getTextContent()).isEqualTo("1 µs");
        assertThat(elements(document, "text", "y-tick").getLast().getTextContent()).isEqualTo("1 ms");
        assertCoordinatesInsideThePicture(document);
    }

    /** A million zeros, 300 ns and a year, beside a series whose label holds markup characters. */
    private static Document zerosAndAYear() throws Exception {
        Histogram wild = new Histogram(3);
        wild.recordValueWithCount(0, 1_000_000);
        wild.recordValue(300);
        wild.recordValue(TimeUnit.DAYS.toNanos(365));
        return parse(PercentilePlot.render(List.of("t"), List.of(new PercentilePlot.Series("cq", wild),
                new PercentilePlot.Series("<Chronicle & \"friends\">", uniform(1_000)))));
    }

    @Test
    void shouldKeepZerosAndHugeOutliersOnThePictureWithFiniteCoordinates() throws Exception {
        Document document = zerosAndAYear();

        assertCoordinatesInsideThePicture(document);
        assertThat(elements(document, "text", "y-tick").getLast().getTextContent()).isEqualTo("100000000 s");
    }

    @Test
    void shouldKeepASeriesLabelWithMarkupCharactersAsItIs() throws Exception {
        assertThat(elements(zerosAndAYear(), "g", "series").getLast().getAttribute("data-label"))
                .isEqualTo("<Chronicle & \"friends\">");
    }

    @Test
    void shouldWriteDurationsToThreeDigitsInTheLargestUnitThatKeepsThemAboveOne() {
        assertThat(PercentilePlot.durationLabel(0)).isEqualTo("0 ns");
        assertThat(PercentilePlot.durationLabel(999.7)).isEqualTo("1 µs");
        assertThat(PercentilePlot.durationLabel(1_500)).isEqualTo("1.5 µs");
        assertThat(PercentilePlot.durationLabel(296_411)).isEqualTo("296 µs");
        assertThat(PercentilePlot.durationLabel(5_566_500)).isEqualTo("5.57 ms");
        assertThat(PercentilePlot.durationLabel(2.5e9)).isEqualTo("2.5 s");
        assertThat(PercentilePlot.percentileLabel(5)).isEqualTo("99.999%");
    }
}

package io.cq.benchmarks.latency;

import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Latency by percentile as one self-contained SVG document: no script, no style sheet, no font or image it has to
 * fetch, so it renders the same in a browser, in an {@code <img>} and on GitHub (which serves SVG files sanitised).
 *
 * <p>The x axis is the percentile on the scale of "nines", {@code log10(1 / (1 - p))}: 90% is 1, 99% is 2, 99.9% is
 * 3, so that every tail gets as much room as the body. A histogram of {@code n} values reaches its maximum at
 * {@code 1 - 1/n}, that is {@code log10(n)} nines, where each curve ends with a dot. The y axis is the latency on a
 * log scale with ticks in ns, µs, ms and s. Values are the histogram's, in nanoseconds.
 */
public final class PercentilePlot {
    /** One curve: its name in the legend and the latencies (ns) it draws. */
    public record Series(String label, Histogram histogram) {
    }

    static final int WIDTH = 960;
    private static final int PLOT_HEIGHT = 420;
    private static final int LEFT = 80;
    private static final int RIGHT = 45;
    private static final int MARGIN = 16;
    /** Between the title and the plot, and under the legend. */
    private static final int GAP = 10;
    private static final int TITLE_LINE = 20;
    /** Below the plot: the tick labels and the axis title, then the legend. */
    private static final int UNDER_PLOT = 60;
    private static final int LEGEND_LINE = 20;
    /** Distance in nines between the points of a curve: 50 points per factor of ten in the tail. */
    private static final double STEP = 0.02;
    private static final String[] COLOURS = {"#1c5fb8", "#d9480f", "#2b8a3e", "#862e9c"};
    /** Dashes tell the curves apart where colours do not (printed, or to colour-blind readers). */
    private static final String[] DASHES = {"none", "9 4", "2 3", "12 3 2 3"};
    private static final double[] LEGEND_PERCENTILES = {50, 99, 99.9};
    private static final MathContext THREE_DIGITS = new MathContext(3);
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

    private PercentilePlot() {
    }

    /**
     * The SVG document: {@code titleLines} above the plot (the first one as the title), one curve per series and a
     * legend with each series' count, p50, p99, p99.9 and maximum. Empty histograms are listed as such and drawn
     * as nothing; zero latencies sit on the bottom of the axis.
     */
    public static String render(List<String> titleLines, List<Series> series) {
        List<List<double[]>> curves = new ArrayList<>();
        for (Series s : series) {
            curves.add(curve(s.histogram()));
        }
        int ninesShown = ninesShown(series);
        int[] decades = decades(curves);
        int top = MARGIN + TITLE_LINE * titleLines.size() + GAP;
        int plotWidth = WIDTH - LEFT - RIGHT;
        int height = top + PLOT_HEIGHT + UNDER_PLOT + LEGEND_LINE * series.size() + GAP;
        Frame frame = new Frame(LEFT, top, plotWidth, PLOT_HEIGHT, ninesShown, decades[0], decades[1]);

        StringBuilder svg = new StringBuilder(16_384);
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
                .append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
        svg.append("<title>").append(escape(titleLines.isEmpty() ? "latency by percentile" : titleLines.getFirst()))
                .append("</title>\n");
        svg.append("<rect width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" fill=\"#ffffff\"/>\n");
        for (int i = 0; i < titleLines.size(); i++) {
            svg.append("<text x=\"").append(LEFT).append("\" y=\"").append(MARGIN + TITLE_LINE * (i + 1) - 4)
                    .append(i == 0 ? "\" font-size=\"15\" font-weight=\"bold\">" : "\" fill=\"#444444\">")
                    .append(escape(titleLines.get(i))).append("</text>\n");
        }
        xAxis(svg, frame);
        yAxis(svg, frame);
        svg.append("<rect x=\"").append(LEFT).append("\" y=\"").append(top).append("\" width=\"").append(plotWidth)
                .append("\" height=\"").append(PLOT_HEIGHT).append("\" fill=\"none\" stroke=\"#333333\"/>\n");
        for (int i = 0; i < series.size(); i++) {
            curve(svg, frame, series.get(i).label(), curves.get(i), i);
        }
        legend(svg, series, top + PLOT_HEIGHT + UNDER_PLOT);
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** Where the plot area lies in the picture and which nines and decades of nanoseconds it spans. */
    private record Frame(int left, int top, int width, int height, int nines, int lowDecade, int highDecade) {
        double x(double ninesValue) {
            return left + ninesValue / nines * width;
        }

        double y(double nanos) {
            // Zero is a measurable latency (the clock's resolution); it sits on the floor of the axis.
            double decade = Math.log10(Math.max(nanos, Math.pow(10, lowDecade)));
            return top + height - (decade - lowDecade) / (highDecade - lowDecade) * height;
        }
    }

    /** The curve's points as {nines, nanoseconds}, ending at the maximum; none for an empty histogram. */
    static List<double[]> curve(Histogram histogram) {
        List<double[]> points = new ArrayList<>();
        long count = histogram.getTotalCount();
        if (count == 0) {
            return points;
        }
        double end = Math.log10(count);
        for (int i = 0; i * STEP < end; i++) {
            double nines = i * STEP;
            add(points, nines, histogram.getValueAtPercentile(100 * (1 - Math.pow(10, -nines))));
        }
        add(points, end, histogram.getMaxValue());
        return points;
    }

    /** A flat stretch needs only its two ends: a point level with the two before it replaces the last of them. */
    private static void add(List<double[]> points, double nines, double nanos) {
        int size = points.size();
        if (size >= 2 && points.get(size - 1)[1] == nanos && points.get(size - 2)[1] == nanos) {
            points.get(size - 1)[0] = nines;
        } else {
            points.add(new double[] {nines, nanos});
        }
    }

    /** Whole nines on the x axis: to the largest series' maximum, and at least to 99%. */
    private static int ninesShown(List<Series> series) {
        long largest = series.stream().mapToLong(s -> s.histogram().getTotalCount()).max().orElse(0);
        return Math.max(2, (int) Math.ceil(Math.log10(Math.max(largest, 1))));
    }

    /** Powers of ten of nanoseconds at the bottom and top of the y axis; 1 µs to 1 ms when nothing is drawn. */
    private static int[] decades(List<List<double[]>> curves) {
        double low = Double.MAX_VALUE;
        double high = 0;
        for (List<double[]> curve : curves) {
            for (double[] point : curve) {
                low = Math.min(low, Math.max(point[1], 1));
                high = Math.max(high, Math.max(point[1], 1));
            }
        }
        if (high == 0) {
            return new int[] {3, 6};
        }
        int lowDecade = (int) Math.floor(Math.log10(low));
        int highDecade = (int) Math.ceil(Math.log10(high));
        return new int[] {lowDecade, Math.max(highDecade, lowDecade + 1)};
    }

    private static void xAxis(StringBuilder svg, Frame frame) {
        List<double[]> ticks = new ArrayList<>();
        ticks.add(new double[] {0});
        ticks.add(new double[] {Math.log10(2)});
        for (int nines = 1; nines <= frame.nines(); nines++) {
            ticks.add(new double[] {nines});
        }
        for (double[] tick : ticks) {
            double x = frame.x(tick[0]);
            gridLine(svg, x, frame.top(), x, frame.top() + frame.height());
            svg.append("<text class=\"x-tick\" x=\"").append(number(x)).append("\" y=\"")
                    .append(frame.top() + frame.height() + 18).append("\" text-anchor=\"middle\">")
                    .append(percentileLabel(tick[0])).append("</text>\n");
        }
        svg.append("<text x=\"").append(number(frame.left() + frame.width() / 2.0)).append("\" y=\"")
                .append(frame.top() + frame.height() + 40)
                .append("\" text-anchor=\"middle\">percentile (log scale of nines)</text>\n");
    }

    private static void yAxis(StringBuilder svg, Frame frame) {
        // Over few decades, 2 and 5 between the powers of ten keep the axis readable; over many, they would crowd.
        int[] steps = frame.highDecade() - frame.lowDecade() <= 3 ? new int[] {1, 2, 5} : new int[] {1};
        for (int decade = frame.lowDecade(); decade <= frame.highDecade(); decade++) {
            for (int step : steps) {
                if (decade == frame.highDecade() && step > 1) {
                    break;
                }
                double nanos = step * Math.pow(10, decade);
                double y = frame.y(nanos);
                gridLine(svg, frame.left(), y, frame.left() + frame.width(), y);
                svg.append("<text class=\"y-tick\" x=\"").append(frame.left() - 6).append("\" y=\"")
                        .append(number(y + 4)).append("\" text-anchor=\"end\">").append(durationLabel(nanos))
                        .append("</text>\n");
            }
        }
        double middle = frame.top() + frame.height() / 2.0;
        svg.append("<text x=\"18\" y=\"").append(number(middle))
                .append("\" text-anchor=\"middle\" transform=\"rotate(-90 18 ").append(number(middle))
                .append(")\">latency (log scale)</text>\n");
    }

    private static void gridLine(StringBuilder svg, double x1, double y1, double x2, double y2) {
        svg.append("<line x1=\"").append(number(x1)).append("\" y1=\"").append(number(y1)).append("\" x2=\"")
                .append(number(x2)).append("\" y2=\"").append(number(y2)).append("\" stroke=\"#dddddd\"/>\n");
    }

    private static void curve(StringBuilder svg, Frame frame, String label, List<double[]> points, int i) {
        svg.append("<g class=\"series\" data-label=\"").append(escape(label)).append("\" stroke=\"")
                .append(COLOURS[i % COLOURS.length]).append("\" fill=\"none\">\n");
        if (!points.isEmpty()) {
            svg.append("<polyline stroke-width=\"2\" stroke-dasharray=\"").append(DASHES[i % DASHES.length])
                    .append("\" points=\"");
            for (double[] point : points) {
                svg.append(number(frame.x(point[0]))).append(',').append(number(frame.y(point[1]))).append(' ');
            }
            svg.setLength(svg.length() - 1);
            svg.append("\"/>\n");
            double[] max = points.getLast();
            svg.append("<circle cx=\"").append(number(frame.x(max[0]))).append("\" cy=\"")
                    .append(number(frame.y(max[1]))).append("\" r=\"3.5\" fill=\"").append(COLOURS[i % COLOURS.length])
                    .append("\"/>\n");
        }
        svg.append("</g>\n");
    }

    private static void legend(StringBuilder svg, List<Series> series, int top) {
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            int y = top + LEGEND_LINE * i;
            svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(y - 4).append("\" x2=\"")
                    .append(LEFT + 30).append("\" y2=\"").append(y - 4).append("\" stroke=\"")
                    .append(COLOURS[i % COLOURS.length]).append("\" stroke-width=\"2\" stroke-dasharray=\"")
                    .append(DASHES[i % DASHES.length]).append("\"/>\n");
            svg.append("<text class=\"legend\" x=\"").append(LEFT + 38).append("\" y=\"").append(y).append("\">")
                    .append("<tspan font-weight=\"bold\">").append(escape(s.label())).append("</tspan>")
                    .append("<tspan dx=\"10\">").append(escape(figures(s.histogram()))).append("</tspan></text>\n");
        }
    }

    /** The legend's figures of one histogram: count, a few percentiles and the maximum. */
    static String figures(Histogram histogram) {
        if (histogram.getTotalCount() == 0) {
            return "no values";
        }
        long count = histogram.getTotalCount();
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%,d value%s", count, count == 1 ? "" : "s"));
        for (double p : LEGEND_PERCENTILES) {
            text.append(" · p").append(p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p)).append(' ')
                    .append(durationLabel(histogram.getValueAtPercentile(p)));
        }
        return text.append(" · max ").append(durationLabel(histogram.getMaxValue())).toString();
    }

    /** "0%", "50%", "90%", "99%", "99.9%" ... for a tick at that many nines. */
    static String percentileLabel(double nines) {
        if (nines == 0) {
            return "0%";
        }
        if (nines < 1) {
            return "50%";
        }
        int whole = (int) Math.round(nines);
        return whole == 1 ? "90%" : whole == 2 ? "99%" : "99." + "9".repeat(whole - 2) + "%";
    }

    /** Nanoseconds to three significant digits, in the largest unit that keeps them at 1 or more. */
    static String durationLabel(double nanos) {
        String[] units = {"ns", "µs", "ms", "s"};
        // Rounded before the unit is chosen, so that 999.7 ns reads "1 µs" rather than "1000 ns".
        BigDecimal value = new BigDecimal(nanos).round(THREE_DIGITS);
        int unit = 0;
        while (value.compareTo(THOUSAND) >= 0 && unit < units.length - 1) {
            value = value.divide(THOUSAND);
            unit++;
        }
        return value.stripTrailingZeros().toPlainString() + " " + units[unit];
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}

package org.poollab.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.ToDoubleFunction;

import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.SweepResults;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;

/**
 * {@code report.html}: the tables plus four charts per topology. Chartist (from its
 * WebJar) is inlined with its stylesheet so the file opens offline and can be mailed or
 * archived on its own; the page only hands Chartist the data and its options.
 */
final class HtmlReport {

	private static final String CHARTIST = "META-INF/resources/webjars/chartist/%s/dist/%s";

	private static final List<ChartSpec> CHARTS = List.of(
			new ChartSpec("p99", "p99 latency vs pool size", "p99 latency (ms)", Cell::p99Ms, true,
					"Lower is better. Where a line flattens, more connections stop helping: the recommended pool is "
							+ "where the line for the highest sustained rate stops falling."),
			new ChartSpec("throughput", "Achieved throughput vs pool size", "achieved throughput (rps)",
					Cell::achievedRps, false,
					"A line level with its own target rate means the rate was achieved; a line that sags below it "
							+ "means the service fell behind at that pool size."),
			new ChartSpec("acquire", "Connection acquire time (p99) vs pool size", "HikariCP acquire p99 (ms)",
					Cell::acquireP99Ms, true,
					"How long the slowest 1 % of requests waited for a connection (upper bound of the histogram "
							+ "bucket). Near zero: connections were free on arrival; rising: requests queue for "
							+ "the pool."),
			new ChartSpec("pending", "Peak pending requests vs pool size", "peak pending (requests, one instance)",
					(cell) -> cell.peakPending(), false,
					"Most requests seen waiting for a connection at once on any one instance. Zero means the pool "
							+ "never ran dry during the window."));

	private HtmlReport() {
	}

	static String render(SweepResults results, List<Section> sections, Optional<AcquireCost> acquireCost) {
		StringBuilder html = new StringBuilder();
		html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
		html.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
		html.append("<title>HikariCP pool-sizing report</title>\n");
		html.append("<style>\n").append(chartist("chartist.min.css")).append("\n</style>\n");
		html.append("<style>\n").append(resource("report.css")).append("</style>\n");
		html.append("</head>\n<body>\n<main>\n");
		html.append("<header>\n<h1>HikariCP pool-sizing report</h1>\n<p class=\"meta\">")
			.append(escape(Header.describe(results)).replace("`", ""))
			.append("</p>\n</header>\n");

		html.append("<section class=\"verdicts\" aria-label=\"Recommendation\">\n");
		for (Section section : sections) {
			verdictCard(html, section, true);
		}
		html.append("</section>\n");
		html.append("<p class=\"rule\"><strong>How the recommendation is made.</strong> ")
			.append(escape(Recommendation.RULE + MarkdownReport.objective(results)))
			.append("</p>\n");

		html.append("<nav class=\"toc\">Topologies: ");
		for (Section section : sections) {
			html.append("<a href=\"#topology-")
				.append(escape(section.grid().key()))
				.append("\">")
				.append(escape(section.grid().name()))
				.append("</a> ");
		}
		html.append("</nav>\n");

		List<Map<String, Object>> charts = new ArrayList<>();
		for (Section section : sections) {
			html.append("<section class=\"topology\" id=\"topology-")
				.append(escape(section.grid().key()))
				.append("\">\n<h2>")
				.append(escape(section.title()))
				.append("</h2>\n");
			verdictCard(html, section, false);
			table(html, section.crossChecks(), "cross-checks");
			html.append("<div class=\"charts\">\n");
			for (ChartSpec spec : CHARTS) {
				String id = "chart-" + section.grid().key() + "-" + spec.key();
				chartFigure(html, section.grid(), spec, id);
				charts.add(chartData(section.grid(), spec, id));
			}
			html.append("</div>\n");
			html.append("<p class=\"note\">Shaded cells (†) did not sustain their rate; hover them for the reason. "
					+ "The highlighted row is the recommended pool size. Latencies cover successful requests only.")
				.append(section.grid().hasRepeats() ? " " + escape(Section.REPEATS_NOTE) : "")
				.append("</p>\n");
			html.append("<div class=\"paper-tables\">\n");
			table(html, section.maxLatency(), "grid");
			table(html, section.p99Latency(), "grid");
			html.append("</div>\n");
			table(html, section.detail(), "detail");
			if (!section.excluded().rows().isEmpty()) {
				table(html, section.excluded(), "excluded");
			}
			html.append("</section>\n");
		}
		acquireCost.ifPresent((cost) -> cost.html(html, results.preset()));
		PublishedFigures.html(html, results);
		html.append("</main>\n");
		html.append("<script>\n").append(chartist("chartist.min.js")).append("\n</script>\n");
		// "</" would end the script element early if a topology name or outcome carried
		// it
		String json = JsonMapper.builder().build().writeValueAsString(charts).replace("</", "<\\/");
		html.append("<script>\nconst CHARTS = ").append(json).append(";\n").append(resource("report.js"));
		html.append("</script>\n</body>\n</html>\n");
		return html.toString();
	}

	private static void verdictCard(StringBuilder html, Section section, boolean brief) {
		Recommendation recommendation = section.recommendation();
		String kind = recommendation.verdict().conclusive()
				? (recommendation.verdict() == Recommendation.Verdict.CHOSEN ? "chosen" : "flat") : "none";
		html.append("<div class=\"verdict verdict-").append(kind).append("\">\n");
		if (brief) {
			html.append("<div class=\"verdict-topology\"><a href=\"#topology-")
				.append(escape(section.grid().key()))
				.append("\">")
				.append(escape(section.grid().name()))
				.append("</a> · ")
				.append(section.grid().instances())
				.append((section.grid().instances() == 1) ? " instance" : " instances")
				.append("</div>\n");
		}
		html.append("<div class=\"verdict-headline\">");
		if (recommendation.poolSize().isPresent()) {
			html.append("<span class=\"verdict-key\">")
				.append(section.grid().behindPgBouncer() ? "pgbouncer default_pool_size" : "maximum-pool-size")
				.append("</span> <span class=\"verdict-value\">")
				.append(recommendation.poolSize().getAsInt())
				.append("</span>");
			if (recommendation.verdict() == Recommendation.Verdict.FLAT) {
				html.append(" <span class=\"flag\">not a measured knee</span>");
			}
		}
		else {
			html.append("<span class=\"verdict-none\">")
				.append(escape(Header.headline(recommendation)))
				.append("</span>");
		}
		html.append("</div>\n<p>").append(escape(recommendation.summary())).append("</p>\n");
		if (!brief && !recommendation.caveats().isEmpty()) {
			html.append("<ul class=\"caveats\">\n");
			for (String caveat : recommendation.caveats()) {
				html.append("<li>").append(escape(caveat)).append("</li>\n");
			}
			html.append("</ul>\n");
		}
		html.append("</div>\n");
	}

	private static void chartFigure(StringBuilder html, Grid grid, ChartSpec spec, String id) {
		html.append("<figure class=\"chart\" data-chart=\"").append(spec.key()).append("\">\n");
		html.append("<figcaption><h3>").append(escape(spec.title())).append("</h3>\n");
		html.append("<p class=\"how\">").append(escape(spec.howToRead())).append("</p></figcaption>\n");
		html.append("<ul class=\"legend\">");
		int[] rates = grid.ratesRps();
		for (int i = 0; i < rates.length; i++) {
			html.append("<li><span class=\"swatch swatch-")
				.append(seriesLetter(i))
				.append("\"></span>")
				.append(rates[i])
				.append(" rps</li>");
		}
		html.append("<li><span class=\"swatch swatch-hollow\"></span>did not sustain its rate</li></ul>\n");
		html.append("<div class=\"plot\"><div class=\"y-title\">")
			.append(escape(spec.yTitle()))
			.append("<span class=\"scale\"></span></div><div class=\"ct-chart\" id=\"")
			.append(escape(id))
			.append("\"></div></div>\n");
		html.append("<div class=\"x-title\">")
			.append(grid.behindPgBouncer() ? "pgbouncer's pool size" : "maximum-pool-size per instance")
			.append(" (evenly spaced, not to scale)</div>\n");
		html.append("</figure>\n");
	}

	/**
	 * What Chartist gets: one series per rate, one value per pool size (null when
	 * unmeasured).
	 */
	private static Map<String, Object> chartData(Grid grid, ChartSpec spec, String id) {
		List<String> labels = new ArrayList<>();
		for (int poolSize : grid.poolSizes()) {
			labels.add(org.poollab.bench.SweepResults.poolLabel(poolSize));
		}
		List<Map<String, Object>> series = new ArrayList<>();
		for (int rateRps : grid.ratesRps()) {
			List<Object> data = new ArrayList<>();
			List<Boolean> failed = new ArrayList<>();
			for (int poolSize : grid.poolSizes()) {
				Optional<Cell> cell = grid.cell(poolSize, rateRps);
				if (cell.isPresent()) {
					double value = spec.metric().applyAsDouble(cell.get());
					String meta = "pool " + org.poollab.bench.SweepResults.poolLabel(poolSize) + " · " + rateRps
							+ " rps: " + Recommender.ms(value)
							+ (cell.get().sustained() ? "" : " (not sustained: " + cell.get().shortfall() + ")");
					data.add(Map.of("value", value, "meta", meta));
				}
				else {
					data.add(null);
				}
				failed.add(cell.map((measured) -> !measured.sustained()).orElse(false));
			}
			Map<String, Object> one = new LinkedHashMap<>();
			one.put("name", rateRps + " rps");
			one.put("data", data);
			one.put("failed", failed);
			series.add(one);
		}
		Map<String, Object> chart = new LinkedHashMap<>();
		chart.put("id", id);
		chart.put("labels", labels);
		chart.put("series", series);
		chart.put("logScaleAllowed", spec.logScaleAllowed());
		chart.put("integer", "pending".equals(spec.key()));
		return chart;
	}

	static void table(StringBuilder html, Table table, String kind) {
		html.append("<div class=\"table-wrap ")
			.append(kind)
			.append("\">\n<table class=\"")
			.append(kind)
			.append("\">\n<caption>")
			.append(escape(table.caption()))
			.append("</caption>\n<thead><tr>");
		for (int i = 0; i < table.header().size(); i++) {
			html.append((table.numeric(i)) ? "<th class=\"num\">" : "<th>")
				.append(escape(table.header().get(i)))
				.append("</th>");
		}
		html.append("</tr></thead>\n<tbody>\n");
		for (Row row : table.rows()) {
			html.append(row.highlighted() ? "<tr class=\"recommended\">" : "<tr>");
			for (int i = 0; i < row.entries().size(); i++) {
				Entry entry = row.entries().get(i);
				List<String> classes = new ArrayList<>();
				if (table.numeric(i)) {
					classes.add("num");
				}
				if (entry.warning() != null) {
					classes.add("miss");
				}
				html.append("<td");
				if (!classes.isEmpty()) {
					html.append(" class=\"").append(String.join(" ", classes)).append('"');
				}
				if (entry.warning() != null) {
					html.append(" title=\"").append(escape(entry.warning())).append('"');
				}
				html.append('>');
				if (entry.href() != null) {
					html.append("<a href=\"")
						.append(escape(entry.href()))
						.append("\">")
						.append(escape(entry.text()))
						.append("</a>");
				}
				else {
					html.append(escape(entry.text()));
				}
				if (entry.warning() != null) {
					html.append(" †");
				}
				html.append("</td>");
			}
			html.append("</tr>\n");
		}
		html.append("</tbody>\n</table>\n</div>\n");
	}

	/** Chartist names its series classes a, b, c, ... in series order. */
	static char seriesLetter(int index) {
		return (char) ('a' + (index % 15));
	}

	static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

	private static String chartist(String file) {
		Properties webjar = new Properties();
		try (InputStream in = resourceStream("META-INF/maven/org.webjars.npm/chartist/pom.properties")) {
			webjar.load(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return read(CHARTIST.formatted(webjar.getProperty("version"), file));
	}

	private static String resource(String name) {
		return read("org/poollab/bench/report/" + name);
	}

	private static String read(String path) {
		try (InputStream in = resourceStream(path)) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static InputStream resourceStream(String path) {
		InputStream in = HtmlReport.class.getClassLoader().getResourceAsStream(path);
		if (in == null) {
			throw new IllegalStateException("Missing " + path
					+ " on the classpath; the report needs the Chartist WebJar (org.webjars.npm:chartist)");
		}
		return in;
	}

	/**
	 * @param key short name, part of the element id
	 * @param title chart title
	 * @param yTitle y axis title with its unit
	 * @param metric what is plotted
	 * @param logScaleAllowed whether a log scale may be used when values span a wide
	 * range (latencies: saturated points are orders of magnitude above healthy ones)
	 * @param howToRead one line for the reader
	 */
	private record ChartSpec(String key, String title, String yTitle, ToDoubleFunction<Cell> metric,
			boolean logScaleAllowed, String howToRead) {

	}

}

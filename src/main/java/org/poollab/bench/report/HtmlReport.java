package org.poollab.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.util.HtmlUtils;

import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Second;
import org.poollab.bench.results.SweepResults;

/**
 * {@code report.html}: the tables plus four charts per topology. Chartist (from its
 * WebJar) is inlined with its stylesheet so the file opens offline and can be mailed or
 * archived on its own; the page only hands Chartist the data and its options.
 */
final class HtmlReport {

	private static final String CHARTIST = "META-INF/resources/webjars/chartist/%s/dist/%s";

	/**
	 * One colour per rate, distinguishable (Chartist's defaults start with two reds);
	 * past these, hues a golden angle apart, so any number of rates stays apart.
	 */
	private static final List<String> PALETTE = List.of("#0969da", "#e16f24", "#1a7f37", "#8250df", "#bf3989",
			"#6e7781", "#0a8a8a", "#9a6700");

	/** Said in provisional verdicts; kept whole when a line wraps. */
	private static final String REPEATS_OPTION = "-Dbench.repeats=3";

	private static List<ChartSpec> charts(AcquireBuckets buckets) {
		return List.of(
				new ChartSpec("p99", "p99 latency vs pool size", "p99 latency (ms)", Cell::p99Ms,
						(cell) -> Recommender.ms(cell.p99Ms()) + " ms"
								+ cell.p99Interval()
									.map((interval) -> ", 95 % interval" + Tables.interval(interval))
									.orElse(""),
						true,
						"Lower is better; a bar through a point is its 95 % interval. Where a line flattens, more "
								+ "connections stop helping: the recommended pool is where the line for the highest "
								+ "sustained rate stops falling.",
						Cell::p99Interval),
				new ChartSpec("throughput", "Throughput vs pool size", "throughput (successful responses/s)",
						Cell::throughputRps,
						(cell) -> String
							.format(Locale.ROOT, "%.0f ok/s (%.0f rps sent)", cell.throughputRps(), cell.achievedRps()),
						false,
						"Successful responses per second. Level with its own rate: the service delivered it; "
								+ "below: requests failed, were refused (503) or the instance died.",
						HtmlReport::noInterval),
				new ChartSpec("acquire", "Connection acquire time (p99) vs pool size", "HikariCP acquire p99 (ms)",
						Cell::acquireP99Ms, (cell) -> buckets.format(cell) + " ms", true,
						"How long the slowest 1 % of requests waited for a connection: the upper bound of the "
								+ "histogram bucket (" + Recommender.ms(buckets.lowestBucketMs())
								+ " ms is the lowest bucket: a connection was free on arrival); rising: requests "
								+ "queue for the pool.",
						HtmlReport::noInterval),
				new ChartSpec("pending", "Peak pending requests vs pool size", "peak pending (requests, one instance)",
						(cell) -> cell.peakPending(), (cell) -> cell.peakPending() + " pending", false,
						"Most requests seen waiting for a connection at once on any one instance, in samples "
								+ "taken every " + SweepResults.SCRAPE_INTERVAL.toMillis()
								+ " ms: a burst between samples is missed, so 0 means none was "
								+ "seen waiting, not that the pool never ran dry.",
						HtmlReport::noInterval));
	}

	private static Optional<Interval> noInterval(Cell cell) {
		return Optional.empty();
	}

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
			.append(escape(Header.describe(results).replace("`", "")))
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
		List<ChartSpec> specs = charts(AcquireBuckets.ofService());
		PublishedFigures.Placement published = PublishedFigures.place(results.preset(), sections);
		for (Section section : sections) {
			html.append("<section class=\"topology\" id=\"topology-")
				.append(escape(section.grid().key()))
				.append("\">\n<h2>")
				.append(escape(section.title()))
				.append("</h2>\n");
			verdictCard(html, section, false);
			table(html, section.crossChecks(), "cross-checks");
			html.append("<div class=\"charts\">\n");
			for (ChartSpec spec : specs) {
				String id = "chart-" + section.grid().key() + "-" + spec.key();
				chartFigure(html, section.grid(), spec, id);
				charts.add(chartData(section, spec, id));
			}
			html.append("</div>\n");
			timeSeries(html, charts, section);
			html.append("<p class=\"note\">Shaded cells (†) did not sustain their rate; hover them for the reason. "
					+ "Numbered marks refer to the notes under each table. The highlighted row is the recommended "
					+ "pool size. Latencies cover successful requests only.")
				.append(section.grid().hasRepeats() ? " " + escape(Section.REPEATS_NOTE) : "")
				.append("</p>\n");
			html.append("<div class=\"paper-tables\">\n");
			table(html, section.maxLatency(), "grid");
			table(html, section.p99Latency(), "grid");
			html.append("</div>\n");
			published.after(section).forEach((block) -> PublishedFigures.html(html, block));
			section.detail().forEach((table) -> table(html, table, "detail"));
			if (!section.excluded().rows().isEmpty()) {
				table(html, section.excluded(), "excluded");
			}
			html.append("</section>\n");
		}
		acquireCost.ifPresent((cost) -> cost.html(html, results.preset()));
		published.atEnd().forEach((block) -> PublishedFigures.html(html, block));
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
		html.append("<div class=\"verdict verdict-").append(kind).append(brief ? " answer-card" : "").append("\">\n");
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
			if (recommendation.provisional()) {
				html.append(" <span class=\"flag\">provisional: one run per point</span>");
			}
		}
		else {
			html.append("<span class=\"verdict-none\">")
				.append(escape(Header.headline(recommendation)))
				.append("</span>");
		}
		html.append("</div>\n");
		if (brief) {
			html.append("<dl class=\"answer\">\n");
			for (AnswerCard.Line line : AnswerCard.of(section).lines()) {
				html.append("<dt>")
					.append(escape(line.label()))
					.append("</dt><dd>")
					.append(escape(line.text()))
					.append("</dd>\n");
			}
			html.append("</dl>\n");
		}
		else {
			html.append("<p>").append(commands(escape(recommendation.summary()))).append("</p>\n");
		}
		if (!brief && !recommendation.caveats().isEmpty()) {
			html.append("<ul class=\"caveats\">\n");
			for (String caveat : recommendation.caveats()) {
				html.append("<li>").append(escape(caveat)).append("</li>\n");
			}
			html.append("</ul>\n");
		}
		html.append("</div>\n");
	}

	/** One per-second panel: what it shows and how to read each point. */
	private record SecondSpec(String key, String title, String yTitle, Function<Second, Double> value, String unit,
			boolean log) {
	}

	private static final List<SecondSpec> SECOND_SPECS = List.of(
			new SecondSpec("p99", "p99 latency, second by second", "p99 (ms)",
					(second) -> (second.ok() > 0) ? second.p99Ms() : null, "ms", true),
			new SecondSpec("throughput", "Successful responses, second by second", "ok / s",
					(second) -> (double) second.ok(), "ok/s", false),
			new SecondSpec("pending", "Requests waiting for a connection, second by second",
					"peak pending (one instance)",
					(second) -> (second.pendingPeak() >= 0) ? (double) second.pendingPeak() : null, "pending", false));

	/**
	 * The points that decide the answer (the chosen pool and its smaller neighbour at the
	 * deciding rate, every repeat) second by second: p99, throughput and requests waiting
	 * for a connection, the panel JMeter's and Gatling's dashboards lead with.
	 */
	private static void timeSeries(StringBuilder html, List<Map<String, Object>> charts, Section section) {
		List<Cell> decidingCells = section.grid().deciding(section.recommendation());
		if (decidingCells.isEmpty()) {
			return;
		}
		int rate = decidingCells.get(0).rateRps();
		List<Point> deciding = decidingCells.stream()
			.flatMap((cell) -> cell.points().stream())
			.filter((point) -> !point.seconds().isEmpty())
			.sorted(Comparator.comparingInt(Point::poolSize).reversed())
			.toList();
		if (deciding.isEmpty()) {
			return;
		}
		int length = deciding.stream().mapToInt((point) -> point.seconds().size()).max().getAsInt();
		html.append("<h3 class=\"series-title\">The deciding points at ")
			.append(rate)
			.append(" rps, second by second</h3>\n<div class=\"charts series\">\n");
		for (SecondSpec spec : SECOND_SPECS) {
			String id = "series-" + section.grid().key() + "-" + spec.key();
			html.append("<figure class=\"chart\" data-chart=\"series-").append(spec.key()).append("\">\n");
			html.append("<figcaption><h3>").append(escape(spec.title())).append("</h3></figcaption>\n");
			html.append("<ul class=\"legend\">");
			List<Map<String, Object>> series = new ArrayList<>();
			for (int i = 0; i < deciding.size(); i++) {
				Point point = deciding.get(i);
				String name = "pool " + SweepResults.poolLabel(point.poolSize())
						+ ((point.repeat() > 1 || deciding.stream().anyMatch((other) -> other.repeat() > 1))
								? ", repeat " + point.repeat() : "");
				html.append("<li><span class=\"swatch\" style=\"background: ")
					.append(seriesColour(i))
					.append("\"></span>")
					.append(escape(name))
					.append("</li>");
				List<Object> data = new ArrayList<>();
				List<Boolean> failed = new ArrayList<>();
				for (int second = 0; second < length; second++) {
					Double value = (second < point.seconds().size()) ? spec.value().apply(point.seconds().get(second))
							: null;
					data.add((value == null) ? null : Map.of("value", value, "meta",
							name + " · second " + second + ": " + Recommender.ms(value) + " " + spec.unit()));
					failed.add(false);
				}
				Map<String, Object> one = new LinkedHashMap<>();
				one.put("name", name);
				one.put("colour", seriesColour(i));
				one.put("data", data);
				one.put("failed", failed);
				series.add(one);
			}
			html.append("</ul>\n<div class=\"plot\"><div class=\"y-title\">")
				.append(escape(spec.yTitle()))
				.append("<span class=\"scale\"></span></div><div class=\"ct-chart\" id=\"")
				.append(escape(id))
				.append("\"></div></div>\n<div class=\"x-title\">second of the measured window</div>\n</figure>\n");
			Map<String, Object> chart = new LinkedHashMap<>();
			chart.put("id", id);
			List<Integer> xs = IntStream.range(0, length).boxed().toList();
			chart.put("xValues", xs);
			chart.put("labels", xs.stream().map(String::valueOf).toList());
			chart.put("series", series);
			if ("p99".equals(spec.key()) && decidingCells.get(0).p99ObjectiveMs() > 0) {
				chart.put("objective", decidingCells.get(0).p99ObjectiveMs());
			}
			chart.put("logScaleAllowed", spec.log());
			chart.put("integer", !spec.log());
			charts.add(chart);
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
			html.append("<li><span class=\"swatch\" style=\"background: ")
				.append(seriesColour(i))
				.append("\"></span>")
				.append(rates[i])
				.append(" rps</li>");
		}
		html.append("<li><span class=\"swatch swatch-hollow\"></span>did not sustain its rate")
			.append(grid.cells().stream().anyMatch(Cell::died) ? " (incl. instance died)" : "")
			.append("</li></ul>\n");
		html.append("<div class=\"plot\"><div class=\"y-title\">")
			.append(escape(spec.yTitle()))
			.append("<span class=\"scale\"></span></div><div class=\"ct-chart\" id=\"")
			.append(escape(id))
			.append("\"></div></div>\n");
		html.append("<div class=\"x-title\">")
			.append(grid.behindPgBouncer() ? "pgbouncer's pool size" : "maximum-pool-size per instance")
			.append(" (log scale)</div>\n");
		html.append("</figure>\n");
	}

	/**
	 * What Chartist gets: one series per rate, one value per pool size: null when
	 * unmeasured, and when unverified (a figure of an unknown pool size has no place on a
	 * pool-size axis); a dead instance's point is drawn as failed, at the figure of its
	 * window up to the death.
	 */
	private static Map<String, Object> chartData(Section section, ChartSpec spec, String id) {
		Grid grid = section.grid();
		List<String> labels = new ArrayList<>();
		for (int poolSize : grid.poolSizes()) {
			labels.add(SweepResults.poolLabel(poolSize));
		}
		List<Map<String, Object>> series = new ArrayList<>();
		int[] rates = grid.ratesRps();
		for (int i = 0; i < rates.length; i++) {
			int rateRps = rates[i];
			List<Object> data = new ArrayList<>();
			List<Boolean> failed = new ArrayList<>();
			for (int poolSize : grid.poolSizes()) {
				Optional<Cell> cell = grid.cell(poolSize, rateRps).filter(Cell::considered);
				if (cell.isPresent()) {
					double value = spec.metric().applyAsDouble(cell.get());
					String meta = "pool " + SweepResults.poolLabel(poolSize) + " · " + rateRps + " rps: "
							+ spec.label().apply(cell.get())
							+ (cell.get().died()
									? " (instance " + CellText.deathSummary(cell.get())
											+ "; the figure covers the window up to the death)"
									: cell.get().sustained() ? ""
											: " (not sustained: " + CellText.shortfall(cell.get()) + ")");
					Map<String, Object> point = new LinkedHashMap<>(Map.of("value", value, "meta", meta));
					spec.interval().apply(cell.get()).ifPresent((interval) -> {
						// drawn as an error bar through the point
						point.put("low", interval.lowMs());
						point.put("high", interval.highMs());
					});
					data.add(point);
				}
				else {
					data.add(null);
				}
				failed.add(cell.map((measured) -> !measured.sustained()).orElse(false));
			}
			Map<String, Object> one = new LinkedHashMap<>();
			one.put("name", rateRps + " rps");
			one.put("colour", seriesColour(i));
			one.put("data", data);
			one.put("failed", failed);
			series.add(one);
		}
		Map<String, Object> chart = new LinkedHashMap<>();
		chart.put("id", id);
		chart.put("labels", labels);
		// Pool sizes on a log scale (1, 2, 5, 10, 20, 50 evenly spread); no pool at
		// all sits one step left of the smallest.
		chart.put("poolSizes", grid.poolSizes());
		chart.put("series", series);
		section.recommendation().poolSize().ifPresent((chosen) -> chart.put("chosen", chosen));
		if ("p99".equals(spec.key()) && !grid.cells().isEmpty() && grid.cells().get(0).p99ObjectiveMs() > 0) {
			chart.put("objective", grid.cells().get(0).p99ObjectiveMs());
		}
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
				int footnote = table.footnoteNumber(entry);
				if (footnote > 0) {
					html.append("<sup class=\"fn\" title=\"")
						.append(escape(entry.footnote()))
						.append("\">")
						.append(footnote)
						.append("</sup>");
				}
				html.append("</td>");
			}
			html.append("</tr>\n");
		}
		html.append("</tbody>\n</table>\n");
		List<String> footnotes = table.footnotes();
		if (!footnotes.isEmpty() || !table.notes().isEmpty()) {
			html.append("<div class=\"table-notes\">\n");
			for (int i = 0; i < footnotes.size(); i++) {
				html.append("<p class=\"footnote\"><sup>")
					.append(i + 1)
					.append("</sup> ")
					.append(escape(footnotes.get(i)))
					.append("</p>\n");
			}
			for (String note : table.notes()) {
				html.append("<p class=\"column-note\">").append(escape(note)).append("</p>\n");
			}
			html.append("</div>\n");
		}
		html.append("</div>\n");
	}

	/**
	 * The command-line option in a sentence as code, so a line never breaks at its "-".
	 */
	private static String commands(String escaped) {
		return escaped.replace(REPEATS_OPTION, "<code>" + REPEATS_OPTION + "</code>");
	}

	/** The colour of the series at this index, the same in the legend and the chart. */
	static String seriesColour(int index) {
		if (index < PALETTE.size()) {
			return PALETTE.get(index);
		}
		int hue = (int) Math.round((index - PALETTE.size()) * 137.508 + 15) % 360;
		return String.format(Locale.ROOT, "hsl(%d, 70%%, 38%%)", hue);
	}

	static String escape(String text) {
		return HtmlUtils.htmlEscape(text, StandardCharsets.UTF_8.name());
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
	 * @param label the plotted figure as the tooltip says it, with its unit
	 * @param logScaleAllowed whether a log scale may be used when values span a wide
	 * range (latencies: saturated points are orders of magnitude above healthy ones)
	 * @param howToRead one line for the reader
	 */
	private record ChartSpec(String key, String title, String yTitle, ToDoubleFunction<Cell> metric,
			Function<Cell, String> label, boolean logScaleAllowed, String howToRead,
			Function<Cell, Optional<Interval>> interval) {

	}

}

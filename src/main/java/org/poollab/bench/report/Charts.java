package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.deciding.CellText;
import org.poollab.bench.deciding.TopologyGrid;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.QueuePrediction;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.text.Durations;

/**
 * The report's pool-size charts, one per figure (p99, throughput, acquire time, pending)
 * per topology: what each plots, its legend and axes, and the data Chartist draws. Apart
 * from {@link HtmlReport} so the page's layout and the charts' content each read on their
 * own.
 */
final class Charts {

	/**
	 * One colour per rate, distinguishable (Chartist's defaults start with two reds);
	 * past these, hues a golden angle apart, so any number of rates stays apart.
	 */
	private static final List<String> PALETTE = List.of("#0969da", "#e16f24", "#1a7f37", "#8250df", "#bf3989",
			"#6e7781", "#0a8a8a", "#9a6700");

	private Charts() {
	}

	static List<ChartSpec> specs(AcquireBuckets buckets) {
		return List.of(
				new ChartSpec("p99", "p99 latency vs pool size", "p99 latency (ms)", (cell) -> cell.latency().p99Ms(),
						(cell) -> Durations.ms(cell.latency().p99Ms()) + " ms"
								+ cell.latency()
									.p99Interval()
									.map((interval) -> ", 95 % interval" + CellText.interval(interval))
									.orElse(""),
						true,
						"Lower is better; a bar through a point is its 95 % interval. Where a line flattens, more "
								+ "connections stop helping: the recommended pool is where the line for the highest "
								+ "sustained rate stops falling.",
						(cell) -> cell.latency().p99Interval()),
				new ChartSpec("throughput", "Throughput vs pool size", "throughput (successful responses/s)",
						(cell) -> cell.requests().throughputRps(),
						(cell) -> String.format(Locale.ROOT, "%.0f ok/s (%.0f rps sent)",
								cell.requests().throughputRps(), cell.requests().achievedRps()),
						false,
						"Successful responses per second. Level with its own rate: the service delivered it; "
								+ "below: requests failed, were refused (503) or the instance died.",
						Charts::noInterval),
				new ChartSpec("acquire", "Connection acquire time (p99) vs pool size", "HikariCP acquire p99 (ms)",
						(cell) -> cell.pool().acquireP99Ms(), (cell) -> buckets.format(cell) + " ms", true,
						"How long the slowest 1 % of requests waited for a connection: the upper bound of the "
								+ "histogram bucket (" + Durations.ms(buckets.lowestBucketMs())
								+ " ms is the lowest bucket: a connection was free on arrival); rising: requests "
								+ "queue for the pool.",
						Charts::noInterval),
				new ChartSpec("pending", "Peak pending requests vs pool size", "peak pending (requests, one instance)",
						(cell) -> cell.pool().peakPending(), (cell) -> cell.pool().peakPending() + " pending", false,
						"Most requests seen waiting for a connection at once on any one instance, in samples "
								+ "taken every " + SweepResults.SCRAPE_INTERVAL.toMillis()
								+ " ms: a burst between samples is missed, so 0 means none was "
								+ "seen waiting, not that the pool never ran dry.",
						Charts::noInterval));
	}

	private static Optional<Interval> noInterval(Cell cell) {
		return Optional.empty();
	}

	static void chartFigure(StringBuilder html, TopologyGrid grid, ChartSpec spec, String id) {
		html.append("<figure class=\"chart\" data-chart=\"").append(spec.key()).append("\">\n");
		html.append("<figcaption><h3>").append(HtmlReport.escape(spec.title())).append("</h3>\n");
		html.append("<p class=\"how\">").append(HtmlReport.escape(spec.howToRead())).append("</p></figcaption>\n");
		html.append("<ul class=\"legend\">");
		int[] rates = grid.ratesRps();
		for (int i = 0; i < rates.length; i++) {
			html.append("<li><span class=\"swatch\" style=\"background: ")
				.append(seriesColour(i))
				.append("\"></span>")
				.append(rates[i])
				.append(" rps</li>");
		}
		if ("p99".equals(spec.key()) && grid.cells().stream().anyMatch((cell) -> cell.model().isPresent())) {
			html.append("<li><span class=\"swatch swatch-dashed\"></span>queueing model, from the measured hold</li>");
		}
		html.append("<li><span class=\"swatch swatch-hollow\"></span>did not sustain its rate")
			.append(grid.cells().stream().anyMatch(Cell::died) ? " (incl. instance died)" : "")
			.append("</li></ul>\n");
		html.append("<div class=\"plot\"><div class=\"y-title\">")
			.append(HtmlReport.escape(spec.yTitle()))
			.append("<span class=\"scale\"></span></div><div class=\"ct-chart\" id=\"")
			.append(HtmlReport.escape(id))
			.append("\"></div></div>\n");
		html.append("<div class=\"x-title\">")
			.append(grid.behindPgBouncer() ? "pgbouncer's pool size"
					: grid.limits().stack().poolSizeKey() + " per instance")
			.append(" (log scale)</div>\n");
		html.append("</figure>\n");
	}

	/**
	 * What Chartist gets: one series per rate, one value per pool size: null when
	 * unmeasured, and when unverified (a figure of an unknown pool size has no place on a
	 * pool-size axis); a dead instance's point is drawn as failed, at the figure of its
	 * window up to the death.
	 */
	static Map<String, Object> chartData(Section section, ChartSpec spec, String id) {
		TopologyGrid grid = section.grid();
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
				data.add(cell.map((measured) -> point(measured, spec)).orElse(null));
				failed.add(cell.map((measured) -> !measured.sustained()).orElse(false));
			}
			series.add(series(rateRps + " rps", seriesColour(i), data, failed));
		}
		if ("p99".equals(spec.key())) {
			series.addAll(modelSeries(grid));
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

	/**
	 * A measured point: its figure, the tooltip saying it, and its 95 % interval when the
	 * spec draws one.
	 */
	private static Map<String, Object> point(Cell cell, ChartSpec spec) {
		double value = spec.metric().applyAsDouble(cell);
		String meta = "pool " + SweepResults.poolLabel(cell.poolSize()) + " · " + cell.rateRps() + " rps: "
				+ spec.label().apply(cell)
				+ (cell.died()
						? " (instance " + CellText.deathSummary(cell)
								+ "; the figure covers the window up to the death)"
						: cell.sustained() ? "" : " (not sustained: " + CellText.shortfall(cell) + ")");
		Map<String, Object> point = datum(value, meta);
		spec.interval().apply(cell).ifPresent((interval) -> {
			// drawn as an error bar through the point
			point.put("low", interval.lowMs());
			point.put("high", interval.highMs());
		});
		return point;
	}

	/**
	 * One line as Chartist gets it: {@code data} holds a value (or null) per point on the
	 * axis, {@code failed} whether each is drawn hollow.
	 */
	static Map<String, Object> series(String name, String colour, List<Object> data, List<Boolean> failed) {
		Map<String, Object> one = new LinkedHashMap<>();
		one.put("name", name);
		one.put("colour", colour);
		one.put("data", data);
		one.put("failed", failed);
		return one;
	}

	/**
	 * The queueing model's p99 beside the measured one, a dashed line per rate in the
	 * rate's colour: null where it has no prediction or no steady state (utilisation at
	 * or above 1), so the line stops where the model says the queue grows without bound.
	 */
	private static List<Map<String, Object>> modelSeries(TopologyGrid grid) {
		List<Map<String, Object>> series = new ArrayList<>();
		int[] rates = grid.ratesRps();
		for (int i = 0; i < rates.length; i++) {
			int rateRps = rates[i];
			List<Object> data = new ArrayList<>();
			List<Boolean> failed = new ArrayList<>();
			boolean any = false;
			for (int poolSize : grid.poolSizes()) {
				Optional<QueuePrediction> model = grid.cell(poolSize, rateRps)
					.filter(Cell::considered)
					.flatMap(Cell::model)
					.filter(QueuePrediction::stable);
				any |= model.isPresent();
				data.add(model
					.map((m) -> (Object) datum(m.stableP99Ms(),
							"pool " + SweepResults.poolLabel(poolSize) + " · " + rateRps + " rps: the model predicts "
									+ Durations.ms(m.stableP99Ms()) + " ms (utilisation "
									+ String.format(Locale.ROOT, "%.2f", m.utilisation()) + ")"))
					.orElse(null));
				failed.add(false);
			}
			if (any) {
				Map<String, Object> one = series(rateRps + " rps, model", seriesColour(i), data, failed);
				one.put("model", true);
				series.add(one);
			}
		}
		return series;
	}

	/** The colour of the series at this index, the same in the legend and the chart. */
	static String seriesColour(int index) {
		if (index < PALETTE.size()) {
			return PALETTE.get(index);
		}
		int hue = (int) Math.round((index - PALETTE.size()) * 137.508 + 15) % 360;
		return String.format(Locale.ROOT, "hsl(%d, 70%%, 38%%)", hue);
	}

	/**
	 * The specs with the p50 first: where requests cost the database CPU, the median
	 * shows the far side of the knee before the tail does.
	 */
	static List<ChartSpec> withP50(List<ChartSpec> specs) {
		List<ChartSpec> all = new java.util.ArrayList<>();
		all.add(new ChartSpec("p50", "p50 latency vs pool size", "p50 latency (ms)", (cell) -> cell.latency().p50Ms(),
				(cell) -> Durations.ms(cell.latency().p50Ms()) + " ms", true,
				"Lower is better. Past the database's cores, more connections only share its CPU: the median "
						+ "rises with the pool where contention is real.",
				Charts::noInterval));
		all.addAll(specs);
		return List.copyOf(all);
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
	 * @param interval the 95 % interval drawn through a point, when there is one
	 */
	record ChartSpec(String key, String title, String yTitle, ToDoubleFunction<Cell> metric,
			Function<Cell, String> label, boolean logScaleAllowed, String howToRead,
			Function<Cell, Optional<Interval>> interval) {

	}

	/**
	 * A chart point: its value, then its tooltip, in that order every time (Map.of's
	 * order changes from one JVM to the next, and with it the report's bytes).
	 */
	static Map<String, Object> datum(double value, String meta) {
		Map<String, Object> datum = new LinkedHashMap<>();
		datum.put("value", value);
		datum.put("meta", meta);
		return datum;
	}

}

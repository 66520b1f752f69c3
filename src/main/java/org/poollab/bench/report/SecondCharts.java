package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Second;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.text.Durations;

/**
 * The deciding points second by second under the pool-size charts: p99, throughput and
 * requests waiting for a connection. Apart from {@link Charts}, whose axis is the pool
 * size, because these share the window's seconds as their axis and their own specs.
 */
final class SecondCharts {

	private SecondCharts() {
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
	static void timeSeries(StringBuilder html, List<Map<String, Object>> charts, Section section) {
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
			html.append("<figcaption><h3>").append(HtmlReport.escape(spec.title())).append("</h3></figcaption>\n");
			html.append("<ul class=\"legend\">");
			List<Map<String, Object>> series = new ArrayList<>();
			for (int i = 0; i < deciding.size(); i++) {
				Point point = deciding.get(i);
				String name = "pool " + SweepResults.poolLabel(point.poolSize())
						+ ((point.repeat() > 1 || deciding.stream().anyMatch((other) -> other.repeat() > 1))
								? ", repeat " + point.repeat() : "");
				html.append("<li><span class=\"swatch\" style=\"background: ")
					.append(Charts.seriesColour(i))
					.append("\"></span>")
					.append(HtmlReport.escape(name))
					.append("</li>");
				series.add(Charts.series(name, Charts.seriesColour(i), values(point, name, spec, length),
						new ArrayList<>(Collections.nCopies(length, false))));
			}
			html.append("</ul>\n<div class=\"plot\"><div class=\"y-title\">")
				.append(HtmlReport.escape(spec.yTitle()))
				.append("<span class=\"scale\"></span></div><div class=\"ct-chart\" id=\"")
				.append(HtmlReport.escape(id))
				.append("\"></div></div>\n<div class=\"x-title\">second of the measured window</div>\n</figure>\n");
			charts.add(chart(id, length, series, spec, decidingCells.get(0).p99ObjectiveMs()));
		}
		html.append("</div>\n");
	}

	/**
	 * A point's figure at every second of the axis, with its tooltip: null past the end
	 * of its window, and where the spec has no figure for that second.
	 */
	private static List<Object> values(Point point, String name, SecondSpec spec, int length) {
		List<Object> data = new ArrayList<>();
		for (int second = 0; second < length; second++) {
			Double value = (second < point.seconds().size()) ? spec.value().apply(point.seconds().get(second)) : null;
			data.add((value == null) ? null : Charts.datum(value,
					name + " · second " + second + ": " + Durations.ms(value) + " " + spec.unit()));
		}
		return data;
	}

	/** What Chartist gets for one panel: the seconds as its axis, a series per point. */
	private static Map<String, Object> chart(String id, int length, List<Map<String, Object>> series, SecondSpec spec,
			double p99ObjectiveMs) {
		Map<String, Object> chart = new LinkedHashMap<>();
		chart.put("id", id);
		List<Integer> xs = IntStream.range(0, length).boxed().toList();
		chart.put("xValues", xs);
		chart.put("labels", xs.stream().map(String::valueOf).toList());
		chart.put("series", series);
		if ("p99".equals(spec.key()) && p99ObjectiveMs > 0) {
			chart.put("objective", p99ObjectiveMs);
		}
		chart.put("logScaleAllowed", spec.log());
		chart.put("integer", !spec.log());
		return chart;
	}

}

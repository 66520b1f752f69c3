package org.poollab.bench.grid;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * One Prometheus text exposition's series that {@link HoldTimeFrom} reads: HikariCP's
 * usage by pool, requests served by {@code uri}, and the process's age.
 */
final class Scrape {

	private static final String SERIES = HoldTimeFrom.SERIES;

	private static final String REQUESTS = HoldTimeFrom.REQUESTS;

	// Label values are quoted and may hold braces: a templated uri such as
	// uri="/orders/{id}" is what Spring MVC reports for every path variable.
	private static final Pattern SAMPLE = Pattern.compile("^(" + SERIES + "(?:_bucket|_sum|_count)?|" + REQUESTS
			+ "|process_uptime_seconds|process_start_time_seconds)(\\{(?:[^}\"]|\"(?:[^\"\\\\]|\\\\.)*\")*\\})?\\s+(\\S+)(?:\\s+\\S+)?\\s*$",
			Pattern.MULTILINE);

	private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

	static final Scrape EMPTY = new Scrape();

	final Map<String, PoolSeries> pools = new LinkedHashMap<>();

	final Map<String, Double> requestsByUri = new TreeMap<>();

	@Nullable Double uptimeSeconds;

	@Nullable Double startEpochSeconds;

	static Scrape of(String exposition) {
		Scrape scrape = new Scrape();
		Matcher sample = SAMPLE.matcher(exposition);
		while (sample.find()) {
			Map<String, String> labels = labels(sample.group(2));
			double value;
			try {
				value = Double.parseDouble(sample.group(3));
			}
			catch (NumberFormatException ex) {
				continue;
			}
			String name = sample.group(1);
			switch (name) {
				case REQUESTS -> scrape.requestsByUri.merge(labels.getOrDefault("uri", ""), value, Double::sum);
				case "process_uptime_seconds" -> scrape.uptimeSeconds = value;
				case "process_start_time_seconds" -> scrape.startEpochSeconds = value;
				default -> scrape.add(name.substring(SERIES.length()), labels, value);
			}
		}
		return scrape;
	}

	private void add(String suffix, Map<String, String> labels, double value) {
		PoolSeries series = this.pools.computeIfAbsent(labels.getOrDefault("pool", ""), (name) -> new PoolSeries());
		switch (suffix) {
			case "_sum" -> series.sumSeconds += value;
			case "_count" -> series.count += value;
			case "_bucket" -> {
				String le = labels.get("le");
				if (le != null) {
					try {
						series.buckets.merge(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le),
								value, Double::sum);
					}
					catch (NumberFormatException ex) {
						// not a bucket bound: skipped, as any unreadable sample
					}
				}
			}
			default -> {
				if ("0.99".equals(labels.get("quantile"))) {
					series.summaryP99Seconds = value;
				}
			}
		}
	}

	/** One pool's series, summed over any other labels. */
	static final class PoolSeries {

		static final PoolSeries NONE = new PoolSeries();

		final TreeMap<Double, Double> buckets = new TreeMap<>();

		double sumSeconds;

		double count;

		@Nullable Double summaryP99Seconds;

		/**
		 * What was added since {@code before}. A summary's quantile is already over a
		 * recent window of its own; the later one is kept.
		 */
		PoolSeries minus(PoolSeries before) {
			PoolSeries window = new PoolSeries();
			window.sumSeconds = this.sumSeconds - before.sumSeconds;
			window.count = this.count - before.count;
			window.summaryP99Seconds = this.summaryP99Seconds;
			this.buckets.forEach((le, count) -> window.buckets.put(le, count - before.buckets.getOrDefault(le, 0.0)));
			return window;
		}

	}

	private static Map<String, String> labels(@Nullable String text) {
		Map<String, String> labels = new LinkedHashMap<>();
		if (text != null) {
			Matcher label = LABEL.matcher(text);
			while (label.find()) {
				labels.put(label.group(1), label.group(2));
			}
		}
		return labels;
	}

}

package org.poollab.bench.grid;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.model.HistogramQuantile;
import org.poollab.service.hold.HoldTime;

/**
 * A team's connection hold read off their own service's metrics
 * ({@code bench.holdTimeFrom}): a Prometheus text exposition, what Spring Boot's
 * {@code /actuator/prometheus} serves, from a file or an http(s) URL. It takes HikariCP's
 * {@code hikaricp_connections_usage_seconds}: the mean from {@code _sum} /
 * {@code _count}, the p99 from the histogram's buckets (interpolated within the bucket,
 * as Prometheus's {@code histogram_quantile}) or a {@code quantile="0.99"} summary line;
 * with neither, the mean alone (a constant hold). With several pools, the one that lent
 * the most connections. HikariCP counts whole milliseconds, so a mean of a few
 * milliseconds reads up to one low.
 */
public final class HoldTimeFrom {

	/** The series read, as Spring Boot's Micrometer names it. */
	public static final String SERIES = "hikaricp_connections_usage_seconds";

	/** What {@code bench.holdTimeFrom} accepts, for messages and the options page. */
	public static final String ALLOWED = "a file or an http(s) URL of a Prometheus text exposition with " + SERIES
			+ ", e.g. http://127.0.0.1:8081/actuator/prometheus";

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final Pattern SAMPLE = Pattern
		.compile("^" + SERIES + "(_bucket|_sum|_count)?(\\{[^}]*\\})?\\s+(\\S+)(?:\\s+\\S+)?\\s*$", Pattern.MULTILINE);

	private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

	private HoldTimeFrom() {
	}

	/**
	 * What was read.
	 *
	 * @param hold the mean and, when the exposition has one, the p99
	 * @param description what was read from where, in words, for the console and report
	 */
	public record Read(HoldTime hold, String description) {
	}

	/**
	 * Reads the exposition at {@code source}.
	 * @throws BenchSettingException when it does not answer or has no usable series
	 */
	public static Read read(String source) {
		return parse(source, fetch(source));
	}

	static Read parse(String source, String exposition) {
		Map<String, PoolSeries> pools = new LinkedHashMap<>();
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
			String pool = labels.getOrDefault("pool", "");
			PoolSeries series = pools.computeIfAbsent(pool, (name) -> new PoolSeries());
			String suffix = (sample.group(1) != null) ? sample.group(1) : "";
			switch (suffix) {
				case "_sum" -> series.sumSeconds += value;
				case "_count" -> series.count += value;
				case "_bucket" -> {
					String le = labels.get("le");
					if (le != null) {
						series.buckets.merge(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le),
								value, Double::sum);
					}
				}
				default -> {
					if ("0.99".equals(labels.get("quantile"))) {
						series.summaryP99Seconds = value;
					}
				}
			}
		}
		Map.Entry<String, PoolSeries> chosen = pools.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().count > 0)
			.max(Comparator.comparingDouble((Map.Entry<String, PoolSeries> entry) -> entry.getValue().count))
			.orElseThrow(() -> refused(source, "it has no " + SERIES
					+ " with a count above 0 (HikariCP's connection usage: is the service's pool used, and its metrics exposed?)"));
		PoolSeries series = chosen.getValue();
		double meanMs = 1000 * series.sumSeconds / series.count;
		Double p99Ms = series.p99Ms(meanMs);
		HoldTime hold;
		try {
			hold = new HoldTime(meanMs, p99Ms);
		}
		catch (IllegalArgumentException ex) {
			throw refused(source, "its mean hold %s ms%s is not one the lab can emulate: %s".formatted(ms(meanMs),
					(p99Ms != null) ? " and p99 " + ms(p99Ms) + " ms" : "", ex.getMessage()));
		}
		String pool = chosen.getKey().isEmpty() ? "" : " of pool \"" + chosen.getKey() + "\"";
		String others = (pools.size() > 1) ? " (the busiest of %d pools)".formatted(pools.size()) : "";
		String p99 = (p99Ms != null)
				? ", p99 %s ms (%s)".formatted(ms(p99Ms),
						series.buckets.isEmpty() ? "summary quantile 0.99" : "histogram buckets, interpolated")
				: ", no p99 exposed (no histogram or 0.99 quantile): a constant hold at the mean";
		return new Read(hold, "%s%s%s from %s: %.0f uses, mean %s ms%s".formatted(SERIES, pool, others, source,
				series.count, ms(meanMs), p99));
	}

	private static String fetch(String source) {
		String lower = source.toLowerCase(Locale.ROOT);
		try {
			if (lower.startsWith("http://") || lower.startsWith("https://")) {
				HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
				HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(source))
					.timeout(TIMEOUT)
					.header("Accept", "text/plain;version=0.0.4")
					.GET()
					.build(), HttpResponse.BodyHandlers.ofString());
				if (response.statusCode() != 200) {
					throw refused(source, "it answered HTTP " + response.statusCode());
				}
				return response.body();
			}
			Path file = Path.of(source.startsWith("file:") ? URI.create(source).getPath() : source);
			if (!Files.isRegularFile(file)) {
				throw refused(source, "no such file");
			}
			return Files.readString(file);
		}
		catch (IOException | IllegalArgumentException ex) {
			throw refused(source, "it could not be read (" + ex.getClass().getSimpleName()
					+ ((ex.getMessage() != null) ? ": " + ex.getMessage() : "") + ")");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw refused(source, "reading it was interrupted");
		}
	}

	private static BenchSettingException refused(String source, String why) {
		return new BenchSettingException("bench.holdTimeFrom=%s is not allowed: %s. Use %s. Nothing was started."
			.formatted(source, why, ALLOWED));
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

	private static String ms(double value) {
		return String.format(Locale.ROOT, "%.3g", value);
	}

	/** One pool's series, summed over any other labels. */
	private static final class PoolSeries {

		private final TreeMap<Double, Double> buckets = new TreeMap<>();

		private double sumSeconds;

		private double count;

		private @Nullable Double summaryP99Seconds;

		/**
		 * The p99 from the buckets or the summary; null when neither is there. Never
		 * below the mean, which a coarse bucket or a decayed summary could otherwise
		 * give.
		 */
		@Nullable Double p99Ms(double meanMs) {
			Double p99 = null;
			if (!this.buckets.isEmpty()) {
				p99 = HistogramQuantile.interpolatedMs(this.buckets, this.buckets.lastEntry().getValue(), 0.99);
			}
			else if (this.summaryP99Seconds != null && !this.summaryP99Seconds.isNaN()) {
				p99 = 1000 * this.summaryP99Seconds;
			}
			return (p99 != null) ? Math.max(p99, meanMs) : null;
		}

	}

}

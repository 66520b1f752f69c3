package org.poollab.bench.grid;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.DoubleStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.text.Durations;
import org.poollab.service.hold.HoldHistogram;
import org.poollab.service.hold.HoldPlace;
import org.poollab.service.hold.HoldProperties;
import org.poollab.service.hold.HoldTime;

/**
 * A team's connection hold read off their own service's metrics
 * ({@code bench.holdTimeFrom}): a Prometheus text exposition, what Spring Boot's
 * {@code /actuator/prometheus} serves, from a file or an http(s) URL. It takes HikariCP's
 * {@code hikaricp_connections_usage_seconds} and Spring MVC's
 * {@code http_server_requests_seconds_count}.
 * <p>
 * <b>Over a window.</b> From a URL it scrapes twice, {@code bench.holdTimeFromWindow}
 * apart, and reads what happened between them: totals since start carry the service's
 * start-up (schema set-up, warm-up, cold caches), often several times the steady hold.
 * Two files ({@code before.txt,after.txt}) are two such scrapes. One file, or a window of
 * {@code lifetime}, is one scrape: totals since start, said so, with how long ago the
 * service started ({@code process_uptime_seconds} or {@code process_start_time_seconds}).
 * <p>
 * <b>The hold.</b> With the histogram's buckets
 * ({@code percentiles-histogram.hikaricp.connections.usage=true}), each hold is drawn
 * from them ({@link HoldHistogram}): no shape is refused. Without them, the mean from
 * {@code _sum / _count} and the p99 of a {@code quantile="0.99"} line (a lognormal, or
 * the mixture beyond one, {@link HoldTime}); with neither, the mean alone. With several
 * pools, the one that lent the most connections in the window. HikariCP counts whole
 * milliseconds, so a mean of a few milliseconds reads up to one low.
 * <p>
 * <b>Uses per request.</b> Connection uses over requests served in the window: all of
 * them but the actuator's ({@code /actuator/**}, which scrapes like this one are), or
 * those of the {@code uri} {@code bench.holdTimeFromUri} names. Without a request
 * counter, one use per request, said so; asked for a {@code uri}, it is refused. From a
 * Prometheus server ({@link PrometheusApi}), the same series' increase over a range.
 */
public final class HoldTimeFrom {

	/** The series read, as Spring Boot's Micrometer names it. */
	public static final String SERIES = "hikaricp_connections_usage_seconds";

	/** Spring MVC's and WebFlux's requests served, as Micrometer names them. */
	public static final String REQUESTS = "http_server_requests_seconds_count";

	/** What {@code bench.holdTimeFrom} accepts, for messages and the options page. */
	public static final String ALLOWED = "an http(s) URL of a Prometheus text exposition with " + SERIES
			+ ", e.g. http://127.0.0.1:8081/actuator/prometheus, a file saved from one, two files saved a while apart (before.txt,after.txt), or a Prometheus server and a range, e.g. prometheus:http://127.0.0.1:9090?range=10m&job=orders";

	/** What {@code bench.holdTimeFromWindow} accepts. */
	public static final String WINDOW_ALLOWED = "a duration from 1s to 1h between two scrapes, e.g. 60s, or lifetime (one scrape: totals since the service started)";

	/** The window when none is given: a minute of the team's traffic. */
	public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(60);

	/** One scrape, totals since start. */
	public static final String LIFETIME = "lifetime";

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private HoldTimeFrom() {
	}

	/**
	 * What was read.
	 *
	 * @param hold the mean and, when the exposition has one, the p99
	 * @param histogram the window's histogram each hold is drawn from; {@code null}
	 * without buckets
	 * @param usesPerRequest connection uses per request, 1 without a request counter
	 * @param description what was read from where and what will be emulated, in a few
	 * lines, for the console and the report
	 */
	public record Read(HoldTime hold, @Nullable HoldHistogram histogram, double usesPerRequest, String description) {

		/** The hold every instance emulates, {@code place} where it spends its time. */
		public EmulatedHold emulated(HoldPlace place, String source) {
			EmulatedHold emulated = (this.histogram != null)
					? EmulatedHold.of(this.histogram, this.usesPerRequest, place, source)
					: EmulatedHold.of(this.hold, place, source);
			return emulated.withUses(this.usesPerRequest);
		}

	}

	/** Whether {@code source} names a Prometheus server, read over its own range. */
	public static boolean fromPrometheusServer(String source) {
		return PrometheusApi.names(source.trim());
	}

	/** A window when {@code bench.holdTimeFromWindow} is unset, any uri. */
	public static Read read(String source) {
		return read(source, DEFAULT_WINDOW, null, (line) -> {
		});
	}

	/**
	 * Reads the exposition at {@code source} over {@code window}.
	 * @param window between two scrapes of a URL; {@code null}: one scrape (lifetime)
	 * @param uri the requests' {@code uri} label to count uses per request by;
	 * {@code null}: every request but the actuator's
	 * @param progress told before a wait, so that a minute's quiet is explained
	 * @throws BenchSettingException when it does not answer or has no usable series
	 */
	public static Read read(String source, @Nullable Duration window, @Nullable String uri, Consumer<String> progress) {
		if (PrometheusApi.names(source.trim())) {
			PrometheusApi.Read api;
			try {
				api = PrometheusApi.read(source.trim());
			}
			catch (IllegalArgumentException ex) {
				throw refused(source, String.valueOf(ex.getMessage()));
			}
			return read(source, api.before(), api.after(), api.window(), uri);
		}
		List<String> sources = Arrays.stream(source.split(",")).map(String::trim).filter((s) -> !s.isEmpty()).toList();
		if (sources.size() == 2) {
			Scrape before = Scrape.of(fetch(source, sources.get(0)));
			Scrape after = Scrape.of(fetch(source, sources.get(1)));
			Double apart = (before.uptimeSeconds != null && after.uptimeSeconds != null)
					? after.uptimeSeconds - before.uptimeSeconds : null;
			return read(source, before, after,
					(apart != null) ? "%s between two scrapes (process_uptime_seconds)".formatted(seconds(apart))
							: "between two scrapes (how far apart, they do not say)",
					uri);
		}
		if (sources.size() != 1) {
			throw refused(source, "give one source, or two files saved a while apart");
		}
		boolean url = isUrl(source);
		if (!url || window == null) {
			Scrape once = Scrape.of(fetch(source, source));
			return read(source, null, once, url ? "lifetime: one scrape, bench.holdTimeFromWindow=lifetime"
					: "lifetime: a file is one scrape (two files saved a while apart give a window)", uri);
		}
		Scrape before = Scrape.of(fetch(source, source));
		progress.accept(
				"Reading the hold from %s over a window: a second scrape in %s (bench.holdTimeFromWindow); keep the service under its usual load meanwhile."
					.formatted(source, Durations.human(window)));
		try {
			Thread.sleep(window.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw refused(source, "the wait between its two scrapes was interrupted");
		}
		Scrape after = Scrape.of(fetch(source, source));
		return read(source, before, after, "%s between two scrapes".formatted(Durations.human(window)), uri);
	}

	/** Reads one exposition: totals since start. */
	static Read parse(String source, String exposition) {
		return read(source, null, Scrape.of(exposition), "lifetime: one scrape", null);
	}

	/** Reads two expositions of one service, {@code before} then {@code after}. */
	static Read parse(String source, String before, String after, @Nullable String uri) {
		return read(source, Scrape.of(before), Scrape.of(after), "between two scrapes", uri);
	}

	private static Read read(String source, @Nullable Scrape before, Scrape after, String window,
			@Nullable String uri) {
		Scrape window0 = (before != null) ? before : Scrape.EMPTY;
		if (after.pools.values().stream().noneMatch((series) -> series.count > 0)) {
			throw refused(source, "it has no " + SERIES
					+ " with a count above 0 (HikariCP's connection usage: is the service's pool used, and its metrics exposed?)");
		}
		Map<String, Scrape.PoolSeries> used = new LinkedHashMap<>();
		after.pools.forEach((pool, series) -> used.put(pool,
				series.minus(window0.pools.getOrDefault(pool, Scrape.PoolSeries.NONE))));
		if (used.values().stream().anyMatch((series) -> series.count < 0)) {
			throw refused(source, "its counts fell between the two scrapes: the service restarted, read it again");
		}
		Map.Entry<String, Scrape.PoolSeries> chosen = used.entrySet()
			.stream()
			.max(Comparator.comparingDouble((Map.Entry<String, Scrape.PoolSeries> entry) -> entry.getValue().count))
			.orElseThrow();
		Scrape.PoolSeries series = chosen.getValue();
		if (!(series.count > 0)) {
			throw refused(source,
					"no connection was lent in its window (%s): put the service under its usual load while the lab reads, read a longer window, or use bench.holdTimeFromWindow=%s"
						.formatted(window, LIFETIME));
		}
		double meanMs = 1000 * series.sumSeconds / series.count;
		HoldTime.problem(meanMs, null).ifPresent((why) -> {
			throw refused(source, "its mean hold %s ms is not one the lab can emulate: %s".formatted(ms(meanMs), why));
		});
		Uses uses = uses(source, window0, after, series.count, uri);
		Emulated emulated = emulated(series, meanMs);
		String pool = chosen.getKey().isEmpty() ? "the service's pool" : "pool \"" + chosen.getKey() + "\"";
		String others = (used.size() > 1) ? " (the busiest of %d pools)".formatted(used.size()) : "";
		StringBuilder said = new StringBuilder();
		said.append("%s of %s%s from %s, %s: %.0f uses".formatted(SERIES, pool, others, source, window, series.count));
		said.append(System.lineSeparator())
			.append("  emulated per use: %s; %s".formatted(emulated.figures, emulated.shape));
		said.append(System.lineSeparator()).append("  ").append(uses.said);
		said.append(System.lineSeparator()).append("  ").append(lifetime(before, after, chosen.getKey(), meanMs));
		return new Read(emulated.hold, emulated.histogram, uses.perRequest, said.toString());
	}

	/** What each use will hold, its figures and how it is drawn, in words. */
	private record Emulated(HoldTime hold, @Nullable HoldHistogram histogram, String figures, String shape) {
	}

	private static Emulated emulated(Scrape.PoolSeries series, double meanMs) {
		HoldHistogram histogram = series.buckets.isEmpty() ? null : WholeMilliseconds.histogram(series.buckets, meanMs);
		HoldTime hold;
		String shape;
		if (histogram != null) {
			hold = new HoldTime(histogram.meanMs(), null);
			shape = "drawn from its %d histogram buckets (inverse CDF, linear within a bucket, the +Inf bucket at the last bound), %s"
				.formatted(histogram.written().split(",").length,
						(Math.abs(histogram.scale() - 1) < 1e-9)
								? "their mean within the whole millisecond its _sum allows"
								: "scaled x%.3f to the mean".formatted(histogram.scale()));
		}
		else {
			double uncutMs = meanMs + WholeMilliseconds.MEAN_CUT_MS;
			Double p99Ms = (series.summaryP99Seconds != null && !series.summaryP99Seconds.isNaN())
					? Math.max(1000 * series.summaryP99Seconds + WholeMilliseconds.MEAN_CUT_MS, uncutMs) : null;
			Double p99Kept = (p99Ms != null) ? Math.min(p99Ms, uncutMs * HoldTime.MAX_MIXTURE_P99_TO_MEAN) : null;
			hold = new HoldTime(uncutMs, (p99Kept != null) ? Math.min(p99Kept, 60_000) : null);
			shape = (p99Ms == null) ? "no histogram or 0.99 quantile exposed: a constant hold at the mean"
					: ((p99Ms / uncutMs > HoldTime.MAX_P99_TO_MEAN)
							? "the summary's 0.99 quantile, beyond a lognormal: the two-part mixture"
							: "the summary's 0.99 quantile: a lognormal")
							+ ((p99Kept != null && p99Kept < p99Ms) ? ", its p99 kept at 45x the mean" : "");
		}
		double p50 = (histogram != null) ? histogram.quantileMs(0.5) : Double.NaN;
		double p99 = (histogram != null) ? histogram.quantileMs(0.99) : (hold.p99Ms() != null) ? hold.p99Ms() : meanMs;
		String emulated = (histogram != null) ? "mean %s ms, p50 %s ms, p99 %s ms, max %s ms"
			.formatted(ms(histogram.meanMs()), ms(p50), ms(p99), ms(histogram.maxMs())) : drawn(hold);
		if (histogram != null && histogram.meanMs() != meanMs) {
			emulated += " (_sum / _count says %s ms, HikariCP counting each use in whole milliseconds, cut down)"
				.formatted(ms(meanMs));
		}
		else if (histogram == null) {
			emulated += (" (_sum / _count says %s ms, HikariCP counting each use in whole milliseconds, cut down:"
					+ " half a millisecond added to the mean and the p99, the middle of what a use lost; the"
					+ " histogram's buckets would say it)")
				.formatted(ms(meanMs));
		}
		return new Emulated(hold, histogram, emulated, shape);
	}

	/**
	 * A lognormal's or the mixture's figures as an instance would draw them: 100,000
	 * draws (a few milliseconds), whose max stands for the longest a run will see.
	 */
	private static String drawn(HoldTime hold) {
		if (hold.constant()) {
			return "every use %s ms".formatted(ms(hold.meanMs()));
		}
		double[] draws = DoubleStream.generate(hold.sampler(1)).limit(100_000).sorted().toArray();
		return "mean %s ms, p50 %s ms, p99 %s ms, max %s ms (of 100,000 draws)".formatted(ms(hold.meanMs()),
				ms(draws[50_000]), ms(draws[99_000]), ms(draws[draws.length - 1]));
	}

	/** Uses per request over the window, and what was said of them. */
	private record Uses(double perRequest, String said) {
	}

	private static Uses uses(String source, Scrape before, Scrape after, double usesCount, @Nullable String uri) {
		if (after.requestsByUri.isEmpty()) {
			if (uri != null) {
				throw refused(source,
						"bench.holdTimeFromUri=%s asks for uses per request, and it has no %s (Spring MVC's or WebFlux's request counter: are its http.server.requests exposed?)"
							.formatted(uri, REQUESTS));
			}
			return new Uses(1, "uses per request: 1 (it has no " + REQUESTS + " to count requests by)");
		}
		double requests = 0;
		for (Map.Entry<String, Double> counted : after.requestsByUri.entrySet()) {
			boolean counts = (uri != null) ? counted.getKey().equals(uri) : !counted.getKey().startsWith("/actuator");
			if (counts) {
				requests += counted.getValue() - before.requestsByUri.getOrDefault(counted.getKey(), 0.0);
			}
		}
		String which = (uri != null) ? "uri " + uri : "every uri but /actuator/**";
		if (!(requests > 0)) {
			if (uri != null) {
				throw refused(source, "bench.holdTimeFromUri=%s has no requests counted in it (the uris it has: %s)"
					.formatted(uri, String.join(", ", after.requestsByUri.keySet())));
			}
			return new Uses(1, "uses per request: 1 (no requests counted, %s)".formatted(which));
		}
		double perRequest = usesCount / requests;
		if (perRequest < 1 || perRequest > HoldProperties.MAX_USES) {
			double kept = Math.max(1, Math.min(HoldProperties.MAX_USES, perRequest));
			return new Uses(kept,
					"uses per request: %.2f (%.0f uses by %.0f requests, %s), kept at %s: some requests took no connection or others than counted did"
						.formatted(perRequest, usesCount, requests, which, ms(kept)));
		}
		return new Uses(perRequest,
				"uses per request: %.2f (%.0f uses by %.0f requests, %s), each a checkout of its own"
					.formatted(perRequest, usesCount, requests, which));
	}

	/** The lifetime totals beside the window, or how old the totals read are. */
	private static String lifetime(@Nullable Scrape before, Scrape after, String pool, double meanMs) {
		Scrape.PoolSeries total = after.pools.getOrDefault(pool, Scrape.PoolSeries.NONE);
		String age = (after.uptimeSeconds != null)
				? "the service started %s before the scrape".formatted(seconds(after.uptimeSeconds))
				: (after.startEpochSeconds != null)
						? "the service started %s ago (process_start_time_seconds)"
							.formatted(seconds(System.currentTimeMillis() / 1000.0 - after.startEpochSeconds))
						: "how long ago the service started, it does not say";
		if (before == null) {
			return "these are totals since start, start-up included (%s): read a window of a service under load for its steady hold"
				.formatted(age);
		}
		double lifetimeMeanMs = (total.count > 0) ? 1000 * total.sumSeconds / total.count : Double.NaN;
		return "lifetime totals: %.0f uses, mean %s ms (the window's mean is %.2fx it); %s".formatted(total.count,
				ms(lifetimeMeanMs), meanMs / lifetimeMeanMs, age);
	}

	private static boolean isUrl(String source) {
		String lower = source.toLowerCase(Locale.ROOT);
		return lower.startsWith("http://") || lower.startsWith("https://");
	}

	private static String fetch(String setting, String source) {
		try {
			if (isUrl(source)) {
				HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
				HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(source))
					.timeout(TIMEOUT)
					.header("Accept", "text/plain;version=0.0.4")
					.GET()
					.build(), HttpResponse.BodyHandlers.ofString());
				if (response.statusCode() != 200) {
					throw refused(setting, "it answered HTTP " + response.statusCode());
				}
				return response.body();
			}
			Path file = Path.of(source.startsWith("file:") ? URI.create(source).getPath() : source);
			if (!Files.isRegularFile(file)) {
				throw refused(setting, "no such file" + (setting.equals(source) ? "" : ": " + source));
			}
			return Files.readString(file);
		}
		catch (IOException | IllegalArgumentException ex) {
			throw refused(setting, "it could not be read (" + ex.getClass().getSimpleName()
					+ ((ex.getMessage() != null) ? ": " + ex.getMessage() : "") + ")");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw refused(setting, "reading it was interrupted");
		}
	}

	private static BenchSettingException refused(String source, String why) {
		return new BenchSettingException("bench.holdTimeFrom=%s is not allowed: %s. Use %s. Nothing was started."
			.formatted(source, why, ALLOWED));
	}

	private static String ms(double value) {
		return String.format(Locale.ROOT, "%.3g", value);
	}

	private static String seconds(double seconds) {
		return Durations.human(Duration.ofSeconds(Math.round(seconds)));
	}

}

package org.poollab.bench.telemetry;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.grid.Workload;
import org.poollab.service.hold.ConnectionHold;
import org.poollab.service.system.Refusals;
import org.poollab.service.system.ThreadTelemetry;

/**
 * The pool figures of one scrape, with the instance's refusals and its own request
 * latency. Counters and histogram buckets are cumulative. The JDBC service reports
 * HikariCP's metrics; its reactive twin reports r2dbc-pool's gauges under their Spring
 * Boot names and its own acquire-time histogram, read into the same figures: the pool's
 * size ({@code r2dbc_pool_max_allocated_connections}), connections in use
 * ({@code acquired}), requests waiting ({@code pending}), and for timeouts its
 * {@code pool-timeout} refusals (r2dbc-pool counts none itself). The twin measures no
 * hold time: the usage figures stay 0 for it.
 *
 * @param requestBuckets {@code http.server.requests} histogram (seconds) of the
 * successful (2xx) requests to the load's URIs ({@link Workload#uri}), summed over
 * method, status and exception: the requests the load generator's latency covers (its own
 * file: {@link Telemetry} takes the scrapes, this reads one)
 * @param pinned {@link ThreadTelemetry#PINNED_METRIC}, null where the instance does not
 * expose it (a JVM without virtual threads)
 * @param hold {@link ConnectionHold#METRIC}: every request's connection hold as the
 * instance timed it (both services)
 * @param usageBuckets {@code hikaricp_connections_usage_seconds}' histogram (seconds),
 * empty unless the service publishes it
 * ({@code management.metrics.distribution.percentiles-histogram.hikaricp.connections.usage}):
 * a team's app's hold, which has no {@link ConnectionHold} timer
 */
record PoolSnapshot(double max, double active, double pending, double timeouts, double acquireCount,
		TreeMap<Double, Double> acquireBuckets, double usageSumSeconds, double usageCount, Map<String, Double> refused,
		TreeMap<Double, Double> requestBuckets, @Nullable Double pinned, Hold hold,
		TreeMap<Double, Double> usageBuckets) {

	/**
	 * A timer's cumulative figures in one scrape.
	 *
	 * @param buckets counts by upper bound (seconds), cumulative
	 * @param sumSeconds the sum of what was recorded
	 * @param count how many were recorded
	 * @param drawnSeconds the sum of the holds drawn to emulate
	 * ({@link ConnectionHold#DRAWN_METRIC}), 0 where none are
	 * @param drawnCount how many were drawn
	 */
	record Hold(TreeMap<Double, Double> buckets, double sumSeconds, double count, double drawnSeconds,
			double drawnCount) {

		static final Hold NONE = new Hold(new TreeMap<>(), 0, 0, 0, 0);

		/** The lab's timers as one scrape's values give them. */
		static Hold of(TreeMap<Double, Double> buckets, Map<String, Double> values) {
			return new Hold(buckets, values.getOrDefault(ConnectionHold.PROMETHEUS_NAME + "_sum", 0.0),
					values.getOrDefault(ConnectionHold.PROMETHEUS_NAME + "_count", 0.0),
					values.getOrDefault(ConnectionHold.DRAWN_PROMETHEUS_NAME + "_sum", 0.0),
					values.getOrDefault(ConnectionHold.DRAWN_PROMETHEUS_NAME + "_count", 0.0));
		}

		/** What was recorded since {@code before}, an earlier scrape's. */
		Hold since(Hold before) {
			return new Hold(Histogram.difference(this.buckets, before.buckets), this.sumSeconds - before.sumSeconds,
					this.count - before.count, this.drawnSeconds - before.drawnSeconds,
					this.drawnCount - before.drawnCount);
		}

		/** This and {@code other} together (two instances' windows). */
		Hold plus(Hold other) {
			TreeMap<Double, Double> both = new TreeMap<>(this.buckets);
			other.buckets.forEach((le, count) -> both.merge(le, count, Double::sum));
			return new Hold(both, this.sumSeconds + other.sumSeconds, this.count + other.count,
					this.drawnSeconds + other.drawnSeconds, this.drawnCount + other.drawnCount);
		}

		/** The mean of the holds drawn, milliseconds; {@code null} when none were. */
		@Nullable Double drawnMeanMs() {
			return (this.drawnCount > 0) ? 1000 * this.drawnSeconds / this.drawnCount : null;
		}

	}

	/**
	 * The Prometheus text format is one sample per line, {@code name{labels} value}.
	 * Hand-parsed: the Prometheus Java client ships writers for it, no parser, and the
	 * lab needs a dozen series from it. Label values are quoted and may hold braces
	 * ({@code uri="/roles/{id}/audit"}).
	 */
	private static final Pattern SAMPLE = Pattern.compile(
			"^(hikaricp_[a-z_]+|r2dbc_[a-z_]+|" + Refusals.PROMETHEUS_NAME + "|"
					+ ThreadTelemetry.PINNED_PROMETHEUS_NAME + "|" + ConnectionHold.PROMETHEUS_NAME
					+ "_(?:bucket|sum|count)|" + ConnectionHold.DRAWN_PROMETHEUS_NAME + "_(?:sum|count)"
					+ "|http_server_requests_seconds_bucket)(\\{(?:[^\"}]|\"(?:[^\"\\\\]|\\\\.)*\")*\\})? (\\S+)$",
			Pattern.MULTILINE);

	/** The reactive twin's pool size, as its running pool holds it. */
	private static final String R2DBC_MAX = "r2dbc_pool_max_allocated_connections";

	private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

	private static final Set<String> LOAD_URIS = Arrays.stream(Workload.values())
		.map((workload) -> workload.uri)
		.collect(Collectors.toUnmodifiableSet());

	private static final String HOLD_BUCKET = ConnectionHold.PROMETHEUS_NAME + "_bucket";

	private static final Pattern LE = Pattern.compile("le=\"([^\"]+)\"");

	private static final Pattern REASON = Pattern.compile("reason=\"([^\"]+)\"");

	static PoolSnapshot parse(String text) {
		return parse(text, null);
	}

	/**
	 * @param pool the HikariCP pool whose {@code hikaricp_*} series are read, by its
	 * {@code pool} tag; null: all of them, summed (the lab's own service runs one)
	 */
	static PoolSnapshot parse(String text, @Nullable String pool) {
		Map<String, Double> values = new HashMap<>();
		TreeMap<Double, Double> usageBuckets = new TreeMap<>();
		TreeMap<Double, Double> buckets = new TreeMap<>();
		Map<String, Double> refused = new TreeMap<>();
		TreeMap<Double, Double> requests = new TreeMap<>();
		TreeMap<Double, Double> holdBuckets = new TreeMap<>();
		Matcher sample = SAMPLE.matcher(text);
		while (sample.find()) {
			String name = sample.group(1);
			double value = Double.parseDouble(sample.group(3));
			if (pool != null && name.startsWith("hikaricp_")
					&& !pool.equals(labels(sample.group(2)).getOrDefault("pool", ""))) {
				continue;
			}
			if (name.equals(Refusals.PROMETHEUS_NAME)) {
				Matcher reason = REASON.matcher(String.valueOf(sample.group(2)));
				if (reason.find()) {
					refused.merge(reason.group(1), value, Double::sum);
				}
			}
			else if (name.equals("http_server_requests_seconds_bucket")) {
				Map<String, String> labels = labels(sample.group(2));
				if (LOAD_URIS.contains(labels.get("uri")) && labels.getOrDefault("status", "").startsWith("2")
						&& labels.containsKey("le")) {
					requests.merge(Histogram.bound(labels.get("le")), value, Double::sum);
				}
			}
			else if (name.equals(HOLD_BUCKET)) {
				addBucket(holdBuckets, sample.group(2), value);
			}
			else if (name.equals("hikaricp_connections_usage_seconds_bucket")) {
				addBucket(usageBuckets, sample.group(2), value);
			}
			else if (name.equals("hikaricp_connections_acquire_seconds_bucket")
					|| name.equals("r2dbc_connections_acquire_seconds_bucket")) {
				addBucket(buckets, sample.group(2), value);
			}
			else {
				values.merge(name, value, Double::sum);
			}
		}
		Hold hold = Hold.of(holdBuckets, values);
		if (values.containsKey(R2DBC_MAX)) {
			return new PoolSnapshot(values.get(R2DBC_MAX), values.getOrDefault("r2dbc_pool_acquired_connections", 0.0),
					values.getOrDefault("r2dbc_pool_pending_connections", 0.0),
					refused.getOrDefault(Refusals.Reason.POOL_TIMEOUT.tag(), 0.0),
					values.getOrDefault("r2dbc_connections_acquire_seconds_count", 0.0), buckets, 0.0, 0.0, refused,
					requests, values.get(ThreadTelemetry.PINNED_PROMETHEUS_NAME), hold, new TreeMap<>());
		}
		return new PoolSnapshot(values.getOrDefault("hikaricp_connections_max", 0.0),
				values.getOrDefault("hikaricp_connections_active", 0.0),
				values.getOrDefault("hikaricp_connections_pending", 0.0),
				values.getOrDefault("hikaricp_connections_timeout_total", 0.0),
				values.getOrDefault("hikaricp_connections_acquire_seconds_count", 0.0), buckets,
				values.getOrDefault("hikaricp_connections_usage_seconds_sum", 0.0),
				values.getOrDefault("hikaricp_connections_usage_seconds_count", 0.0), refused, requests,
				values.get(ThreadTelemetry.PINNED_PROMETHEUS_NAME), hold, usageBuckets);
	}

	/** Adds a histogram sample to the buckets by its {@code le} label. */
	private static void addBucket(TreeMap<Double, Double> buckets, String labels, double value) {
		Matcher le = LE.matcher(labels);
		if (le.find()) {
			buckets.merge(Histogram.bound(le.group(1)), value, Double::sum);
		}
	}

	/** A pool with no connection in use and none awaited. */
	boolean idle() {
		return this.max > 0 && this.active == 0 && this.pending == 0;
	}

	private static Map<String, String> labels(String text) {
		Map<String, String> labels = new HashMap<>();
		Matcher label = LABEL.matcher(String.valueOf(text));
		while (label.find()) {
			labels.put(label.group(1), label.group(2));
		}
		return labels;
	}

}

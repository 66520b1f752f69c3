package org.poollab.bench.report;

import java.time.Duration;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeSet;

import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.PercentileHistogramBuckets;

import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.io.ClassPathResource;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.results.Pool;
import org.poollab.bench.text.Durations;

/**
 * How to print an acquire p99, which is the upper bound of the Micrometer histogram
 * bucket holding the 99th percentile ({@link Pool#acquireP99Ms()}), not a measured time.
 * The buckets and the connection-timeout are the service's, read from its
 * {@code application.yml}, so they cannot drift from what the instances ran with.
 *
 * @param lowestBucketMs the lowest bucket's bound: anything at or below it is "at most"
 * that
 * @param connectionTimeoutMs HikariCP's connection-timeout: no wait lasts longer
 * @param timeoutBucketMs the bound of the bucket the timeout falls in
 * @param belowTimeoutBucketMs the bound of the bucket below it
 */
record AcquireBuckets(double lowestBucketMs, long connectionTimeoutMs, double timeoutBucketMs,
		double belowTimeoutBucketMs) {

	private static final String SERVICE_SETTINGS = "application.yml";

	private static final String CONNECTION_TIMEOUT = "spring.datasource.hikari.connection-timeout";

	private static final String MINIMUM_EXPECTED = "management.metrics.distribution.minimum-expected-value.hikaricp.connections.acquire";

	private static final String MAXIMUM_EXPECTED = "management.metrics.distribution.maximum-expected-value.hikaricp.connections.acquire";

	/**
	 * A share of requests that timed out at least this large puts the p99 at the timeout.
	 */
	private static final double P99_SHARE = 0.01;

	static AcquireBuckets ofService() {
		YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
		yaml.setResources(new ClassPathResource(SERVICE_SETTINGS));
		Properties settings = Objects.requireNonNull(yaml.getObject(), SERVICE_SETTINGS);
		long timeoutMs = Long.parseLong(required(settings, CONNECTION_TIMEOUT));
		Duration minimum = DurationStyle.detectAndParse(required(settings, MINIMUM_EXPECTED));
		Duration maximum = DurationStyle.detectAndParse(required(settings, MAXIMUM_EXPECTED));
		// The same buckets Micrometer gives the service's timer, plus the expected
		// minimum and maximum it adds as bounds of their own.
		NavigableSet<Double> boundsNanos = new TreeSet<>(
				PercentileHistogramBuckets.buckets(DistributionStatisticConfig.builder()
					.percentilesHistogram(true)
					.minimumExpectedValue((double) minimum.toNanos())
					.maximumExpectedValue((double) maximum.toNanos())
					.build()));
		boundsNanos.add((double) minimum.toNanos());
		boundsNanos.add((double) maximum.toNanos());
		double timeoutNanos = Duration.ofMillis(timeoutMs).toNanos();
		double timeoutBucket = boundsNanos.ceiling(timeoutNanos);
		return new AcquireBuckets(boundsNanos.first() / 1e6, timeoutMs, timeoutBucket / 1e6,
				boundsNanos.lower(timeoutBucket) / 1e6);
	}

	private static String required(Properties settings, String key) {
		String value = settings.getProperty(key);
		if (value == null) {
			throw new IllegalStateException("The service's " + SERVICE_SETTINGS + " has no " + key
					+ ": the report needs it to read the acquire-time histogram");
		}
		return value;
	}

	/**
	 * @param cell a cell
	 * @return its acquire p99 as the report prints it: {@code ≤ 0.01} in the lowest
	 * bucket, {@code ≥ 2000} when at least 1 % of requests waited out the timeout, a
	 * range when the p99 lies in the timeout's bucket without that, else the bound
	 */
	String format(Cell cell) {
		double valueMs = cell.pool().acquireP99Ms();
		if (valueMs <= this.lowestBucketMs) {
			return "≤ " + Durations.ms(this.lowestBucketMs);
		}
		if (valueMs >= this.timeoutBucketMs) {
			return (cell.pool().timeouts() >= P99_SHARE * cell.requests().samples()) ? "≥ " + this.connectionTimeoutMs
					: Durations.ms(Math.round(this.belowTimeoutBucketMs)) + "–" + this.connectionTimeoutMs;
		}
		return Durations.ms(valueMs);
	}

	/** Said under any table with the column. */
	String note() {
		return "acquire p99: the upper bound of the HikariCP histogram bucket that holds the 99th percentile of "
				+ "the wait for a connection, not a measured time. ≤ " + Durations.ms(this.lowestBucketMs)
				+ ": the lowest bucket (a connection was free on arrival). ≥ " + this.connectionTimeoutMs
				+ ": at least 1 % of requests waited out the " + this.connectionTimeoutMs + " ms connection-timeout; "
				+ Durations.ms(Math.round(this.belowTimeoutBucketMs)) + "–" + this.connectionTimeoutMs
				+ ": the p99 lies in the timeout's bucket, no wait outlasts the timeout.";
	}

}

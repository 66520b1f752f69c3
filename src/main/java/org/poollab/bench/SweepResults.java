package org.poollab.bench;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What one sweep measured: the contract between the sweep (which writes
 * {@code results.json}) and the report (which reads it). Latencies are in milliseconds
 * and cover successful requests only; failures are counted apart so saturation is not
 * averaged into the latency figures.
 *
 * @param startedAt when the sweep started
 * @param preset the preset the grid came from ({@code quick}, {@code paper},
 * {@code full}, ...)
 * @param host the machine the sweep ran on
 * @param database the PostgreSQL the instances shared
 * @param p99ObjectiveMs the p99 a point must stay at or below to count as sustaining its
 * rate (0: no objective)
 * @param workload what each request did, e.g. {@code read (GET /roles)}; absent in
 * results written before the write workload existed, which were reads
 * @param points one entry per measured point, in the order they ran
 */
public record SweepResults(Instant startedAt, String preset, Host host, Database database, double p99ObjectiveMs,
		String workload, List<Point> points) {

	/**
	 * @param cpuCores processors the JVM sees
	 * @param loadGenerator how the load was generated, e.g.
	 * {@code JMeter 5.6.3 OpenModelThreadGroup}
	 */
	public record Host(int cpuCores, String loadGenerator) {
	}

	/**
	 * @param kind {@code embedded} (started by the lab) or {@code external}
	 * @param url JDBC URL without credentials
	 * @param version server version string
	 * @param maxConnections the server's {@code max_connections}
	 * @param reservedConnections slots regular users cannot take
	 * ({@code superuser_reserved_connections} + {@code reserved_connections})
	 */
	public record Database(String kind, String url, String version, int maxConnections, int reservedConnections) {
	}

	/**
	 * One measured point: a topology, pool size and rate held for the measured window.
	 *
	 * @param topology {@code single} or {@code multi}
	 * @param instances service instances behind the load balancer
	 * @param loadBalancer {@code none}, {@code nginx} or {@code client-round-robin}
	 * @param poolSize the {@code maximum-pool-size} each instance ran with
	 * @param rateRps target arrival rate, requests per second, for the whole fleet
	 * @param arrivals {@code even} or {@code random} (Poisson) arrivals
	 * @param repeat 1-based repetition of this point
	 * @param warmupSeconds load applied before the window, not measured
	 * @param durationSeconds measured window
	 * @param achievedRps requests that started in the window, per second
	 * @param samples requests that started in the window (success + failure)
	 * @param errors failed requests in the window (non-2xx or no response)
	 * @param statusCounts responses by HTTP status (or JMeter's text for no response)
	 * @param latency successful requests' latency distribution
	 * @param failedMaxMs slowest failed request, 0 when none failed
	 * @param pool what the instances' HikariCP pools reported during the window
	 * @param loadGeneratorCpuCores CPU used by the load generator during the window, in
	 * cores
	 * @param outcome {@code ok}, or what went wrong with this point
	 * @param limits what each instance JVM was limited to; results written before limits
	 * were recorded read as {@link Limits#DEFAULTS}, what every instance ran with then
	 */
	public record Point(String topology, int instances, String loadBalancer, int poolSize, int rateRps, String arrivals,
			int repeat, double warmupSeconds, double durationSeconds, double achievedRps, long samples, long errors,
			Map<String, Long> statusCounts, Latency latency, double failedMaxMs, Pool pool,
			double loadGeneratorCpuCores, String outcome, Limits limits) {

		public Point {
			limits = (limits != null) ? limits : Limits.DEFAULTS;
		}

		public double errorPercent() {
			return (this.samples != 0) ? 100.0 * this.errors / this.samples : 0;
		}

		public boolean ok() {
			return "ok".equals(this.outcome);
		}

	}

	/**
	 * What each instance JVM of a point was limited to: the paper ran every instance with
	 * 1 CPU and 128 MB.
	 *
	 * @param cpus CPUs each instance was pinned to ({@code taskset} and
	 * {@code -XX:ActiveProcessorCount}); 0: not pinned, all of the host's
	 * @param heap the instance's {@code -Xmx}, e.g. {@code 512m}
	 * @param tomcatThreads {@code server.tomcat.threads.max}; 0: not set, Tomcat's
	 * default (200)
	 */
	public record Limits(int cpus, String heap, int tomcatThreads) {

		/** Without {@code bench.instance*} and {@code bench.tomcatThreads}. */
		public static final Limits DEFAULTS = new Limits(0, "512m", 0);

		/** Short form for the console and the report, e.g. {@code 1 CPU, heap 128m}. */
		public String describe() {
			String cpus = switch (this.cpus) {
				case 0 -> "all CPUs";
				case 1 -> "1 CPU";
				default -> this.cpus + " CPUs";
			};
			return cpus + ", heap " + this.heap
					+ ((this.tomcatThreads > 0) ? ", " + this.tomcatThreads + " Tomcat threads" : "");
		}

	}

	/**
	 * Percentiles from the raw samples (HdrHistogram); JMeter records whole milliseconds.
	 */
	public record Latency(double meanMs, double p50Ms, double p95Ms, double p99Ms, double p999Ms, double maxMs) {
	}

	/**
	 * HikariCP telemetry scraped from every instance's {@code /actuator/prometheus}
	 * during the measured window.
	 *
	 * @param observedMax {@code hikaricp.connections.max} per instance; each must equal
	 * the point's pool size, which proves the point measured what it claims
	 * @param peakActive highest {@code hikaricp.connections.active} seen on any one
	 * instance
	 * @param peakPending highest {@code hikaricp.connections.pending} seen on any one
	 * instance
	 * @param acquireP99Ms 99th percentile of {@code hikaricp.connections.acquire} over
	 * the window, all instances together (upper bound of the histogram bucket)
	 * @param usageMeanMs mean time a connection was held
	 * ({@code hikaricp.connections.usage})
	 * @param timeouts connection-acquire timeouts ({@code hikaricp.connections.timeout})
	 * @param telemetrySamples scrapes per instance that the figures rest on
	 */
	public record Pool(List<Integer> observedMax, int peakActive, int peakPending, double acquireP99Ms,
			double usageMeanMs, long timeouts, int telemetrySamples) {

		public boolean verified(int poolSize) {
			return !this.observedMax.isEmpty() && this.observedMax.stream().allMatch((max) -> max == poolSize);
		}

	}

}

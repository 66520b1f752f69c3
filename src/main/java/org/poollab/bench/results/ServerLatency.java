package org.poollab.bench.results;

/**
 * One instance's own latency of the requests the load generator timed: Spring MVC's
 * {@code http.server.requests} timer, successful (2xx) requests to the workload's URI
 * only, like {@link Latency}. It is the difference of the timer's histogram between the
 * instance's last scrape at or before the window's start and its first at or after the
 * window's end, so it covers the window and a little either side — one scrape interval
 * (500 ms) when scrapes keep time, more when a busy machine delays one; {@link #spanMs()}
 * says how long it really covered — and counts requests as they completed, where the load
 * generator counts them as they started. The instance's clock starts when a Tomcat thread
 * takes the request: time in the network, the load balancer and Tomcat's accept queue is
 * only in the load generator's latency, and so is a wait before the request was sent (see
 * {@link Point#startLagP99Ms()}).
 * <p>
 * Percentiles are bucket-resolution: the upper bound of the Micrometer histogram bucket
 * the percentile falls in, not interpolated, so an over-estimate by at most the bucket's
 * width (the service's buckets run from 0.25 ms to 10 s, each at most a third wider than
 * the one below; beyond 10 s reads as 10 s). Every figure is -1 when the instance lacks a
 * scrape on one side of the window (it died, or did not answer in time): absent, not
 * estimated.
 *
 * @param port the instance's HTTP port (its HikariCP pool is {@code roles-<port>})
 * @param requests successful requests it completed in the window; -1 when absent
 * @param p50Ms median, bucket upper bound; -1 when absent or no request
 * @param p99Ms 99th percentile, bucket upper bound; -1 when absent or no request
 * @param maxMs upper bound of the highest bucket holding a request; -1 when absent or no
 * request
 * @param spanMs time between the two scrapes the figures are the difference of, at least
 * the window's length; -1 when absent, 0 in results written before it was recorded
 */
public record ServerLatency(int port, long requests, double p50Ms, double p99Ms, double maxMs, long spanMs) {

	/**
	 * An instance without a scrape on one side of the window.
	 * @param port the instance's HTTP port
	 * @return its figures, all -1
	 */
	public static ServerLatency absent(int port) {
		return new ServerLatency(port, -1, -1, -1, -1, -1);
	}

}

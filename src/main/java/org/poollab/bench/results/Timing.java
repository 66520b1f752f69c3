package org.poollab.bench.results;

import java.util.List;

/**
 * Where a sweep's wall time went, from its start (settings checked) to its last point.
 * What is not load went to starting the database and the instances, JMeter's start and
 * its wait for requests in flight, and resizing pools.
 *
 * @param wallSeconds from the sweep's start to the end of its last point
 * @param measuredSeconds the measured windows together
 * @param pointWarmupSeconds the unmeasured load before each window together
 * @param topologyWarmupSeconds the unmeasured load after each deployment started
 * @param warmUps each fresh deployment's warm-up, in the order they ran; empty in results
 * written before they were recorded
 */
public record Timing(double wallSeconds, double measuredSeconds, double pointWarmupSeconds,
		double topologyWarmupSeconds, List<WarmUpRecord> warmUps, List<Settling> settling) {

	public Timing {
		warmUps = (warmUps != null) ? List.copyOf(warmUps) : List.of();
		settling = (settling != null) ? List.copyOf(settling) : List.of();
	}

	/** A time account without adaptive effort. */
	public Timing(double wallSeconds, double measuredSeconds, double pointWarmupSeconds, double topologyWarmupSeconds,
			List<WarmUpRecord> warmUps) {
		this(wallSeconds, measuredSeconds, pointWarmupSeconds, topologyWarmupSeconds, warmUps, List.of());
	}

	public double measuredPercent() {
		return (this.wallSeconds > 0) ? 100 * this.measuredSeconds / this.wallSeconds : 0;
	}

	/** The time the service was under load, warm-ups included. */
	public double loadSeconds() {
		return this.measuredSeconds + this.pointWarmupSeconds + this.topologyWarmupSeconds;
	}

	/** The share of wall time the service was under load, warm-ups included. */
	public double loadPercent() {
		return (this.wallSeconds > 0) ? 100 * loadSeconds() / this.wallSeconds : 0;
	}

}

package org.poollab.bench.load;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.results.CrossCheckResult;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;
import org.poollab.bench.results.Second;
import org.poollab.bench.results.ServerLatency;

/**
 * The one place a window measured in slow motion becomes the team's time. Judged first in
 * the lab's units (the generator against its own schedule, the pool's size), a point is
 * then mapped once: latencies (the client's, each instance's own, each second's p99, the
 * slowest failure) as {@link TimeScale#teamMs}; the achieved rate × k, so that achieved
 * over asked keeps its meaning; the pool's acquire p99 and measured holds ÷ k (pure waits
 * and holds, both stretched whole). What stays: the planned rate (so points still match
 * their plan), counts (busy and pending connections, refusals, timeouts: in Erlang C they
 * do not change with k), the window's seconds (what ran, so the database's CPU per
 * request stays right) and JMeter's start lag (judged against its own schedule, stricter
 * in lab ms).
 */
public final class TeamTime {

	private TeamTime() {
	}

	/**
	 * A point measured at {@code scale}, in the team's time, recording k, the overhead
	 * and the client latency as measured; unchanged at k = 1.
	 */
	public static Point of(Point lab, TimeScale scale) {
		if (!scale.slowed()) {
			return lab;
		}
		int k = scale.factor();
		return lab.toBuilder()
			.achievedRps(lab.achievedRps() * k)
			.failedMaxMs(scale.teamMs(lab.failedMaxMs()))
			.latency(latency(lab.latency(), scale))
			.pool(pool(lab.pool(), k))
			.serverLatency(lab.serverLatency().stream().map((server) -> server(server, scale)).toList())
			.seconds(lab.seconds().stream().map((second) -> second(second, scale)).toList())
			.crossCheck((lab.crossCheck() != null) ? crossCheck(lab.crossCheck(), scale, lab.latency()) : null)
			.timeScale(k, scale.overheadMs(), lab.latency())
			.build();
	}

	/** The scale a point was measured at, read back from it. */
	public static TimeScale scaleOf(Point point) {
		return new TimeScale(point.timeScale(), point.overheadMs());
	}

	/** Every figure of a latency distribution, intervals included. */
	static Latency latency(Latency lab, TimeScale scale) {
		return new Latency(scale.teamMs(lab.meanMs()), scale.teamMs(lab.p50Ms()), scale.teamMs(lab.p95Ms()),
				scale.teamMs(lab.p99Ms()), scale.teamMs(lab.p999Ms()), scale.teamMs(lab.maxMs()),
				interval(lab.p50Interval(), scale), interval(lab.p99Interval(), scale));
	}

	private static @Nullable Interval interval(@Nullable Interval lab, TimeScale scale) {
		return (lab != null) ? new Interval(scale.teamMs(lab.lowMs()), scale.teamMs(lab.highMs())) : null;
	}

	/** Waits for a connection and holds are stretched whole: ÷ k, no overhead in them. */
	static Pool pool(Pool lab, int k) {
		return new Pool(lab.observedMax(), lab.peakActive(), lab.peakPending(), lab.acquireP99Ms() / k,
				lab.usageMeanMs() / k, lab.timeouts(), lab.telemetrySamples(), lab.meanActive(), lab.pinnedEvents(),
				(lab.holdMeanMs() != null) ? lab.holdMeanMs() / k : null,
				(lab.holdP99Ms() != null) ? lab.holdP99Ms() / k : null,
				(lab.holdDrawnMeanMs() != null) ? lab.holdDrawnMeanMs() / k : null);
	}

	private static ServerLatency server(ServerLatency lab, TimeScale scale) {
		return new ServerLatency(lab.port(), lab.requests(), scale.teamMs(lab.p50Ms()), scale.teamMs(lab.p99Ms()),
				scale.teamMs(lab.maxMs()), lab.spanMs());
	}

	private static Second second(Second lab, TimeScale scale) {
		return new Second(lab.second(), lab.sent(), lab.ok(), scale.teamMs(lab.p99Ms()), lab.pendingPeak());
	}

	/**
	 * An independent generator's figures in the team's time, judged against JMeter's in
	 * the team's time: its latencies mapped as the point's, its rate × k; its send lag
	 * stays the lab's, as JMeter's start lag does.
	 * @param labJMeter JMeter's latency of the point as measured
	 */
	public static CrossCheckResult crossCheck(CrossCheckResult lab, TimeScale scale, Latency labJMeter) {
		if (!scale.slowed()) {
			return lab;
		}
		double p50 = scale.teamMs(lab.p50Ms());
		double p99 = scale.teamMs(lab.p99Ms());
		Latency jmeter = latency(labJMeter, scale);
		return new CrossCheckResult(p50, p99, lab.sendLagP99Ms(), lab.sentRps() * scale.factor(), lab.errors(),
				lab.cpuCores(), CrossCheck.agrees(jmeter, p50, p99));
	}

}

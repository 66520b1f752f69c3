package org.poollab.bench.console;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.poollab.bench.results.Point;
import org.poollab.bench.results.Settling;
import org.poollab.bench.results.Timing;
import org.poollab.bench.results.WarmUpRecord;
import org.poollab.bench.text.Durations;

/**
 * Where a sweep's time went: the measured windows, the warm-up before each, the warm-ups
 * of fresh instances and the adaptive effort, for the console and {@code results.json}
 * ({@code timing}).
 */
public final class TimeAccount {

	private final List<WarmUpRecord> warmUps = new ArrayList<>();

	private final List<Settling> settling = new ArrayList<>();

	public void warmedUp(WarmUpRecord warmUp) {
		this.warmUps.add(warmUp);
	}

	public void settled(Settling effort) {
		this.settling.add(effort);
	}

	public Timing timing(Instant startedAt, List<Point> points) {
		double wallSeconds = Duration.between(startedAt, Instant.now()).toMillis() / 1000.0;
		return new Timing(wallSeconds, points.stream().mapToDouble(Point::durationSeconds).sum(),
				points.stream().mapToDouble(Point::warmupSeconds).sum(),
				this.warmUps.stream().mapToDouble(WarmUpRecord::seconds).sum(), this.warmUps, this.settling);
	}

	public static void print(Timing timing, PrintStream out) {
		out.printf(Locale.ROOT,
				"%nTime: %s from the sweep's start to its last point; under load %s (%.0f %%): measured windows %s (%.0f %%), warm-up before each window %s, warm-up of fresh instances %s. The rest started the database and instances, JMeter, and waited for requests in flight.%n",
				Durations.human(timing.wallSeconds()), Durations.human(timing.loadSeconds()), timing.loadPercent(),
				Durations.human(timing.measuredSeconds()), timing.measuredPercent(),
				Durations.human(timing.pointWarmupSeconds()), Durations.human(timing.topologyWarmupSeconds()));
	}

}

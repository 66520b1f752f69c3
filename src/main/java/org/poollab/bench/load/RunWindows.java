package org.poollab.bench.load;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.deploy.Instance;
import org.poollab.bench.deploy.PgBouncer;
import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.telemetry.LoadWindow;
import org.poollab.bench.telemetry.PoolWindow;
import org.poollab.bench.telemetry.ServerLatencyWindow;
import org.poollab.bench.telemetry.Telemetry;

/**
 * The windows of a {@link LoadRun}, cut out of what it recorded by timestamp: each
 * segment's window as a point, and in JMeter's own CSV shape for the dashboards.
 *
 * @param grid what every point shares (arrivals, workload, limits)
 * @param jmeter the generator, local or with remote engines
 * @param scale the time scale the run was sent at
 */
record RunWindows(Grid grid, JMeter jmeter, TimeScale scale) {

	/**
	 * Every window in JMeter's own CSV shape, for the dashboards of the points that
	 * decide (Dashboards).
	 */
	void writeSlices(List<LoadRun.Segment> segments, long originMs, List<LoadWindow.Sample> samples, Path directory)
			throws IOException {
		for (LoadRun.Segment segment : segments) {
			Planned planned = segment.point();
			Dashboards.writeSlice(samples, originMs + segment.windowStart().toMillis(),
					originMs + segment.end().toMillis(), this.grid.workload().label(),
					directory.resolve(Dashboards.sliceName(planned.topology().label(),
							SweepResults.poolLabel(planned.poolSize()), planned.rateRps(), planned.repeat())));
		}
	}

	/**
	 * One segment's window as a point, judged in the lab's units (whether an instance or
	 * pgbouncer died, whether the pools were the size planned, whether the generator kept
	 * up against the rate it was sent), then mapped once to the team's time
	 * ({@link TeamTime}).
	 */
	Point point(LoadRun.Segment segment, List<Long> resizedAtMs, LoadRun.Recording recording,
			List<LoadWindow.Sample> samples, Deployment deployment, boolean died) {
		Planned planned = segment.point();
		long originMs = recording.originMs();
		List<Telemetry.Scrape> scrapes = recording.scrapes();
		List<Telemetry.CpuSample> databaseCpu = recording.databaseCpu();
		long phaseStartMs = originMs + segment.start().toMillis();
		long startMs = originMs + segment.windowStart().toMillis();
		long endMs = originMs + segment.end().toMillis();
		boolean even = this.grid.arrivals() == Arrivals.EVEN;
		boolean evenSchedule = even && !this.jmeter.distributed();
		double labRateRps = this.scale.labRateRps(planned.rateRps());
		LoadWindow window = LoadWindow.of(samples, startMs, endMs, evenSchedule ? labRateRps : 0, phaseStartMs);
		// Remote engines each run the plan at their share of the rate: their requests are
		// told apart and each is judged against its own schedule.
		LoadWindow.Engines engines = this.jmeter.distributed()
				? LoadWindow.engines(samples, this.jmeter.engines(), startMs, endMs,
						even ? labRateRps / this.jmeter.engines().size() : 0, phaseStartMs)
				: new LoadWindow.Engines(List.of(), window.startLagP99Ms());
		Pool pool = PoolWindow.summarize(scrapes, deployment.instances().size(), startMs, endMs, resizedAtMs);
		Point measured = Point.builder()
			.topology(planned.topology().label())
			.instances(planned.instances())
			.loadBalancer(deployment.loadBalancer())
			.poolSize(planned.poolSize())
			.rateRps(planned.rateRps())
			.arrivals(this.grid.arrivals().label())
			.repeat(planned.repeat())
			.warmupSeconds(seconds(segment.settle()))
			.durationSeconds(seconds(segment.window()))
			.requests(window.requests())
			.latency(window.latency())
			.pool(pool)
			.loadGeneratorCpuCores(PoolWindow.cpuCores(recording.cpu(), startMs, endMs))
			.databaseCpuCores(databaseCpu.isEmpty() ? null : PoolWindow.cpuCores(databaseCpu, startMs, endMs))
			.limits(this.grid.limits(planned.vendor(), planned.stack(), planned.threads()))
			.pgbouncer((deployment.pgbouncer() != null)
					? PgBouncer.summarize(recording.pgbouncer(), this.grid.pgbouncerClientPoolSize(), startMs, endMs)
					: null)
			.startLagP99Ms(engines.startLagP99Ms())
			.engines(engines.loads())
			.refusals(PoolWindow.refusals(scrapes, deployment.instances().size(), startMs, endMs))
			.serverLatency(ServerLatencyWindow.summarize(scrapes,
					deployment.instances().stream().map(Instance::port).toList(), startMs, endMs))
			.seconds(LoadWindow.seconds(samples, startMs, endMs, scrapes))
			// the lab's figures, with k so that the judging reads the lab's rate
			.timeScale(this.scale.factor(), this.scale.overheadMs(), null)
			.build();
		return TeamTime.of(measured.withOutcome(outcome(measured, deployment, died)), this.scale);
	}

	static String outcome(Point point, Deployment deployment, boolean died) {
		List<Instance> dead = deployment.deadInstances();
		if (died && !dead.isEmpty() && dead.stream().allMatch(Instance::killedFromOutside)) {
			return "%s: instance(s) on port(s) %s ended by a signal (%s) with no cause in their log; not a result of the load"
				.formatted(LoadRun.KILLED_FROM_OUTSIDE, dead.stream().map(Instance::port).toList(),
						String.join("; ", dead.stream().map(Instance::deathCause).toList()));
		}
		if (died && !dead.isEmpty()) {
			return "instance(s) on port(s) %s died during the point (%s)".formatted(
					dead.stream().map(Instance::port).toList(),
					String.join("; ", dead.stream().map(Instance::deathCause).toList()));
		}
		if (deployment.pgbouncer() != null && !deployment.pgbouncer().isAlive()) {
			return "pgbouncer died during the point";
		}
		if (!point.verified()) {
			if (point.pgbouncer() != null) {
				return "pool not verified: pgbouncer reported pool_size %d and the instances maximum-pool-size %s, expected %d and %d"
					.formatted(point.pgbouncer().observedPoolSize(), point.pool().observedMax(), point.poolSize(),
							point.pgbouncer().clientPoolSize());
			}
			return "pool not verified: %d instance(s) reported maximum-pool-size %s, expected %s from each of %d (0: no HikariCP pool, -1: changed during the window)"
				.formatted(point.pool().observedMax().size(), point.pool().observedMax(), point.poolSize(),
						point.instances());
		}
		return GeneratorCheck.verdict(point).orElse("ok");
	}

	private static double seconds(Duration duration) {
		return duration.toMillis() / 1000.0;
	}

}

package org.poollab.bench.console;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.load.LoadRun;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.results.EngineLoad;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.text.Durations;
import org.poollab.bench.text.Failures;

/**
 * Point i of N, what it is, and when the sweep will be done: what the plan's runs left
 * will load (their schedules), plus each run's own cost beyond its schedule (JMeter's
 * start, the wait for requests in flight, telemetry) at the mean seen so far, plus the
 * deployments left at the mean a deployment has taken (starting instances and warming
 * them up), plus re-measures already known to be needed. The first ETA of the default
 * preset was half the real time when it charged points at their mean and left the first
 * deployment out.
 */
public final class Progress {

	private final int total;

	private final PrintStream out;

	private final List<Long> plannedRunNanos;

	private int deploymentsLeft;

	private int done;

	private int runsDone;

	private long overheadNanos;

	private long againNanos;

	private int againRuns;

	private long deployNanos;

	private int deployments;

	Progress(int total, int deployments, List<Long> plannedRunNanos, PrintStream out) {
		this.total = total;
		this.deploymentsLeft = deployments;
		this.plannedRunNanos = plannedRunNanos;
		this.out = out;
	}

	/**
	 * Progress through these planned points: every JMeter run the plan holds, as its
	 * schedule's length (the load the sweep will put on, before any run's own overhead,
	 * deployment or re-measure), and one deployment per database, topology, stack, Tomcat
	 * thread count and pooling. In slow motion the windows are the lab's
	 * ({@link TimeScale#labWindow}); a scale the capacity probe chooses later is not
	 * foreseen.
	 */
	public static Progress of(Grid grid, TimeScale scale, boolean crossCheck, List<Planned> planned, PrintStream out) {
		Duration check = crossCheck ? grid.warmup().plus(LoadRun.SETTLE).plus(grid.duration()).plusSeconds(1)
				: Duration.ZERO;
		Collection<List<Planned>> deployments = planned.stream()
			.collect(Collectors.groupingBy((p) -> List.of(p.vendor(), p.topology(), p.stack(), p.threads(), p.pooled()),
					LinkedHashMap::new, Collectors.toList()))
			.values();
		List<Long> runs = deployments.stream()
			.flatMap((mine) -> LoadRun.rounds(mine)
				.stream()
				.map((round) -> LoadRun
					.segments(grid, scale, round, mine.stream().mapToInt(Planned::poolSize).max().orElseThrow())
					.get(round.size() - 1)
					.end()
					.plus(check.multipliedBy(round.size()))
					.toNanos()))
			.toList();
		return new Progress(planned.size(), deployments.size(), runs, out);
	}

	public void deployed(long nanos) {
		this.deployNanos += nanos;
		this.deployments++;
		this.deploymentsLeft = Math.max(0, this.deploymentsLeft - 1);
	}

	/** A deployment that was not planned: instances started again after one died. */
	public void redeploying() {
		this.deploymentsLeft++;
	}

	/** A run that will measure generator-bound or unverified points once more. */
	public void expectAgain(long scheduleNanos) {
		this.againNanos += scheduleNanos;
		this.againRuns++;
	}

	/** A run's points, printed once the run has ended. */
	public void ran(List<Point> points, long nanos, String loadBalancer) {
		int planned = Math.min(this.runsDone, this.plannedRunNanos.size() - 1);
		this.overheadNanos += Math.max(0, nanos - this.plannedRunNanos.get(Math.max(0, planned)));
		this.runsDone++;
		int first = this.done;
		// Counted before printing: the run's time covers all of its points.
		this.done += points.size();
		long eta = etaNanos();
		for (int i = 0; i < points.size(); i++) {
			print(points.get(i), first + i + 1, loadBalancer, eta);
		}
	}

	/** Points measured once more: they replace points already counted. */
	public void again(List<Point> points, long nanos, String loadBalancer) {
		if (this.againRuns > 0) {
			this.againRuns--;
			this.againNanos = Math.max(0, this.againNanos - nanos);
		}
		long eta = etaNanos();
		points.forEach((point) -> print(point, this.done, loadBalancer, eta));
	}

	long etaNanos() {
		long meanOverhead = this.overheadNanos / Math.max(1, this.runsDone);
		long load = 0;
		for (int i = this.runsDone; i < this.plannedRunNanos.size(); i++) {
			load += this.plannedRunNanos.get(i) + meanOverhead;
		}
		long again = this.againNanos + (long) this.againRuns * meanOverhead;
		long deploys = (this.deployments > 0) ? this.deployNanos / this.deployments * this.deploymentsLeft : 0;
		return load + again + deploys;
	}

	/**
	 * The measured hold beside the asked one, e.g. {@code  hold 10.1/11.2 ms (asked 10)}
	 * (mean/p99; the mean alone where the p99 was not measured), and a warning when its
	 * mean is more than 10 % off the asked (its p99 25 %, where one was asked: a constant
	 * hold has none, and its measured p99 is the jitter around it).
	 */
	static String hold(Point point) {
		Double mean = point.pool().holdMeanMs();
		Double p99 = point.pool().holdP99Ms();
		if (mean == null) {
			return "";
		}
		if (p99 == null) {
			// A team's app whose usage timer publishes no buckets: the pre-flight said
			// which property turns them on.
			return String.format(Locale.ROOT, "  hold %.1f ms mean, p99 not measured (no histogram)", mean);
		}
		EmulatedHold asked = point.limits().hold();
		String measured = String.format(Locale.ROOT, "  hold %.1f/%.1f ms", mean, p99) + point.databaseCpuMsPerRequest()
			.stream()
			.mapToObj((ms) -> String.format(Locale.ROOT, " (db CPU %.2f ms/req)", ms))
			.findFirst()
			.orElse("");
		if (asked == null) {
			return measured;
		}
		Double askedMean = asked.askedMeanMs();
		if (askedMean == null) {
			return measured + " (asked " + asked.describe() + ")";
		}
		Double askedP99 = asked.askedP99Ms();
		String off = "";
		if (Math.abs(mean - askedMean) > 0.10 * askedMean) {
			off = String.format(Locale.ROOT, " MEAN %+.0f%% OFF THE ASKED", 100 * (mean / askedMean - 1));
		}
		else if (askedP99 != null && Math.abs(p99 - askedP99) > 0.25 * askedP99) {
			off = String.format(Locale.ROOT, " P99 %+.0f%% OFF THE ASKED", 100 * (p99 / askedP99 - 1));
		}
		return measured + " (asked " + ((asked.cpuMs() != null) ? asked.describe() : asked.describeWaiting()) + ")"
				+ off;
	}

	private void print(Point point, int index, String loadBalancer, long etaNanos) {
		Duration eta = Duration.ofNanos(etaNanos);
		String failures = Failures.describe(point.failureCauses(), point.refusals());
		this.out.printf(Locale.ROOT,
				"[%2d/%d] %-9s x%d %-20s (%s)  pool %4s  %5d rps  -> %7.1f rps  p50 %4.0f  p99 %5.0f  max %5.0f ms%s  server p99 %s ms  err %5.2f%%%s  pool %s  acq p99 %.2f ms%s  JMeter %.2f cores%s  %s  ETA %s%n",
				Math.min(index, this.total), this.total, point.topology(), point.instances(),
				Deployment.NONE.equals(loadBalancer) ? "(no load balancer)" : "(" + loadBalancer + ")",
				point.limits().describe(), SweepResults.poolLabel(point.poolSize()), point.rateRps(),
				point.achievedRps(), point.latency().p50Ms(), point.latency().p99Ms(), point.latency().maxMs(),
				// Both figures of a slowed point: the team's time above, the lab's here.
				(point.labLatency() != null)
						? " (k = %d, measured p99 %.0f ms)".formatted(point.timeScale(), point.labLatency().p99Ms())
						: "",
				(point.serverP99Ms() >= 0) ? "%.1f".formatted(point.serverP99Ms()) : "-", point.errorPercent(),
				failures.isEmpty() ? "" : " (" + failures + ")", point.pool().observedMax(),
				point.pool().acquireP99Ms(), hold(point), point.loadGeneratorCpuCores(),
				((point.startLagP99Ms() >= 0) ? ", late p99 %.0f ms".formatted(point.startLagP99Ms()) : "")
						+ (point.engines().isEmpty() ? "" : " (" + EngineLoad.describe(point.engines()) + ")"),
				point.ok() ? "ok" : point.outcome(), Durations.human(eta));
	}

}

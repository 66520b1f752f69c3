package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import org.poollab.bench.console.Progress;
import org.poollab.bench.deciding.Fate;
import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.deploy.Instance;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.grid.TimeScaleSetting;
import org.poollab.bench.grid.Workload;
import org.poollab.bench.load.CrossCheck;
import org.poollab.bench.load.GeneratorCheck;
import org.poollab.bench.load.JMeter;
import org.poollab.bench.load.LoadRun;
import org.poollab.bench.load.SlowMotion;
import org.poollab.bench.load.TeamTime;
import org.poollab.bench.results.Capacity;
import org.poollab.bench.results.CrossCheckResult;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SweepResults;

/**
 * The points of one deployment: a topology at one Tomcat thread count, from its start to
 * its end. Each repeat is a round through every pool size (largest first, so a drowning
 * small pool comes last) at every rate (lowest first), in one JMeter run; rounds
 * interleave repeats, so drift hits every pool size alike. Points the generator could not
 * hold are measured once more at the end, then {@link AdaptiveEffort} settles the
 * decision when it is not.
 */
final class TopologyRun {

	private final SweepContext sweep;

	private final List<Planned> mine;

	private final Planned first;

	private final JMeter jmeter;

	/** The points' runs, at the time scale the deployment runs at. */
	private PointRuns runs;

	/**
	 * The time scale the deployment runs at: chosen once it is known what the box
	 * carries.
	 */
	private TimeScale scale = TimeScale.NONE;

	private final Deployer deployer;

	private final TopologyCapacity capacity;

	TopologyRun(SweepContext sweep, List<Planned> mine) {
		this.sweep = sweep;
		this.mine = mine;
		this.first = mine.get(0);
		this.jmeter = sweep.jmeter();
		this.runs = new PointRuns(sweep, new LoadRun(sweep.grid(), this.jmeter, sweep.out()));
		this.deployer = new Deployer(sweep);
		this.capacity = new TopologyCapacity(sweep, mine);
	}

	void run(HostCeiling ceiling, Capacities capacities) throws IOException, InterruptedException {
		Path loadDirectory = this.sweep.loadDirectory();
		int largestPool = this.mine.stream().mapToInt(Planned::poolSize).max().orElseThrow();
		Progress progress = this.sweep.progress();
		runAt(this.capacity.probes() ? TimeScale.NONE : fixedScale(this.sweep.properties().load().timeScaleSetting()));
		long deployStarted = System.nanoTime();
		Deployment deployment = this.deployer.deploy(this.first, largestPool, this.scale);
		progress.deployed(System.nanoTime() - deployStarted);
		int runs = 0;
		Set<Planned> killedOnce = new HashSet<>();
		try {
			ceiling.measureOnce(this.sweep, this.jmeter, deployment, loadDirectory);
			Optional<Deployment> atScale = atTimeScale(deployment, capacities, largestPool);
			if (atScale.isEmpty()) {
				return;
			}
			deployment = atScale.get();
			for (List<Planned> round : LoadRun.rounds(this.mine)) {
				List<Planned> todo = round;
				while (!todo.isEmpty()) {
					if (!deployment.deadInstances().isEmpty()) {
						// An instance died in the last run (or between runs): fresh
						// instances for the points left.
						deployment.close();
						this.sweep.out().println("  Starting the topology again for the next points.");
						progress.redeploying();
						long redeployStarted = System.nanoTime();
						deployment = this.deployer.deploy(this.first, largestPool, this.scale);
						progress.deployed(System.nanoTime() - redeployStarted);
					}
					this.sweep.emptyWrittenTable();
					List<Planned> ran = todo;
					String runId = this.first.deploymentLabel() + "-run" + (++runs);
					LoadRun.Result result = runPoints(todo, deployment, loadDirectory, runId);
					if (this.sweep.properties().load().crossCheck()) {
						crossCheck(result.measured(), deployment, loadDirectory, runId);
					}
					todo = result.leftover();
					for (Instance dead : deployment.deadInstances()) {
						this.sweep.out()
							.printf("  Instance %d died (%s); its log: %s%n", dead.port(), dead.deathCause(),
									dead.keepLog(runId));
					}
					todo = againIfKilledFromOutside(result, ran, todo, killedOnce);
				}
			}
			remeasure(deployment, loadDirectory, this.first.deploymentLabel() + "-again");
			new AdaptiveEffort(this.sweep, this.runs).settle(this.first, deployment, loadDirectory);
		}
		finally {
			deployment.close();
			this.sweep.emptyWrittenTable();
		}
	}

	/**
	 * The time scale a fixed {@code bench.timeScale} sets; {@code auto} runs at the
	 * team's time where nothing is probed.
	 */
	static TimeScale fixedScale(TimeScaleSetting setting) {
		return (setting instanceof TimeScaleSetting.Fixed fixed) ? fixed.scale() : TimeScale.NONE;
	}

	/** Said once per topology that runs slowed. */
	static String slowMotion(TimeScale scale) {
		int k = scale.factor();
		return "  running in slow motion: k = %d, rates ÷ %d, holds and connection-timeout × %d; latencies shown in your time"
			.formatted(k, k, k);
	}

	/** The deployment's points run at this time scale from now on. */
	private void runAt(TimeScale chosen) {
		this.scale = chosen;
		this.runs = new PointRuns(this.sweep, new LoadRun(this.sweep.grid(), chosen, this.jmeter, this.sweep.out()));
	}

	/**
	 * The deployment the grid runs on: this one, or fresh instances in slow motion when
	 * the box needs it (they hold x k and time out x k from their start); empty when the
	 * box cannot carry the question at the time scale allowed, which is said in one line
	 * and measures nothing of the topology.
	 */
	private Optional<Deployment> atTimeScale(Deployment deployment, Capacities capacities, int largestPool)
			throws IOException, InterruptedException {
		if (!this.capacity.probes()) {
			if (this.scale.slowed()) {
				this.sweep.out().println(slowMotion(this.scale));
			}
			return Optional.of(deployment);
		}
		SlowMotion.Choice choice = this.capacity.probe(deployment, capacities);
		if (!choice.runs()) {
			this.sweep.out().println("  " + this.first.deploymentLabel() + ": " + choice.why() + ".");
			return Optional.empty();
		}
		this.sweep.out().println("  " + choice.why() + ".");
		if (choice.timeScale() == 1) {
			return Optional.of(deployment);
		}
		List<Capacity> all = capacities.all();
		runAt(new TimeScale(choice.timeScale(), all.get(all.size() - 1).overheadMs()));
		deployment.close();
		this.sweep.out()
			.printf("  Starting %s again in slow motion (k = %d): its instances hold and time out x %d from their start.%n",
					this.first.deploymentLabel(), this.scale.factor(), this.scale.factor());
		this.sweep.out().println(slowMotion(this.scale));
		Progress progress = this.sweep.progress();
		progress.redeploying();
		long started = System.nanoTime();
		Deployment slowed = this.deployer.deploy(this.first, largestPool, this.scale);
		progress.deployed(System.nanoTime() - started);
		return Optional.of(slowed);
	}

	/**
	 * A point whose instance was ended from outside (a signal, no cause in its log) says
	 * nothing about its pool size: it is taken out of the results and measured again
	 * first on the fresh instances, once. Killed from outside again, it stays, marked so,
	 * and every verdict leaves it out.
	 * @param ran the points the run was given, in order (its measured points are the
	 * first)
	 * @return the points still to measure
	 */
	private List<Planned> againIfKilledFromOutside(LoadRun.Result result, List<Planned> ran, List<Planned> todo,
			Set<Planned> killedOnce) throws IOException {
		if (result.measured().isEmpty()) {
			return todo;
		}
		Point last = result.measured().get(result.measured().size() - 1);
		if (!last.outcome().startsWith(LoadRun.KILLED_FROM_OUTSIDE)) {
			return todo;
		}
		Planned planned = ran.get(result.measured().size() - 1);
		if (!killedOnce.add(planned)) {
			this.sweep.out()
				.printf("  Pool %s at %d rps: killed from outside twice; left out of every verdict.%n",
						SweepResults.poolLabel(planned.poolSize()), planned.rateRps());
			return todo;
		}
		SweepResults results = this.sweep.results();
		results.points().remove(results.points().lastIndexOf(last));
		this.sweep.store().write(results);
		this.sweep.out()
			.printf("  Pool %s at %d rps: the instance was ended from outside (a signal, no cause in its log), not by the load: measuring it again on fresh instances.%n",
					SweepResults.poolLabel(planned.poolSize()), planned.rateRps());
		List<Planned> again = new ArrayList<>();
		again.add(planned);
		again.addAll(todo);
		return again;
	}

	private LoadRun.Result runPoints(List<Planned> todo, Deployment deployment, Path loadDirectory, String runId)
			throws IOException, InterruptedException {
		Progress progress = this.sweep.progress();
		LoadRun.Result result = this.runs.measure(todo, deployment, loadDirectory, runId,
				(measured, nanos) -> progress.ran(measured, nanos, deployment.loadBalancer()));
		long again = result.measured().stream().filter(TopologyRun::measureAgain).count();
		if (again > 0) {
			// measured once more at the end of the deployment: one more run
			progress.expectAgain(this.sweep.grid()
				.warmup()
				.plus(this.sweep.grid().duration().plus(LoadRun.SETTLE).multipliedBy(again))
				.toNanos());
		}
		this.sweep.results().points().addAll(result.measured());
		this.sweep.store().write(this.sweep.results());
		return result;
	}

	/**
	 * Whether a point is measured once more at the end of its deployment: its window
	 * measured the generator, or its pool was not at the point's size (the lab's setup of
	 * the point failed, not the service: on a busy machine a resize sent while the load
	 * runs can land in the window, as fresh-clone test runs beside two other test JVMs
	 * showed, building-and-testing.md). Either way the window says nothing of the pool it
	 * claims.
	 */
	static boolean measureAgain(Point point) {
		return GeneratorCheck.generatorBound(point) || Fate.of(point) == Fate.UNVERIFIED;
	}

	/**
	 * Points {@link #measureAgain} picks are measured once more, in one run of their own;
	 * the second measurement replaces the first, which stays in the run's JTLs. What is
	 * still generator-bound or unverified then stays so.
	 */
	private void remeasure(Deployment deployment, Path loadDirectory, String runId)
			throws IOException, InterruptedException {
		SweepResults results = this.sweep.results();
		List<Integer> indexes = new ArrayList<>();
		List<Planned> again = new ArrayList<>();
		for (int i = 0; i < results.points().size(); i++) {
			Point point = results.points().get(i);
			if (measureAgain(point)) {
				this.mine.stream()
					.filter((planned) -> planned.topology().label().equals(point.topology())
							&& planned.poolSize() == point.poolSize() && planned.rateRps() == point.rateRps()
							&& planned.repeat() == point.repeat()
							&& this.sweep.grid()
								.limits(planned.vendor(), planned.stack(), planned.threads())
								.equals(point.limits()))
					.findFirst()
					.ifPresent((planned) -> {
						indexes.add(results.points().indexOf(point));
						again.add(planned);
					});
			}
		}
		if (again.isEmpty() || !deployment.deadInstances().isEmpty()) {
			return;
		}
		this.sweep.out()
			.printf("  %d point(s) measured the generator (JMeter fell behind its schedule) or a pool not at its size: "
					+ "measuring them once more.%n", again.size());
		int run = 0;
		for (List<Planned> sameRate : LoadRun.rounds(again)) {
			if (!deployment.deadInstances().isEmpty()) {
				return;
			}
			this.sweep.emptyWrittenTable();
			String id = runId + ((run++ > 0) ? "-" + run : "");
			LoadRun.Result result = this.runs.measure(sameRate, deployment, loadDirectory, id,
					(measured, nanos) -> this.sweep.progress().again(measured, nanos, deployment.loadBalancer()));
			for (int i = 0; i < result.measured().size(); i++) {
				int index = indexes.get(again.indexOf(sameRate.get(i)));
				CrossCheckResult check = results.points().get(index).crossCheck();
				Point remeasured = result.measured().get(i);
				// The first try's cross-check measured this deployment, pool and rate.
				results.points().set(index, (check != null) ? remeasured.withCrossCheck(check) : remeasured);
			}
			this.sweep.store().write(results);
		}
	}

	/**
	 * {@code bench.crossCheck}: every point the run measured, measured again at once on
	 * the same deployment, pool size and rate by the independent open-loop generator
	 * ({@link org.poollab.bench.load.CrossCheck}), its figures kept beside JMeter's.
	 * Stops at the first dead instance: what is left is the death's to report.
	 */
	private void crossCheck(List<Point> measured, Deployment deployment, Path loadDirectory, String runId)
			throws IOException, InterruptedException {
		SweepResults results = this.sweep.results();
		List<String> urls = deployment.urls(Workload.READ.uri);
		for (Point point : measured) {
			if (!deployment.deadInstances().isEmpty()) {
				return;
			}
			if (point.poolSize() != deployment.poolSize()) {
				deployment.resize(point.poolSize());
			}
			String name = "%s-check-pool%s-%drps".formatted(runId, SweepResults.poolLabel(point.poolSize()),
					point.rateRps());
			TimeScale scale = TeamTime.scaleOf(point);
			CrossCheck.Load load = CrossCheck.Load.of(urls, point.rateRps(), scale, this.sweep.grid().arrivals(),
					this.sweep.grid().warmup().plus(LoadRun.SETTLE), this.sweep.grid().duration());
			// Judged as the point: both in the team's time.
			Latency labJMeter = (point.labLatency() != null) ? point.labLatency() : point.latency();
			CrossCheckResult check = TeamTime.crossCheck(CrossCheck.run(this.sweep.paths(), load,
					loadDirectory.resolve(name + ".log"), this.sweep.processes(), labJMeter), scale, labJMeter);
			int index = results.points().indexOf(point);
			results.points().set(index, point.withCrossCheck(check));
			this.sweep.store().write(results);
			this.sweep.out()
				.printf(Locale.ROOT,
						"    cross-check, pool %s at %d rps: p50 %.1f / p99 %.1f ms (sent %.0f rps, send lag p99 %.1f ms, %d errors) against JMeter's %.0f / %.0f ms: %s%n",
						SweepResults.poolLabel(point.poolSize()), point.rateRps(), check.p50Ms(), check.p99Ms(),
						check.sentRps(), check.sendLagP99Ms(), check.errors(), point.latency().p50Ms(),
						point.latency().p99Ms(),
						check.agrees() ? "agree" : "DISAGREE (not within " + CrossCheckResult.tolerance() + ")");
		}
	}

}

package org.poollab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

import org.poollab.bench.Grid.Planned;
import org.poollab.bench.SweepResults.Limits;
import org.poollab.bench.SweepResults.Point;
import org.poollab.bench.SweepResults.Pool;
import org.poollab.bench.acquire.AcquireCostBenchmark;
import org.poollab.bench.report.Failures;
import org.poollab.bench.report.Recommendation;
import org.poollab.bench.report.Report;
import org.poollab.bench.report.ReportMain;

/**
 * The experiment, one way through: grid, deploy, load, collect, report. Everything it
 * checks is checked before anything starts; everything it starts is stopped on the way
 * out, whatever the way out is.
 */
final class Sweep {

	private final Grid grid;

	private final BenchProperties properties;

	private final LabPaths paths;

	private final PrintStream out;

	/**
	 * Every instance's actuator address (host,port per line) for the exploring plan,
	 * beside the deployment's targets file.
	 */
	static final String ACTUATORS_FILE = "actuators.csv";

	/** The embedded PostgreSQL's own log, in the run's directory. */
	static final String POSTGRES_LOG = "postgres.log";

	/** HikariCP's {@code maximumPoolSize} when none is configured. */
	static final int HIKARI_DEFAULT_POOL_SIZE = 10;

	/** Topology warm-ups run so far, for the time account. */
	private final List<SweepResults.WarmUpRecord> warmUps = new ArrayList<>();

	/** Adaptive effort per topology, for the time account. */
	private final List<SweepResults.Settling> settling = new ArrayList<>();

	/** The load generator's ceiling here, once measured (on the first deployment). */
	private OptionalInt generatorCeilingRps = OptionalInt.empty();

	private boolean generatorCeilingMeasured;

	Sweep(Grid grid, BenchProperties properties, LabPaths paths, PrintStream out) {
		this.grid = grid;
		this.properties = properties;
		this.paths = paths;
		this.out = out;
	}

	/**
	 * What a finished sweep leaves behind.
	 *
	 * @param results what was measured
	 * @param directory the run's directory
	 * @param recommendations the report's recommendation per topology
	 * @param processIds every process the sweep started (all stopped by now)
	 */
	record Outcome(SweepResults results, Path directory, List<Recommendation> recommendations, List<Long> processIds) {
	}

	Outcome run() throws IOException, InterruptedException, SQLException {
		// 1. Grid and environment, checked before anything starts.
		Optional<Path> pgbouncer = pgbouncerFor(this.grid.topologies());
		List<Planned> planned = this.grid.points()
			.stream()
			.filter((point) -> point.topology() != Topology.PGBOUNCER || pgbouncer.isPresent())
			.toList();
		if (planned.isEmpty()) {
			throw new BenchSettingException(
					"Nothing left to measure: bench.topologies=%s and bench.poolSizes=%s leave no point (pgbouncer always pools, so it has no 'none' point)."
						.formatted(this.grid.topologies().stream().map(Topology::label).toList(),
								this.grid.poolSizes().stream().map(SweepResults::poolLabel).toList()));
		}
		if (this.properties.crossCheck() && this.grid.workload() != Workload.READ) {
			throw new BenchSettingException(
					"bench.crossCheck=true is not allowed with bench.workload=%s: the independent generator sends GET %s only; use the read workload"
						.formatted(this.grid.workload().name().toLowerCase(java.util.Locale.ROOT), Workload.READ.uri));
		}
		int mostInstances = this.grid.topologies().stream().mapToInt(this.grid::instancesOf).max().orElse(1);
		new Ports(this.properties.basePort(), mostInstances).requireFree();
		Optional<Path> nginx = loadBalancer(mostInstances);
		Database.Settings settings = this.properties.database().configured() ? externalSettings()
				: Database.embeddedSettings();
		requireBudget(settings);
		JMeter.requireEvenSplit(this.grid.rates(), remoteEngines());
		JMeter.requireLoopback(remoteEngines());
		CpuPinning pinning = pinning();

		Instant startedAt = Instant.now();
		ResultsStore store = ResultsStore.create(this.properties.outputDirectory(), startedAt);
		this.out.printf(Locale.ROOT,
				"Sweep '%s': %d points (%s x %spools %s x rates %s rps x %d repeat(s)), workload %s, %s arrivals, %s load each + %s warm-up.%nInstances: %s.%nResults: %s%n",
				this.grid.preset().label(), planned.size(),
				planned.stream().map((point) -> point.topology().label()).distinct().toList(), tomcatThreadsDimension(),
				this.grid.poolSizes().stream().map(SweepResults::poolLabel).toList(), this.grid.rates(),
				this.grid.repeats(), this.grid.workload().label(), this.grid.arrivals().label(),
				human(this.grid.duration()), human(this.grid.warmup()), this.grid.limits(0).describe(),
				store.directory());

		List<Point> points = new ArrayList<>();
		SweepResults results = null;
		try (ChildProcesses processes = new ChildProcesses()) {
			try {
				// 2. Deploy: one database for the whole sweep.
				try (Database database = startDatabase(store.directory(), processes)) {
					requireBudget(database.settings());
					results = new SweepResults(startedAt, this.grid.preset().label(),
							new SweepResults.Host(Runtime.getRuntime().availableProcessors(),
									new JMeter(this.paths, remoteEngines(), this.grid.workload()).description()),
							database.describe(), this.properties.p99Objective().toMillis(),
							this.grid.workload().label(), points);
					Progress progress = new Progress(planned.size(),
							(int) planned.stream()
								.map((p) -> List.of(p.topology(), p.tomcatThreads(), p.pooled()))
								.distinct()
								.count(),
							plannedRounds(planned), this.out);
					for (Topology topology : this.grid.topologies()) {
						// Tomcat fixes its thread count at start, and a service either
						// has a pool or not: fresh instances for each.
						for (int tomcatThreads : this.grid.tomcatThreads()) {
							for (boolean pooled : List.of(false, true)) {
								List<Planned> mine = planned.stream()
									.filter((p) -> p.topology() == topology && p.tomcatThreads() == tomcatThreads
											&& p.pooled() == pooled)
									.toList();
								if (!mine.isEmpty()) {
									try {
										runTopology(mine, nginx, pgbouncer, pinning, database, store, results, progress,
												processes);
									}
									catch (RuntimeException | IOException ex) {
										// The lab's PostgreSQL gone is the cause, not
										// what failed first.
										Optional<String> exit = processes.stopping() ? Optional.empty()
												: database.exit();
										if (exit.isPresent()) {
											throw databaseExited(exit.get(), ex, store.directory(), points.size());
										}
										throw ex;
									}
								}
							}
						}
					}
					// 4b. Confirm: each answer's block run as pasted.
					results = results
						.withConfirmations(confirm(results, planned, nginx, pinning, database, store, processes));
					store.write(results);
					if (this.grid.acquireCost()) {
						measureAcquireCost(database, store.directory());
					}
				}
			}
			finally {
				if (results != null) {
					results = results.withTiming(timing(startedAt, points));
					if (this.generatorCeilingRps.isPresent()) {
						results = results
							.withHost(results.host().withGeneratorCeiling(this.generatorCeilingRps.getAsInt()));
					}
				}
				if (results != null && !points.isEmpty() && !processes.stopping()) {
					// 5a. JMeter's own dashboards of the points that decide.
					try {
						Dashboards.generate(this.paths, store.directory(), Report.deciding(results), processes,
								this.out);
					}
					catch (IOException | RuntimeException ex) {
						this.out.println("  JMeter's dashboards were not generated: " + ex.getMessage());
					}
				}
				processes.stopAll();
				if (results != null && !points.isEmpty()) {
					store.write(results);
				}
			}
			// 5. Report.
			List<Recommendation> recommendations = Report.write(results, store.directory());
			this.out.print(ConsoleTables.render(results));
			printTiming(results.timing());
			printRecommendation(store.directory(), recommendations);
			return new Outcome(results, store.directory(), recommendations, processes.everStarted());
		}
	}

	/**
	 * The lab's database is gone: every point left would measure refusals, so the sweep
	 * ends, saying so instead of what failed first because of it (typically the next
	 * resize), where the finished points are and how to get their report.
	 * @param exit how the database ended
	 * @param failure what failed because of it
	 * @param directory the run's directory
	 * @param finishedPoints the points kept in its results
	 */
	static LabFailureException databaseExited(String exit, Exception failure, Path directory, int finishedPoints) {
		String kept = (finishedPoints > 0)
				? "%d finished point(s) are kept in %s; rebuild the report from them with:%n  %s".formatted(
						finishedPoints, directory.resolve(ResultsStore.RESULTS_JSON), ReportMain.command(directory))
				: "No point had finished.";
		return new LabFailureException("%s%nEvery point needs it, so the sweep stopped (what failed then: %s).%n%s"
			.formatted(exit, failure.getMessage(), kept), failure);
	}

	/**
	 * Starts a deployment and keeps it running for exploration (the JMeter GUI) until the
	 * JVM is stopped with Ctrl-C, which stops everything it started.
	 */
	void serve(Topology topology) throws IOException, InterruptedException, SQLException {
		int instances = this.grid.instancesOf(topology);
		Optional<Path> pgbouncer = pgbouncerFor(List.of(topology));
		if (topology == Topology.PGBOUNCER && pgbouncer.isEmpty()) {
			throw new BenchSettingException(
					"bench.serve=pgbouncer, but pgbouncer is not installed (apt-get install pgbouncer)");
		}
		Ports ports = new Ports(this.properties.basePort(), instances);
		ports.requireFree();
		Optional<Path> nginx = loadBalancer(instances);
		Database.Settings settings = this.properties.database().configured() ? externalSettings()
				: Database.embeddedSettings();
		// Exploring starts from HikariCP's own default unless a size is given: the
		// preset's smallest (often 1) would look broken under any real load.
		int poolSize = (this.properties.poolSizes() != null) ? this.grid.poolSizesOf(topology).get(0)
				: HIKARI_DEFAULT_POOL_SIZE;
		Database.requireBudget(settings, (topology == Topology.PGBOUNCER) ? 1 : instances, poolSize);
		CpuPinning pinning = pinning();
		Limits limits = this.grid.limits(this.grid.tomcatThreads().get(0));
		Path directory = Files.createDirectories(this.properties.outputDirectory().toAbsolutePath().resolve("serve"));
		ChildProcesses processes = new ChildProcesses();
		Database database = startDatabase(directory, processes);
		Deployment deployment = Deployment.start(
				new Deployment.Plan(topology, topology.label(), instances, poolSize,
						this.grid.pgbouncerClientPoolSize(), limits, pinning, ports, nginx, pgbouncer),
				this.paths, database, directory, processes, this.out);
		this.out.printf(Locale.ROOT,
				"%n%s deployment running: %d instance(s), pool %s, %s, %s.%nTargets file for JMeter: %s%n",
				topology.label(), instances, SweepResults.poolLabel(poolSize), limits.describe(),
				Deployment.describe(deployment.loadBalancer()), deployment.targets());
		deployment.instances()
			.forEach((instance) -> this.out.printf(
					"  instance %s  actuator %s, %s%n    resize: curl -XPOST -H 'Content-Type: application/json' -d '{\"maximumPoolSize\":8}' %s%n",
					instance.uri("/roles"), instance.actuator("health"), instance.actuator("prometheus"),
					instance.actuator("poolsize")));
		// The exploring plan reads every instance's pool gauges from its actuator.
		Path actuators = deployment.targets().resolveSibling(ACTUATORS_FILE);
		Files.writeString(actuators,
				deployment.instances()
					.stream()
					.map((instance) -> instance.actuator(""))
					.map((actuator) -> actuator.getHost() + "," + actuator.getPort() + "\n")
					.collect(Collectors.joining()));
		this.out.printf(
				"Open the exploring plan in the JMeter GUI:%n  ./mvnw -Pgui -Djmeter.targets=%s -Djmeter.actuators=%s%nPress Ctrl-C to stop everything.%n",
				deployment.targets(), actuators);
		Thread.currentThread().join();
	}

	/**
	 * Runs the points of one deployment: a topology at one Tomcat thread count. Each
	 * repeat is a round through every pool size (largest first, so a drowning small pool
	 * comes last) at every rate (lowest first), in one JMeter run; rounds interleave
	 * repeats, so drift hits every pool size alike. Points the generator could not hold
	 * are measured once more at the end.
	 */
	private void runTopology(List<Planned> mine, Optional<Path> nginx, Optional<Path> pgbouncer, CpuPinning pinning,
			Database database, ResultsStore store, SweepResults results, Progress progress, ChildProcesses processes)
			throws IOException, InterruptedException {
		Planned first = mine.get(0);
		JMeter jmeter = new JMeter(this.paths, remoteEngines(), this.grid.workload());
		LoadRun load = new LoadRun(this.grid, jmeter, this.out);
		Ports ports = new Ports(this.properties.basePort(), first.instances());
		Path loadDirectory = Files.createDirectories(store.directory().resolve("load"));
		int largestPool = mine.stream().mapToInt(Planned::poolSize).max().orElseThrow();
		long deployStarted = System.nanoTime();
		Deployment deployment = deploy(first, largestPool, ports, nginx, pgbouncer, pinning, database, store, jmeter,
				processes);
		progress.deployed(System.nanoTime() - deployStarted);
		int runs = 0;
		Set<Planned> killedOnce = new HashSet<>();
		try {
			measureGeneratorCeiling(jmeter, deployment, loadDirectory, processes);
			List<List<Planned>> rounds = rounds(mine);
			for (int r = 0; r < rounds.size(); r++) {
				List<Planned> todo = rounds.get(r);
				while (!todo.isEmpty()) {
					if (!deployment.deadInstances().isEmpty()) {
						// An instance died in the last run (or between runs): fresh
						// instances for the points left.
						deployment.close();
						this.out.println("  Starting the topology again for the next points.");
						progress.redeploying();
						long redeployStarted = System.nanoTime();
						deployment = deploy(first, largestPool, ports, nginx, pgbouncer, pinning, database, store,
								jmeter, processes);
						progress.deployed(System.nanoTime() - redeployStarted);
					}
					emptyWrittenTable(database);
					List<Planned> ran = todo;
					LoadRun.Result result = runPoints(load, todo, deployment, loadDirectory,
							first.deploymentLabel() + "-run" + (++runs), progress, processes, results, store, database);
					if (this.properties.crossCheck()) {
						crossCheck(result.measured(), deployment, loadDirectory,
								first.deploymentLabel() + "-run" + runs, results, store, processes);
					}
					todo = result.leftover();
					for (Instance dead : deployment.deadInstances()) {
						this.out.printf("  Instance %d died (%s); its log: %s%n", dead.port(), dead.deathCause(),
								dead.keepLog(first.deploymentLabel() + "-run" + runs));
					}
					todo = againIfKilledFromOutside(result, ran, todo, results, store, killedOnce);
				}
			}
			remeasureGeneratorBound(load, mine, deployment, loadDirectory, first.deploymentLabel() + "-again", progress,
					processes, results, store, database);
			settle(load, first, deployment, loadDirectory, progress, processes, results, store, database);
		}
		finally {
			deployment.close();
			emptyWrittenTable(database);
		}
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
			SweepResults results, ResultsStore store, Set<Planned> killedOnce) throws IOException {
		if (result.measured().isEmpty()) {
			return todo;
		}
		Point last = result.measured().get(result.measured().size() - 1);
		if (!last.outcome().startsWith(LoadRun.KILLED_FROM_OUTSIDE)) {
			return todo;
		}
		Planned planned = ran.get(result.measured().size() - 1);
		if (!killedOnce.add(planned)) {
			this.out.printf("  Pool %s at %d rps: killed from outside twice; left out of every verdict.%n",
					SweepResults.poolLabel(planned.poolSize()), planned.rateRps());
			return todo;
		}
		results.points().remove(results.points().lastIndexOf(last));
		store.write(results);
		this.out.printf(
				"  Pool %s at %d rps: the instance was ended from outside (a signal, no cause in its log), not by the load: measuring it again on fresh instances.%n",
				SweepResults.poolLabel(planned.poolSize()), planned.rateRps());
		List<Planned> again = new ArrayList<>();
		again.add(planned);
		again.addAll(todo);
		return again;
	}

	/** The most extra rounds adaptive effort runs per topology. */
	static final int MAX_SETTLING_ROUNDS = 3;

	/**
	 * Adaptive effort: while the topology's decision is not settled (redone on p99s drawn
	 * from the intervals, it picks the choice less often than 80 %), the cells that
	 * decide it (the choice, its smaller neighbour and the pool picked instead most
	 * often, at the deciding rate) are measured once more as a new repeat, in one JMeter
	 * run of their own on the same warm deployment, until the decision is settled,
	 * {@code bench.adaptiveCap} is spent or {@link #MAX_SETTLING_ROUNDS} rounds ran. The
	 * new repeats narrow those cells' intervals; what it did and cost goes to the time
	 * account and the report.
	 */
	private void settle(LoadRun load, Planned first, Deployment deployment, Path loadDirectory, Progress progress,
			ChildProcesses processes, SweepResults results, ResultsStore store, Database database)
			throws IOException, InterruptedException {
		String topology = first.topology().label();
		Optional<Report.Unsettled> unsettled = Report.unsettled(results, topology);
		if (this.properties.adaptiveCap().isZero() || unsettled.isEmpty() || !first.pooled()) {
			return;
		}
		Report.Unsettled start = unsettled.get();
		long started = System.nanoTime();
		long deadline = started + this.properties.adaptiveCap().toNanos();
		int rounds = 0;
		String end = "settled";
		while (unsettled.isPresent()) {
			Report.Unsettled now = unsettled.get();
			if (rounds == MAX_SETTLING_ROUNDS) {
				end = "rounds";
				break;
			}
			if (System.nanoTime() >= deadline) {
				end = "cap";
				break;
			}
			if (!deployment.deadInstances().isEmpty()) {
				end = "died";
				break;
			}
			int repeat = results.points()
				.stream()
				.filter((point) -> point.topology().equals(topology))
				.mapToInt(Point::repeat)
				.max()
				.orElse(0) + 1;
			List<Planned> todo = now.pools()
				.stream()
				.map((pool) -> new Planned(first.topology(), first.instances(), first.tomcatThreads(), pool,
						now.rateRps(), repeat))
				.toList();
			this.out.printf(Locale.ROOT,
					"  The decision is not settled (pool %d in %.0f %% of redone decisions): measuring pools %s at %d rps once more (repeat %d).%n",
					now.chosen(), 100 * now.probability(), now.pools(), now.rateRps(), repeat);
			emptyWrittenTable(database);
			LoadRun.Result result = announceAndMeasure(load, todo, deployment, loadDirectory,
					first.deploymentLabel() + "-settle" + (++rounds), processes, database,
					(measured, nanos) -> progress.again(measured, nanos, deployment.loadBalancer()));
			results.points().addAll(result.measured());
			store.write(results);
			unsettled = Report.unsettled(results, topology);
		}
		double after = Report.probability(results, topology).orElse(Double.NaN);
		double seconds = (System.nanoTime() - started) / 1e9;
		this.settling.add(new SweepResults.Settling(topology, start.rateRps(), start.pools(), rounds, seconds,
				start.probability(), after, end));
		this.out.printf(Locale.ROOT,
				"  Adaptive effort: %d extra round(s) of pools %s at %d rps, %s; %s (was %.0f %%)%s.%n", rounds,
				start.pools(), start.rateRps(), human(duration(seconds)),
				Double.isNaN(after) ? SweepResults.Settling.NOT_REDRAWN : String.format(Locale.ROOT,
						"the choice is now picked in %.0f %% of redone decisions", 100 * after),
				100 * start.probability(), switch (end) {
					case "settled" -> "";
					case "cap" -> ", stopped by bench.adaptiveCap=" + human(this.properties.adaptiveCap());
					case "rounds" -> ", stopped after " + MAX_SETTLING_ROUNDS + " rounds";
					default -> ", stopped: an instance died";
				});
	}

	/**
	 * Once per sweep, on the first deployment once it is warm: the generator's own
	 * ceiling, and which grid rates are above it. Remote engines' ceiling is theirs, not
	 * this machine's: not measured.
	 */
	private void measureGeneratorCeiling(JMeter jmeter, Deployment deployment, Path directory, ChildProcesses processes)
			throws IOException, InterruptedException {
		if (this.generatorCeilingMeasured || jmeter.distributed()) {
			return;
		}
		this.generatorCeilingMeasured = true;
		int highest = this.grid.rates().stream().mapToInt(Integer::intValue).max().orElseThrow();
		this.generatorCeilingRps = GeneratorCeiling.measure(jmeter, deployment.instances().get(0), highest, directory,
				processes, this.out);
		List<Integer> above = this.grid.rates()
			.stream()
			.filter((rate) -> this.generatorCeilingRps.isEmpty() || rate > this.generatorCeilingRps.getAsInt())
			.toList();
		List<Integer> steps = GeneratorCeiling.steps(highest);
		String ceiling;
		if (this.generatorCeilingRps.isEmpty()) {
			ceiling = "below " + steps.get(0) + " rps, the lowest step tried";
		}
		else if (this.generatorCeilingRps.getAsInt() == steps.get(steps.size() - 1)) {
			ceiling = "at least " + this.generatorCeilingRps.getAsInt() + " rps, the highest step tried";
		}
		else {
			ceiling = this.generatorCeilingRps.getAsInt() + " rps";
		}
		this.out.printf("  JMeter's ceiling here: %s.%s%n", ceiling, above.isEmpty()
				? " Every grid rate is below it; beside a service doing real work on the same cores JMeter may hold less, which each point's own check (late starts, rate sent) shows."
				: " Grid rate(s) " + above
						+ " rps are above it: expect those points to be generator-bound (re-measured once, then left out of every verdict).");
	}

	/**
	 * A deployment's points as JMeter runs: one per repeat and rate (repeats outermost,
	 * so drift hits every pool size alike; rates lowest first), each through every pool
	 * size largest first, so a drowning small pool comes last. A run never changes its
	 * rate: a generator that falls behind at one rate catches up in bursts in the phases
	 * after it (measured: a 2000 rps phase JMeter could not hold sent 1,004 rps into the
	 * next pool's 500 rps window), so a rate it cannot hold must not share a run with one
	 * it can.
	 */
	static List<List<Planned>> rounds(List<Planned> points) {
		Comparator<Planned> order = Comparator.comparingInt(Planned::repeat)
			.thenComparingInt(Planned::rateRps)
			.thenComparing(Comparator.comparingInt(Planned::poolSize).reversed());
		Map<List<Integer>, List<Planned>> runs = points.stream()
			.sorted(order)
			.collect(Collectors.groupingBy((point) -> List.of(point.repeat(), point.rateRps()), LinkedHashMap::new,
					Collectors.toList()));
		return List.copyOf(runs.values());
	}

	private LoadRun.Result runPoints(LoadRun load, List<Planned> todo, Deployment deployment, Path loadDirectory,
			String runId, Progress progress, ChildProcesses processes, SweepResults results, ResultsStore store,
			Database database) throws IOException, InterruptedException {
		LoadRun.Result result = announceAndMeasure(load, todo, deployment, loadDirectory, runId, processes, database,
				(measured, nanos) -> progress.ran(measured, nanos, deployment.loadBalancer()));
		long generatorBound = result.measured().stream().filter(GeneratorCheck::generatorBound).count();
		if (generatorBound > 0) {
			// measured once more at the end of the deployment: one more run
			progress.expectAgain(this.grid.warmup()
				.plus(this.grid.duration().plus(LoadRun.SETTLE).multipliedBy(generatorBound))
				.toNanos());
		}
		results.points().addAll(result.measured());
		store.write(results);
		return result;
	}

	/**
	 * Says what a run will do, runs it, and reports its points with the time it took.
	 * Points run while the lab's database was gone are not reported: they measured its
	 * absence.
	 */
	private LoadRun.Result announceAndMeasure(LoadRun load, List<Planned> points, Deployment deployment,
			Path loadDirectory, String runId, ChildProcesses processes, Database database,
			BiConsumer<List<Point>, Long> report) throws IOException, InterruptedException {
		List<LoadRun.Segment> segments = load.segments(points, deployment.poolSize());
		this.out.printf("  %s: %d point(s) in one JMeter schedule of %s...%n", runId, points.size(),
				human(segments.get(segments.size() - 1).end()));
		long started = System.nanoTime();
		LoadRun.Result result = load.measure(points, deployment, loadDirectory, runId, processes);
		if (database.exit().isPresent()) {
			throw new LabFailureException("%s ran %d point(s) while the database was gone or going; they are not kept"
				.formatted(runId, result.measured().size()));
		}
		report.accept(result.measured(), System.nanoTime() - started);
		return result;
	}

	/**
	 * Points whose window measured the generator are measured once more, in one run of
	 * their own; the second measurement replaces the first, which stays in the run's
	 * JTLs. What is still generator-bound then stays so.
	 */
	private void remeasureGeneratorBound(LoadRun load, List<Planned> mine, Deployment deployment, Path loadDirectory,
			String runId, Progress progress, ChildProcesses processes, SweepResults results, ResultsStore store,
			Database database) throws IOException, InterruptedException {
		List<Integer> indexes = new ArrayList<>();
		List<Planned> again = new ArrayList<>();
		for (int i = 0; i < results.points().size(); i++) {
			Point point = results.points().get(i);
			if (GeneratorCheck.generatorBound(point)) {
				mine.stream()
					.filter((planned) -> planned.topology().label().equals(point.topology())
							&& planned.poolSize() == point.poolSize() && planned.rateRps() == point.rateRps()
							&& planned.repeat() == point.repeat()
							&& this.grid.limits(planned.tomcatThreads()).equals(point.limits()))
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
		this.out.printf(
				"  %d point(s) measured the generator (JMeter fell behind its schedule): measuring them once more.%n",
				again.size());
		int run = 0;
		for (List<Planned> sameRate : rounds(again)) {
			if (!deployment.deadInstances().isEmpty()) {
				return;
			}
			emptyWrittenTable(database);
			String id = runId + ((run++ > 0) ? "-" + run : "");
			LoadRun.Result result = announceAndMeasure(load, sameRate, deployment, loadDirectory, id, processes,
					database, (measured, nanos) -> progress.again(measured, nanos, deployment.loadBalancer()));
			for (int i = 0; i < result.measured().size(); i++) {
				int index = indexes.get(again.indexOf(sameRate.get(i)));
				SweepResults.CrossCheck check = results.points().get(index).crossCheck();
				Point remeasured = result.measured().get(i);
				// The cross-check of the first try measured the same deployment, pool and
				// rate.
				results.points().set(index, (check != null) ? remeasured.withCrossCheck(check) : remeasured);
			}
			store.write(results);
		}
	}

	/**
	 * {@code bench.crossCheck}: every point the run measured, measured again at once on
	 * the same deployment, pool size and rate by the independent open-loop generator
	 * ({@link CrossCheck}), its figures kept beside JMeter's. Stops at the first dead
	 * instance: what is left is the death's to report.
	 */
	private void crossCheck(List<Point> measured, Deployment deployment, Path loadDirectory, String runId,
			SweepResults results, ResultsStore store, ChildProcesses processes)
			throws IOException, InterruptedException {
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
			SweepResults.CrossCheck check = CrossCheck.run(this.paths, urls, point.rateRps(), this.grid.arrivals(),
					this.grid.warmup().plus(LoadRun.SETTLE), this.grid.duration(), loadDirectory.resolve(name + ".log"),
					processes, point.latency());
			int index = results.points().indexOf(point);
			results.points().set(index, point.withCrossCheck(check));
			store.write(results);
			this.out.printf(java.util.Locale.ROOT,
					"    cross-check, pool %s at %d rps: p50 %.1f / p99 %.1f ms (sent %.0f rps, send lag p99 %.1f ms, %d errors) against JMeter's %.0f / %.0f ms: %s%n",
					SweepResults.poolLabel(point.poolSize()), point.rateRps(), check.p50Ms(), check.p99Ms(),
					check.sentRps(), check.sendLagP99Ms(), check.errors(), point.latency().p50Ms(),
					point.latency().p99Ms(), check.agrees() ? "agree" : "DISAGREE (not within 1.5x or 3 ms)");
		}
	}

	/**
	 * The write workload inserts 100 rows per request: every point starts on an empty
	 * table, so points are alike and an external database does not grow run after run.
	 */
	private void emptyWrittenTable(Database database) {
		if (this.grid.workload() != Workload.WRITE) {
			return;
		}
		try (java.sql.Connection connection = database.connect();
				java.sql.Statement statement = connection.createStatement()) {
			statement.execute("TRUNCATE role_audit");
		}
		catch (SQLException ex) {
			throw new LabFailureException("Could not empty role_audit between points: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Starts a topology and warms it up with the pools at the largest size the deployment
	 * will measure (so that a pool of 1 does not queue a cold JVM's slow first requests)
	 * and the load rising from nothing to the grid's highest rate, then held there: a JIT
	 * warmed only to the lowest rate was still compiling at the highest (under wrk one
	 * instance served 3,632 rps after 25 s and 4,706 after 60 s), held until the
	 * instances' own latency settles ({@link WarmUp}). The first round starts at the
	 * largest pool size, so no resize follows.
	 */
	private Deployment deploy(Planned point, int largestPoolSize, Ports ports, Optional<Path> nginx,
			Optional<Path> pgbouncer, CpuPinning pinning, Database database, ResultsStore store, JMeter jmeter,
			ChildProcesses processes) throws IOException, InterruptedException {
		return deploy(point, largestPoolSize, ports, nginx, pgbouncer, pinning, database, store, jmeter, processes,
				Optional.empty(), this.grid.rates());
	}

	/**
	 * Starts a topology and warms it up, replacing instances the warm-up killed.
	 * @param hikariBlock the YAML file every instance reads its HikariCP settings from
	 * (the confirmation run), empty for the sweep's own deployments
	 * @param rates the rates the warm-up steps through, up to the highest
	 */
	private Deployment deploy(Planned point, int largestPoolSize, Ports ports, Optional<Path> nginx,
			Optional<Path> pgbouncer, CpuPinning pinning, Database database, ResultsStore store, JMeter jmeter,
			ChildProcesses processes, Optional<Path> hikariBlock, List<Integer> rates)
			throws IOException, InterruptedException {
		Topology topology = point.topology();
		String label = (hikariBlock.isPresent() ? "confirm-" : "") + point.deploymentLabel()
				+ (point.pooled() ? "" : "-nopool");
		Limits limits = this.grid.limits(point.tomcatThreads());
		String pool = (topology == Topology.PGBOUNCER)
				? "pgbouncer pool %d, HikariCP pools of %d".formatted(largestPoolSize,
						this.grid.pgbouncerClientPoolSize())
				: hikariBlock.isPresent()
						? "pool " + largestPoolSize + " and every HikariCP setting from " + hikariBlock.get()
						: (point.pooled() ? "pool " + largestPoolSize + ", the largest this deployment measures"
								: "no pool: a new connection per request");
		this.out.printf("Starting %s topology (%d instance(s), %s, %s)...%n", topology.label(), point.instances(), pool,
				limits.describe());
		Deployment.Plan plan = new Deployment.Plan(topology, label, point.instances(), largestPoolSize,
				this.grid.pgbouncerClientPoolSize(), limits, pinning, ports, nginx, pgbouncer, hikariBlock);
		Deployment deployment = Deployment.start(plan, this.paths, database, store.directory(), processes, this.out);
		if (this.grid.topologyWarmup().isZero()) {
			return deployment;
		}
		this.warmUps
			.add(WarmUp.run(deployment, label, rates, this.grid.topologyWarmup(), this.properties.p99Objective(),
					this.grid.arrivals(), jmeter, store.directory().resolve("load"), processes, this.out));
		if (deployment.deadInstances().isEmpty()) {
			return deployment;
		}
		// An instance the warm-up killed is no point's failure: a warm-up is not
		// measured.
		// Fresh instances take its place; when the load killed it (not a signal from
		// outside), their warm-up stops below the rate that did.
		boolean fromOutside = deployment.deadInstances().stream().allMatch(Instance::killedFromOutside);
		for (Instance dead : deployment.deadInstances()) {
			this.out.printf("  Instance %d died in the warm-up (%s); its log: %s%n", dead.port(), dead.deathCause(),
					dead.keepLog(label + "-warmup"));
		}
		deployment.close();
		int top = rates.stream().mapToInt(Integer::intValue).max().orElseThrow();
		List<Integer> lower = fromOutside ? rates : rates.stream().filter((rate) -> rate < top).toList();
		if (fromOutside) {
			this.out.printf("  Starting %s again: an instance was ended from outside during the warm-up.%n", label);
		}
		else if (lower.isEmpty()) {
			this.out.printf("  Starting %s again, without a warm-up (no grid rate below %d rps, which killed it).%n",
					label, top);
		}
		else {
			this.out.printf(
					"  Starting %s again, warming up to %d rps only: the points at %d rps will show what that rate does to warm instances.%n",
					label, lower.stream().mapToInt(Integer::intValue).max().getAsInt(), top);
		}
		deployment = Deployment.start(plan, this.paths, database, store.directory(), processes, this.out);
		if (!lower.isEmpty()) {
			this.warmUps
				.add(WarmUp.run(deployment, label, lower, this.grid.topologyWarmup(), this.properties.p99Objective(),
						this.grid.arrivals(), jmeter, store.directory().resolve("load"), processes, this.out));
		}
		return deployment;
	}

	/**
	 * Each topology whose grid chose a pool size is started again with exactly the
	 * recommended block and loaded at the rate it was chosen at
	 * ({@link ConfirmationRun}). A topology swept at several Tomcat thread counts is
	 * confirmed at its first.
	 */
	private List<SweepResults.Confirmation> confirm(SweepResults results, List<Planned> planned, Optional<Path> nginx,
			CpuPinning pinning, Database database, ResultsStore store, ChildProcesses processes)
			throws IOException, InterruptedException {
		if (this.properties.confirmation().isZero() || results.points().isEmpty()) {
			return List.of();
		}
		JMeter jmeter = new JMeter(this.paths, remoteEngines(), this.grid.workload());
		ConfirmationRun confirmation = new ConfirmationRun(this.grid, this.properties.confirmation(), jmeter, this.out);
		List<SweepResults.Confirmation> confirmations = new ArrayList<>();
		List<String> topologies = Report.toConfirm(results, store.directory())
			.stream()
			.map(Report.Block::topology)
			.distinct()
			.toList();
		for (String topology : topologies) {
			Optional<Planned> like = planned.stream()
				.filter((point) -> point.pooled() && point.topology().label().equals(topology))
				.findFirst();
			if (like.isEmpty()) {
				continue;
			}
			// A refuted pool moves the answer to the next one, which is confirmed
			// in turn, up to Report.MAX_CONFIRMATIONS runs per topology.
			for (int run = 0; run < Report.MAX_CONFIRMATIONS; run++) {
				SweepResults sofar = results.withConfirmations(confirmations);
				Optional<Report.Block> next = Report.toConfirm(sofar, store.directory())
					.stream()
					.filter((block) -> block.topology().equals(topology))
					.findFirst();
				if (next.isEmpty() || confirmations.stream()
					.anyMatch((done) -> done.topology().equals(topology)
							&& done.point().poolSize() == next.get().poolSize()
							&& done.point().rateRps() == next.get().rateRps())) {
					break; // nothing to confirm, or its answer was confirmed already
				}
				Report.Block block = next.get();
				Planned point = new Planned(like.get().topology(), like.get().instances(), like.get().tomcatThreads(),
						block.poolSize(), block.rateRps(), 1);
				Ports ports = new Ports(this.properties.basePort(), point.instances());
				SweepResults.Confirmation confirmed = confirmation.run(block, point,
						(deployed, file, rates) -> deploy(deployed, block.poolSize(), ports, nginx, Optional.empty(),
								pinning, database, store, jmeter, processes, Optional.of(file), rates),
						store.directory(), processes);
				emptyWrittenTable(database);
				confirmations.add(confirmed);
				this.out.println("  " + Report.confirmationLine(results.withConfirmations(confirmations), topology));
			}
		}
		return confirmations;
	}

	private SweepResults.Timing timing(Instant startedAt, List<Point> points) {
		double wallSeconds = Duration.between(startedAt, Instant.now()).toMillis() / 1000.0;
		return new SweepResults.Timing(wallSeconds, points.stream().mapToDouble(Point::durationSeconds).sum(),
				points.stream().mapToDouble(Point::warmupSeconds).sum(),
				this.warmUps.stream().mapToDouble(SweepResults.WarmUpRecord::seconds).sum(), this.warmUps,
				this.settling);
	}

	private void printTiming(SweepResults.Timing timing) {
		this.out.printf(Locale.ROOT,
				"%nTime: %s from the sweep's start to its last point; under load %s (%.0f %%): measured windows %s (%.0f %%), warm-up before each window %s, warm-up of fresh instances %s. The rest started the database and instances, JMeter, and waited for requests in flight.%n",
				human(duration(timing.wallSeconds())), human(duration(timing.loadSeconds())), timing.loadPercent(),
				human(duration(timing.measuredSeconds())), timing.measuredPercent(),
				human(duration(timing.pointWarmupSeconds())), human(duration(timing.topologyWarmupSeconds())));
	}

	private static Duration duration(double seconds) {
		return Duration.ofMillis(Math.round(seconds * 1000));
	}

	/**
	 * Vlad Mihalcea's test on the sweep's database, into the run directory, where the
	 * report picks it up.
	 */
	private void measureAcquireCost(Database database, Path directory) {
		this.out.println(
				"Measuring the acquire cost: 1000 connections opened and closed, 1000 borrowed from a pool of 5...");
		try {
			AcquireCostBenchmark.Outcome outcome = AcquireCostBenchmark
				.measureInto(new AcquireCostBenchmark.Settings(1000, 5, database.url(), database.username(),
						database.password(), directory), database.url(), directory);
			this.out.printf(Locale.ROOT, "  median %.4f ms unpooled vs %.4f ms pooled (%.0fx)%n",
					outcome.result().unpooled().medianMs(), outcome.result().pooled().medianMs(),
					outcome.result().medianRatio());
		}
		catch (SQLException | IOException ex) {
			// The sweep's points are the main result: keep them, say what is missing.
			this.out.println("  the acquire-cost benchmark failed, the report will not show it: " + ex.getMessage());
		}
	}

	/** How instances are pinned to CPUs, {@code null} when they are not. */
	private CpuPinning pinning() {
		return (this.grid.instanceCpus() > 0) ? CpuPinning.require(this.grid.instanceCpus()) : null;
	}

	private String tomcatThreadsDimension() {
		List<Integer> threads = this.grid.tomcatThreads();
		return threads.equals(List.of(0)) ? "" : "Tomcat threads " + threads + " x ";
	}

	private List<String> remoteEngines() {
		return (this.properties.remoteEngines() != null) ? this.properties.remoteEngines() : List.of();
	}

	private Optional<Path> loadBalancer(int instances) {
		if (instances < 2 || this.properties.loadBalancer() == LoadBalancerChoice.CLIENT) {
			return Optional.empty();
		}
		Optional<Path> nginx = Nginx.find();
		if (nginx.isEmpty() && this.properties.loadBalancer() == LoadBalancerChoice.NGINX) {
			throw new BenchSettingException(
					"bench.loadBalancer=nginx, but nginx is not installed (apt-get install nginx-light). Allowed: auto (nginx when installed, else the plan's round robin), nginx, client");
		}
		if (nginx.isEmpty()) {
			this.out.println(
					"nginx is not installed: the plan spreads requests over the instances itself (client-side round robin).");
		}
		return nginx;
	}

	private Database.Settings externalSettings() throws SQLException {
		BenchProperties.ExternalDatabase external = this.properties.database();
		try (Database database = Database.external(external)) {
			return database.settings();
		}
		catch (SQLException ex) {
			throw new BenchSettingException(
					"bench.database.url=%s: cannot connect (%s). Check the URL, user and password, or leave bench.database.url unset for the embedded PostgreSQL."
						.formatted(Database.withoutQuery(external.url()), ex.getMessage()));
		}
	}

	private Database startDatabase(Path directory, ChildProcesses processes) throws IOException, SQLException {
		if (this.properties.database().configured()) {
			return Database.external(this.properties.database());
		}
		return Database.embedded(directory.resolve("pgdata"), directory.resolve(POSTGRES_LOG), processes);
	}

	private void requireBudget(Database.Settings settings) {
		for (Topology topology : this.grid.topologies()) {
			if (this.grid.largestPoolSize() == SweepResults.NO_POOL) {
				continue;
			}
			// Behind pgbouncer, only pgbouncer's one pool reaches PostgreSQL.
			Database.requireBudget(settings, (topology == Topology.PGBOUNCER) ? 1 : this.grid.instancesOf(topology),
					this.grid.largestPoolSize());
		}
	}

	/**
	 * pgbouncer, when the grid has the pgbouncer topology and it is installed; when it is
	 * not, the topology is skipped, and the console says so.
	 */
	private Optional<Path> pgbouncerFor(List<Topology> topologies) {
		if (!topologies.contains(Topology.PGBOUNCER)) {
			return Optional.empty();
		}
		Optional<Path> pgbouncer = PgBouncer.find();
		if (pgbouncer.isEmpty()) {
			this.out
				.println("pgbouncer is not installed (apt-get install pgbouncer): skipping the pgbouncer topology.");
		}
		return pgbouncer;
	}

	private void printRecommendation(Path directory, List<Recommendation> recommendations) throws IOException {
		this.out.println();
		ReportMain.printEnding(recommendations, directory, this.out);
	}

	private static double seconds(Duration duration) {
		return duration.toMillis() / 1000.0;
	}

	static String human(Duration duration) {
		long seconds = Math.round(duration.toMillis() / 1000.0);
		if (seconds >= 60) {
			return "%dm%02ds".formatted(seconds / 60, seconds % 60);
		}
		return (duration.toMillis() >= 1000 || duration.isZero()) ? seconds + "s" : duration.toMillis() + "ms";
	}

	/**
	 * Every JMeter run the plan holds, as its schedule's length: the load the sweep will
	 * put on, before any run's own overhead, deployment or re-measure.
	 */
	private List<Long> plannedRounds(List<Planned> planned) {
		LoadRun load = new LoadRun(this.grid, null, this.out);
		Duration check = this.properties.crossCheck()
				? this.grid.warmup().plus(LoadRun.SETTLE).plus(this.grid.duration()).plusSeconds(1) : Duration.ZERO;
		return planned.stream()
			.collect(Collectors.groupingBy((p) -> List.of(p.topology(), p.tomcatThreads(), p.pooled()),
					LinkedHashMap::new, Collectors.toList()))
			.values()
			.stream()
			.flatMap((mine) -> rounds(mine).stream()
				.map((round) -> load.segments(round, mine.stream().mapToInt(Planned::poolSize).max().orElseThrow())
					.get(round.size() - 1)
					.end()
					.plus(check.multipliedBy(round.size()))
					.toNanos()))
			.toList();
	}

	/**
	 * Point i of N, what it is, and when the sweep will be done: what the plan's runs
	 * left will load (their schedules), plus each run's own cost beyond its schedule
	 * (JMeter's start, the wait for requests in flight, telemetry) at the mean seen so
	 * far, plus the deployments left at the mean a deployment has taken (starting
	 * instances and warming them up), plus re-measures already known to be needed. The
	 * first ETA of the default preset was half the real time when it charged points at
	 * their mean and left the first deployment out.
	 */
	static final class Progress {

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

		void deployed(long nanos) {
			this.deployNanos += nanos;
			this.deployments++;
			this.deploymentsLeft = Math.max(0, this.deploymentsLeft - 1);
		}

		/** A deployment that was not planned: instances started again after one died. */
		void redeploying() {
			this.deploymentsLeft++;
		}

		/** A run that will measure generator-bound points once more. */
		void expectAgain(long scheduleNanos) {
			this.againNanos += scheduleNanos;
			this.againRuns++;
		}

		/** A run's points, printed once the run has ended. */
		void ran(List<Point> points, long nanos, String loadBalancer) {
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
		void again(List<Point> points, long nanos, String loadBalancer) {
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

		private void print(Point point, int index, String loadBalancer, long etaNanos) {
			Duration eta = Duration.ofNanos(etaNanos);
			String failures = Failures.describe(point.failureCauses(), point.refusals());
			this.out.printf(Locale.ROOT,
					"[%2d/%d] %-9s x%d %-20s (%s)  pool %4s  %5d rps  -> %7.1f rps  p50 %4.0f  p99 %5.0f  max %5.0f ms  server p99 %s ms  err %5.2f%%%s  pool %s  acq p99 %.2f ms  JMeter %.2f cores%s  %s  ETA %s%n",
					Math.min(index, this.total), this.total, point.topology(), point.instances(),
					Deployment.NONE.equals(loadBalancer) ? "(no load balancer)" : "(" + loadBalancer + ")",
					point.limits().describe(), SweepResults.poolLabel(point.poolSize()), point.rateRps(),
					point.achievedRps(), point.latency().p50Ms(), point.latency().p99Ms(), point.latency().maxMs(),
					(point.serverP99Ms() >= 0) ? "%.1f".formatted(point.serverP99Ms()) : "-", point.errorPercent(),
					failures.isEmpty() ? "" : " (" + failures + ")", point.pool().observedMax(),
					point.pool().acquireP99Ms(), point.loadGeneratorCpuCores(),
					(point.startLagP99Ms() >= 0) ? ", late p99 %.0f ms".formatted(point.startLagP99Ms()) : "",
					point.ok() ? "ok" : point.outcome(), human(eta));
		}

	}

}

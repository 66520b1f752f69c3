package org.poollab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import org.poollab.bench.acquire.AcquireCostBenchmark;
import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.deploy.Database;
import org.poollab.bench.deploy.ExternalTarget;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Question;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.grid.Workload;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.lab.Programs;
import org.poollab.bench.load.Dashboards;
import org.poollab.bench.load.JMeter;
import org.poollab.bench.report.Report;
import org.poollab.bench.report.ReportMain;
import org.poollab.bench.results.Host;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.RequestThreads;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.text.Durations;
import org.poollab.service.database.DatabaseVendor;

import org.springframework.util.FileSystemUtils;
import org.poollab.bench.deciding.Decisions;

/**
 * The experiment, one way through: grid, deploy, load, collect, report. Everything it
 * checks is checked before anything starts ({@link PreFlight}); everything it starts is
 * stopped on the way out, whatever the way out is. Each deployment's points are a
 * {@link TopologyRun}; the answers are then run as pasted ({@link Confirmations}).
 *
 * @param programs where nginx, pgbouncer and taskset are looked for
 * @param external the deployment to sweep when the lab did not start it
 * ({@code bench.target=external}): then the lab starts no service and no database
 */
record Sweep(Grid grid, BenchProperties properties, LabPaths paths, Programs programs,
		Optional<ExternalTarget> external, PrintStream out) {

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
		PreFlight preFlight = this.external.isPresent()
				? PreFlight.checkExternal(this.grid, this.properties, this.external.get(), this.out)
				: PreFlight.check(this.grid, this.properties, this.programs, this.grid.topologies(),
						this.grid.largestPoolSize(), this.out);
		List<Planned> planned = this.grid.points()
			.stream()
			.filter((point) -> point.topology() != Topology.PGBOUNCER || preFlight.pgbouncer().isPresent())
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
						.formatted(this.grid.workload().name().toLowerCase(Locale.ROOT), Workload.READ.uri));
		}

		Instant startedAt = Instant.now();
		ResultsStore store = ResultsStore.create(this.properties.outputDirectory(), startedAt);
		if (this.properties.question().isPresent()) {
			this.out.printf(Locale.ROOT,
					"SLO search ('%s' windows): %s arrivals, %d x %s per pool size + %s warm-up, workload %s.%nInstance: %s.%nResults: %s%n",
					this.grid.preset().label(), this.grid.arrivals().label(), this.grid.repeats(),
					Durations.human(this.grid.duration()), Durations.human(this.grid.warmup()),
					this.grid.workload().label(), this.grid.limits(RequestThreads.TOMCAT_DEFAULT).describe(),
					store.directory());
		}
		else {
			this.out.printf(Locale.ROOT,
					"Sweep '%s': %d points (%s x %spools %s x rates %s rps x %d repeat(s)), workload %s, %s arrivals, %s load each + %s warm-up.%nInstances: %s.%nResults: %s%n",
					this.grid.preset().label(), planned.size(),
					planned.stream().map((point) -> point.topology().label()).distinct().toList(), threadsDimension(),
					this.grid.poolSizes().stream().map(SweepResults::poolLabel).toList(), this.grid.rates(),
					this.grid.repeats(), this.grid.workload().label(), this.grid.arrivals().label(),
					Durations.human(this.grid.duration()), Durations.human(this.grid.warmup()),
					this.grid.limits(RequestThreads.TOMCAT_DEFAULT).describe(), store.directory());
		}
		if (this.grid.hold() != null) {
			this.out.printf(Locale.ROOT,
					"Connection hold: every request holds its connection %s, from %s; each instance times every hold (checkout to return).%n",
					this.grid.hold().describe(), this.grid.hold().source());
		}

		List<Point> points = new ArrayList<>();
		TimeAccount time = new TimeAccount();
		HostCeiling ceiling = new HostCeiling();
		SweepResults results = null;
		try (ChildProcesses processes = new ChildProcesses()) {
			try {
				// 2. Deploy: one database at a time, vendor by vendor (never two at once
				// on the lab's cores); each runs all its deployments and confirmations,
				// then stops before the next starts.
				Host host = new Host(Runtime.getRuntime().availableProcessors(),
						new JMeter(this.paths, preFlight.remoteEngines(), this.grid.workload()).description());
				Progress progress = Progress.of(this.grid, this.properties.crossCheck(), planned, this.out);
				Optional<Question> question = this.properties.question();
				requireLaterDatabasesStart(store.directory(), processes);
				for (DatabaseVendor vendor : this.grid.vendors()) {
					List<Planned> onIt = planned.stream().filter((point) -> point.vendor() == vendor).toList();
					if (onIt.isEmpty() && question.isEmpty()) {
						continue;
					}
					try (Database database = this.external.isPresent() && !this.properties.database().configured()
							? Database.unchecked(vendor)
							: startDatabase(this.properties, vendor, store.directory(), processes)) {
						if (database.describe().budgetKnown()) {
							PreFlight.requireBudget(this.grid, database.settings(), this.grid.topologies(),
									this.grid.largestPoolSize());
						}
						results = (results == null)
								? new SweepResults(startedAt, this.grid.preset().label(), host, database.describe(),
										this.properties.p99Objective().toMillis(), this.grid.workload().label(), points)
								: results.withDatabase(database.describe());
						if (this.grid.vendors().size() > 1) {
							this.out.printf(Locale.ROOT, "Database %s: %s.%n", vendor.product(),
									database.describe().url());
						}
						SweepContext sweep = new SweepContext(this.grid, this.properties, this.paths, this.out,
								preFlight, database, store, results, progress, processes, time);
						if (question.isPresent()) {
							// 3. and 4. for the team's own question: the search, its
							// answer
							// as pasted.
							results = new SloRun(sweep, question.get()).answer(results, ceiling);
						}
						// 3. and 4. Load and collect, deployment by deployment.
						for (List<Planned> mine : deployments(question.isPresent() ? List.of() : onIt)) {
							try {
								new TopologyRun(sweep, mine).run(ceiling);
							}
							catch (RuntimeException | IOException ex) {
								// A lost database is the cause, not what failed first.
								Optional<String> exit = processes.stopping() ? Optional.empty() : database.exit();
								if (exit.isPresent()) {
									throw databaseExited(exit.get(), ex, store.directory(), points.size());
								}
								throw ex;
							}
						}
						if (question.isEmpty() && this.external.isPresent()) {
							this.out.println(
									"No confirmation run: it starts the recommended block as pasted, and the lab does not deploy in target mode. Deploy the block and run the sweep at its pool size to confirm it.");
						}
						else if (question.isEmpty()) {
							// 4b. Confirm, while this database is up: each answer's block
							// run as pasted.
							results = results.withConfirmations(Confirmations.run(sweep, onIt));
							store.write(results);
						}
						if (this.grid.acquireCost() && vendor == this.grid.vendors().get(0)) {
							measureAcquireCost(database, store.directory());
						}
					}
				}
			}
			finally {
				if (results != null) {
					results = results.withTiming(time.timing(startedAt, results.measuredWindows()));
					if (ceiling.rps().isPresent()) {
						results = results.withHost(results.host().withGeneratorCeiling(ceiling.rps().getAsInt()));
					}
					// The model beside every point, once: what is written, reported and
					// returned is the same.
					results = results.withPredictions();
				}
				if (results != null && !points.isEmpty() && !processes.stopping()) {
					// 5a. JMeter's own dashboards of the points that decide.
					try {
						Dashboards.generate(this.paths, store.directory(), Decisions.deciding(results), processes,
								this.out);
					}
					catch (IOException | RuntimeException ex) {
						this.out.println("  JMeter's dashboards were not generated: " + ex.getMessage());
					}
				}
				processes.stopAll();
				if (results != null && (!points.isEmpty() || results.slo() != null)) {
					store.write(results);
				}
			}
			// 5. Report. A database started (each planned point, or the question, needs
			// one), so there are results, timed in the finally above.
			SweepResults done = Objects.requireNonNull(results, "no database was started");
			List<Recommendation> recommendations = Report.write(done, store.directory());
			if (done.slo() != null) {
				Report.printSlo(done, this.out);
			}
			else {
				this.out.print(ConsoleTables.render(done));
			}
			TimeAccount.print(Objects.requireNonNull(done.timing(), "the sweep was not timed"), this.out);
			this.out.println();
			ReportMain.printEnding(recommendations, store.directory(), this.out);
			return new Outcome(done, store.directory(), recommendations, processes.everStarted());
		}
	}

	/**
	 * The planned points by deployment: per topology, per stack (another service), per
	 * Tomcat thread count (Tomcat fixes its thread count at start), pooled or not (a
	 * service either has a pool or not): fresh instances for each.
	 */
	private List<List<Planned>> deployments(List<Planned> planned) {
		List<List<Planned>> deployments = new ArrayList<>();
		for (Topology topology : this.grid.topologies()) {
			for (Stack stack : this.grid.stacks()) {
				for (RequestThreads threads : this.grid.threadsOf(stack)) {
					for (boolean pooled : List.of(false, true)) {
						List<Planned> mine = planned.stream()
							.filter((p) -> p.topology() == topology && p.stack() == stack && p.threads().equals(threads)
									&& p.pooled() == pooled)
							.toList();
						if (!mine.isEmpty()) {
							deployments.add(mine);
						}
					}
				}
			}
		}
		return deployments;
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

	private String threadsDimension() {
		List<RequestThreads> threads = this.grid.threads();
		String stacks = this.grid.stacks().equals(List.of(Stack.JDBC)) ? ""
				: "stacks " + this.grid.stacks().stream().map(Stack::value).toList() + " x ";
		String vendors = (this.grid.vendors().size() > 1)
				? "databases " + this.grid.vendors().stream().map(DatabaseVendor::propertyValue).toList() + " x " : "";
		return vendors + stacks + (threads.equals(List.of(RequestThreads.TOMCAT_DEFAULT)) ? ""
				: "threads " + threads.stream().map(RequestThreads::name).toList() + " x ");
	}

	/**
	 * Starts and stops the embedded server of every vendor after the first, before
	 * anything is measured: one that cannot start here (a missing library, no room for
	 * its binaries) would otherwise fail only when its turn came, after the first
	 * vendor's points. The first vendor's server is the sweep's next step anyway. Never
	 * two at once; each trial runs in a directory of its own, removed after.
	 * @throws LabFailureException naming the vendor, the reason and the trial's log
	 */
	private void requireLaterDatabasesStart(Path runDirectory, ChildProcesses processes) throws IOException {
		List<DatabaseVendor> vendors = this.grid.vendors();
		if (vendors.size() < 2 || this.properties.database().configured()) {
			return;
		}
		for (DatabaseVendor vendor : vendors.subList(1, vendors.size())) {
			Path trial = Files.createDirectories(runDirectory.resolve("preflight-" + vendor.propertyValue()));
			this.out.printf(Locale.ROOT, "Checking that the embedded %s starts here (it is swept after %s)...%n",
					vendor.product(), vendors.get(0).product());
			try (Database database = Database.embedded(vendor, trial, processes)) {
				database.settings();
			}
			catch (SQLException | IOException | RuntimeException ex) {
				throw new LabFailureException(
						"The embedded %s does not start here, so nothing was measured: %s. Its log: %s"
							.formatted(vendor.product(), ex.getMessage(), trial),
						ex);
			}
			FileSystemUtils.deleteRecursively(trial);
		}
	}

	/**
	 * A database of the sweep: the external one when {@code bench.database.url} is set
	 * (of its one vendor), else an embedded server of {@code vendor}, its log under
	 * {@code directory}, stopped with {@code processes}.
	 */
	static Database startDatabase(BenchProperties properties, DatabaseVendor vendor, Path directory,
			ChildProcesses processes) throws IOException, SQLException {
		if (properties.database().configured()) {
			return properties.database().connect();
		}
		return Database.embedded(vendor, directory, processes);
	}

}

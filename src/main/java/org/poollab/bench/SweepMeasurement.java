package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.acquire.AcquireCostBenchmark;
import org.poollab.bench.console.Progress;
import org.poollab.bench.console.TimeAccount;
import org.poollab.bench.deciding.Decisions;
import org.poollab.bench.deploy.Database;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Question;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.load.Dashboards;
import org.poollab.bench.load.JMeter;
import org.poollab.bench.report.ReportMain;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Host;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.RequestThreads;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.settings.BenchProperties;
import org.poollab.vendor.DatabaseVendor;

import org.springframework.util.FileSystemUtils;

/**
 * The sweep's measuring (steps 2 to 4 of the pipeline): one database at a time, vendor by
 * vendor (never two at once on the lab's cores); each runs all its deployments and
 * confirmations, then stops before the next starts. It keeps the results so far, so that
 * {@link #finish()} can time, write and return them whichever way the measuring ended.
 */
final class SweepMeasurement {

	private final SweepSetup setup;

	private final PreFlight preFlight;

	private final ResultsStore store;

	private final Instant startedAt;

	private final ChildProcesses processes;

	/** Every point measured, in the results once a database started. */
	private final List<Point> points = new ArrayList<>();

	private final TimeAccount time = new TimeAccount();

	private final HostCeiling ceiling = new HostCeiling();

	private final Capacities capacities = new Capacities();

	/** Null until the first database started. */
	private @Nullable SweepResults results;

	/**
	 * @param setup the grid, the question, the settings and the console
	 * @param preFlight what the checks before the start found
	 * @param store where the results go
	 * @param startedAt when the sweep started, for the time account
	 * @param processes stops everything the sweep starts
	 */
	SweepMeasurement(SweepSetup setup, PreFlight preFlight, ResultsStore store, Instant startedAt,
			ChildProcesses processes) {
		this.setup = setup;
		this.preFlight = preFlight;
		this.store = store;
		this.startedAt = startedAt;
		this.processes = processes;
	}

	/** Each topology the box could not carry at the time scale allowed, and why. */
	List<String> notRun() {
		return this.capacities.notRun();
	}

	/** The results so far: null when no database started. */
	@Nullable SweepResults results() {
		return this.results;
	}

	/** Measures the planned points (or answers the question), database by database. */
	void measure(List<Planned> planned) throws IOException, InterruptedException, SQLException {
		Grid grid = this.setup.grid();
		Host host = new Host(Runtime.getRuntime().availableProcessors(),
				new JMeter(this.setup.paths(), this.preFlight.remoteEngines(), grid.workload()).description());
		Progress progress = Progress.of(grid, TopologyRun.fixedScale(this.setup.properties().load().timeScaleSetting()),
				this.setup.properties().load().crossCheck(), planned, this.setup.out());
		Optional<Question> question = this.setup.question();
		requireLaterDatabasesStart(this.store.directory(), this.processes);
		for (DatabaseVendor vendor : grid.vendors()) {
			List<Planned> onIt = planned.stream().filter((point) -> point.vendor() == vendor).toList();
			if (onIt.isEmpty() && question.isEmpty()) {
				continue;
			}
			measureOn(vendor, onIt, host, progress, question);
		}
	}

	/** Starts the vendor's database, runs its points and confirmations, stops it. */
	private void measureOn(DatabaseVendor vendor, List<Planned> onIt, Host host, Progress progress,
			Optional<Question> question) throws IOException, InterruptedException, SQLException {
		Grid grid = this.setup.grid();
		BenchProperties properties = this.setup.properties();
		boolean external = this.preFlight.external().isPresent();
		try (Database database = external && !properties.database().configured() ? Database.unchecked(vendor)
				: properties.database().open(vendor, this.store.directory(), this.processes)) {
			if (database.describe().budgetKnown()) {
				PreFlight.requireBudget(grid, database.settings(), grid.topologies(), grid.largestPoolSize());
			}
			DatabaseFacts described = database.describe();
			if (question.isEmpty() && !onIt.isEmpty()
					&& ContentionCeiling.applies(grid.preset(), properties.axes().rates(), grid.hold(), !external)) {
				// 2b. The contention preset's rates, from what the database's CPU carries
				// here.
				ContentionCeiling.Replanned replanned = ContentionCeiling.measure(grid, onIt, database,
						this.preFlight.remoteEngines().addresses().size(), this.setup.out());
				grid = replanned.grid();
				onIt = replanned.planned();
				described = described.withCpuCeiling(replanned.ceiling());
			}
			this.results = (this.results == null)
					? new SweepResults(this.startedAt, grid.preset().label(), host, described,
							properties.deciding().p99Objective().toMillis(), this.preFlight.load(grid), this.points)
						.withConnectionsPerRequest(properties.slo().connectionsPerRequest())
					: this.results.withDatabase(described);
			if (grid.vendors().size() > 1) {
				this.setup.out().printf(Locale.ROOT, "Database %s: %s.%n", vendor.product(), database.describe().url());
			}
			SweepContext context = new SweepContext(grid, properties, this.setup.paths(), this.setup.out(),
					this.preFlight, database, this.store, this.results, progress, this.processes, this.time);
			if (question.isPresent()) {
				// 3. and 4. for the team's own question: the search, its answer as
				// pasted.
				this.results = new SloRun(context, question.get()).answer(this.results, this.ceiling);
			}
			// 3. and 4. Load and collect, deployment by deployment.
			for (List<Planned> mine : deployments(question.isPresent() ? List.of() : onIt)) {
				runDeployment(context, mine, database);
			}
			if (question.isEmpty() && external) {
				this.setup.out()
					.println(
							"No confirmation run: it starts the recommended block as pasted, and the lab does not deploy in target mode. Deploy the block and run the sweep at its pool size to confirm it.");
			}
			else if (question.isEmpty()) {
				// 4b. Confirm, while this database is up: each answer's block run as
				// pasted.
				this.results = this.results.withConfirmations(Confirmations.run(context, onIt));
				this.store.write(this.results);
			}
			if (grid.acquireCost() && vendor == grid.vendors().get(0)) {
				measureAcquireCost(database, this.store.directory());
			}
		}
	}

	/** One deployment's points; a lost database is the cause, not what failed first. */
	private void runDeployment(SweepContext context, List<Planned> mine, Database database)
			throws IOException, InterruptedException {
		try {
			new TopologyRun(context, mine).run(this.ceiling, this.capacities);
		}
		catch (RuntimeException | IOException ex) {
			Optional<String> exit = this.processes.stopping() ? Optional.empty() : database.exit();
			if (exit.isPresent()) {
				throw databaseExited(exit.get(), ex, this.store.directory(), this.points.size());
			}
			throw ex;
		}
	}

	/**
	 * On the way out, whichever it is: the results timed, JMeter's dashboards of the
	 * points that decide, every process stopped, and the results written, which puts the
	 * model beside every point: what is written is what is reported and returned.
	 */
	void finish() throws IOException, InterruptedException {
		SweepResults finished = this.results;
		if (finished != null) {
			finished = finished.withTiming(this.time.timing(this.startedAt, finished.measuredWindows()));
			if (this.ceiling.rps().isPresent()) {
				finished = finished.withHost(finished.host().withGeneratorCeiling(this.ceiling.rps().getAsInt()));
			}
			if (!this.capacities.all().isEmpty()) {
				finished = finished.withHost(finished.host().withCapacities(this.capacities.all()));
			}
			this.results = finished;
		}
		if (finished != null && !this.points.isEmpty() && !this.processes.stopping()) {
			// 5a. JMeter's own dashboards of the points that decide.
			try {
				Dashboards.generate(this.setup.paths(), this.store.directory(), Decisions.deciding(finished),
						this.processes, this.setup.out());
			}
			catch (IOException | RuntimeException ex) {
				this.setup.out().println("  JMeter's dashboards were not generated: " + ex.getMessage());
			}
		}
		this.processes.stopAll();
		if (finished != null
				&& (!this.points.isEmpty() || finished.slo() != null || !this.capacities.all().isEmpty())) {
			this.results = this.store.write(finished);
		}
	}

	/**
	 * The planned points by deployment: per topology, per stack (another service), per
	 * Tomcat thread count (Tomcat fixes its thread count at start), pooled or not (a
	 * service either has a pool or not): fresh instances for each.
	 */
	private List<List<Planned>> deployments(List<Planned> planned) {
		List<List<Planned>> deployments = new ArrayList<>();
		for (Topology topology : this.setup.grid().topologies()) {
			for (Stack stack : this.setup.grid().stacks()) {
				for (RequestThreads threads : this.setup.grid().threadsOf(stack)) {
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
	 * Starts and stops the embedded server of every vendor after the first, before
	 * anything is measured: one that cannot start here (a missing library, no room for
	 * its binaries) would otherwise fail only when its turn came, after the first
	 * vendor's points. The first vendor's server is the sweep's next step anyway. Never
	 * two at once; each trial runs in a directory of its own, removed after.
	 * @throws LabFailureException naming the vendor, the reason and the trial's log
	 */
	private void requireLaterDatabasesStart(Path runDirectory, ChildProcesses processes) throws IOException {
		List<DatabaseVendor> vendors = this.setup.grid().vendors();
		if (vendors.size() < 2 || this.setup.properties().database().configured()) {
			return;
		}
		for (DatabaseVendor vendor : vendors.subList(1, vendors.size())) {
			Path trial = Files.createDirectories(runDirectory.resolve("preflight-" + vendor.propertyValue()));
			this.setup.out()
				.printf(Locale.ROOT, "Checking that the embedded %s starts here (it is swept after %s)...%n",
						vendor.product(), vendors.get(0).product());
			try (Database database = Database.embedded(vendor, trial, processes)) {
				database.settings();
			}
			catch (SQLException | RuntimeException ex) {
				throw new LabFailureException(
						"The embedded %s does not start here, so nothing was measured: %s. Its log: %s"
							.formatted(vendor.product(), ex.getMessage(), trial),
						ex);
			}
			FileSystemUtils.deleteRecursively(trial);
		}
	}

	/**
	 * Vlad Mihalcea's test on the sweep's database, into the run directory, where the
	 * report picks it up.
	 */
	private void measureAcquireCost(Database database, Path directory) {
		this.setup.out()
			.println(
					"Measuring the acquire cost: 1000 connections opened and closed, 1000 borrowed from a pool of 5...");
		try {
			AcquireCostBenchmark.Outcome outcome = AcquireCostBenchmark
				.measureInto(new AcquireCostBenchmark.Settings(1000, 5, database.url(), database.username(),
						database.password(), directory), database.url(), directory);
			this.setup.out()
				.printf(Locale.ROOT, "  median %.4f ms unpooled vs %.4f ms pooled (%.0fx)%n",
						outcome.result().unpooled().medianMs(), outcome.result().pooled().medianMs(),
						outcome.result().medianRatio());
		}
		catch (SQLException | IOException ex) {
			// The sweep's points are the main result: keep them, say what is missing.
			this.setup.out()
				.println("  the acquire-cost benchmark failed, the report will not show it: " + ex.getMessage());
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

}

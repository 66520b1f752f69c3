package org.poollab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import org.poollab.bench.console.ConsoleTables;
import org.poollab.bench.console.TimeAccount;
import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.deploy.Database;
import org.poollab.bench.deploy.ExternalTarget;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.grid.Workload;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.lab.Programs;
import org.poollab.bench.report.Report;
import org.poollab.bench.report.ReportMain;
import org.poollab.bench.results.RequestThreads;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.settings.BenchProperties;
import org.poollab.bench.text.Durations;
import org.poollab.vendor.DatabaseVendor;

/**
 * The experiment, one way through: grid, deploy, load, collect, report. Everything it
 * checks is checked before anything starts ({@link PreFlight}); everything it starts is
 * stopped on the way out, whatever the way out is. The databases, one at a time, are a
 * {@link SweepMeasurement}; each deployment's points are a {@link TopologyRun}; the
 * answers are then run as pasted ({@link Confirmations}).
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
		List<Planned> planned = planned(preFlight);
		Instant startedAt = Instant.now();
		ResultsStore store = ResultsStore.create(this.properties.outputDirectory(), startedAt);
		announce(planned, store, preFlight.load(this.grid));
		preFlight.fromPlan().ifPresent(this.out::println);
		try (ChildProcesses processes = new ChildProcesses()) {
			SweepMeasurement measurement = new SweepMeasurement(this, preFlight, store, startedAt, processes);
			try {
				// 2. Deploy, 3. load and 4. collect, one database at a time.
				measurement.measure(planned);
			}
			finally {
				measurement.finish();
			}
			// 5. Report. A database started (each planned point, or the question, needs
			// one), so there are results, timed in finish() above.
			SweepResults done = Objects.requireNonNull(measurement.results(), "no database was started");
			if (done.points().isEmpty() && !measurement.notRun().isEmpty()) {
				// Each topology said why in one line as it ended: no report of nothing.
				this.out.println(
						"No report: no topology was measured; each said why above, and results.json keeps what the box carried (host.capacities).");
				return new Outcome(done, store.directory(), List.of(), processes.everStarted());
			}
			List<Recommendation> recommendations = report(done, store);
			return new Outcome(done, store.directory(), recommendations, processes.everStarted());
		}
	}

	/**
	 * The grid's points the lab can measure (pgbouncer's only when pgbouncer was found).
	 * @throws BenchSettingException when none is left, or for a cross-check of a workload
	 * the independent generator cannot send
	 */
	private List<Planned> planned(PreFlight preFlight) {
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
		return planned;
	}

	/** What the sweep will do, and where its results go. */
	private void announce(List<Planned> planned, ResultsStore store, String load) {
		if (this.properties.question().isPresent()) {
			this.out.printf(Locale.ROOT,
					"SLO search ('%s' windows): %s arrivals, %d x %s per pool size + %s warm-up, workload %s.%nInstance: %s.%nResults: %s%n",
					this.grid.preset().label(), this.grid.arrivals().label(), this.grid.repeats(),
					Durations.human(this.grid.duration()), Durations.human(this.grid.warmup()), load,
					this.grid.limits(RequestThreads.TOMCAT_DEFAULT).describe(), store.directory());
		}
		else {
			this.out.printf(Locale.ROOT,
					"Sweep '%s': %d points (%s x %spools %s x rates %s rps x %d repeat(s)), workload %s, %s arrivals, %s load each + %s warm-up.%nInstances: %s.%nResults: %s%n",
					this.grid.preset().label(), planned.size(),
					planned.stream().map((point) -> point.topology().label()).distinct().toList(), threadsDimension(),
					this.grid.poolSizes().stream().map(SweepResults::poolLabel).toList(), this.grid.rates(),
					this.grid.repeats(), load, this.grid.arrivals().label(), Durations.human(this.grid.duration()),
					Durations.human(this.grid.warmup()), this.grid.limits(RequestThreads.TOMCAT_DEFAULT).describe(),
					store.directory());
		}
		if (this.grid.hold() != null) {
			this.out.printf(Locale.ROOT,
					"Connection hold: every request holds its connection %s, from %s; each instance times every hold (checkout to return).%n",
					this.grid.hold().describe(), this.grid.hold().source());
		}
	}

	/** The report's files, and its tables, time account and ending on the console. */
	private List<Recommendation> report(SweepResults done, ResultsStore store) throws IOException {
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
		return recommendations;
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

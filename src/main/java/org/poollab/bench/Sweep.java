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
import org.poollab.bench.deploy.ExternalTarget;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.grid.Workload;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.ChildProcesses;
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
 * @param setup the grid, the question, the settings, the paths and the console
 * @param programs where nginx, pgbouncer and taskset are looked for
 * @param external the deployment to sweep when the lab did not start it
 * ({@code bench.target=external}): then the lab starts no service and no database
 */
record Sweep(SweepSetup setup, Programs programs, Optional<ExternalTarget> external) {

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
		Grid grid = this.setup.grid();
		BenchProperties properties = this.setup.properties();
		PrintStream out = this.setup.out();
		PreFlight preFlight = this.external.isPresent()
				? PreFlight.checkExternal(grid, properties, this.external.get(), out)
				: PreFlight.check(grid, properties, this.programs, grid.topologies(), grid.largestPoolSize(), out);
		List<Planned> planned = planned(preFlight);
		Instant startedAt = Instant.now();
		ResultsStore store = ResultsStore.create(properties.run().outputDirectory(), startedAt);
		announce(planned, store, preFlight.load(grid));
		preFlight.fromPlan().ifPresent(out::println);
		try (ChildProcesses processes = new ChildProcesses()) {
			SweepMeasurement measurement = new SweepMeasurement(this.setup, preFlight, store, startedAt, processes);
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
				out.println(
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
		Grid grid = this.setup.grid();
		List<Planned> planned = grid.points()
			.stream()
			.filter((point) -> point.topology() != Topology.PGBOUNCER || preFlight.pgbouncer().isPresent())
			.toList();
		if (planned.isEmpty()) {
			throw new BenchSettingException(
					"Nothing left to measure: bench.topologies=%s and bench.poolSizes=%s leave no point (pgbouncer always pools, so it has no 'none' point)."
						.formatted(grid.topologies().stream().map(Topology::label).toList(),
								grid.poolSizes().stream().map(SweepResults::poolLabel).toList()));
		}
		if (this.setup.properties().load().crossCheck() && grid.workload() != Workload.READ) {
			throw new BenchSettingException(
					"bench.crossCheck=true is not allowed with bench.workload=%s: the independent generator sends GET %s only; use the read workload"
						.formatted(grid.workload().name().toLowerCase(Locale.ROOT), Workload.READ.uri));
		}
		return planned;
	}

	/** What the sweep will do, and where its results go. */
	private void announce(List<Planned> planned, ResultsStore store, String load) {
		Grid grid = this.setup.grid();
		PrintStream out = this.setup.out();
		if (this.setup.question().isPresent()) {
			out.printf(Locale.ROOT,
					"SLO search ('%s' windows): %s arrivals, %d x %s per pool size + %s warm-up, workload %s.%nInstance: %s.%nResults: %s%n",
					grid.preset().label(), grid.arrivals().label(), grid.repeats(), Durations.human(grid.duration()),
					Durations.human(grid.warmup()), load, grid.limits(RequestThreads.TOMCAT_DEFAULT).describe(),
					store.directory());
		}
		else {
			out.printf(Locale.ROOT,
					"Sweep '%s': %d points (%s x %spools %s x rates %s rps x %d repeat(s)), workload %s, %s arrivals, %s load each + %s warm-up.%nInstances: %s.%nResults: %s%n",
					grid.preset().label(), planned.size(),
					planned.stream().map((point) -> point.topology().label()).distinct().toList(), threadsDimension(),
					grid.poolSizes().stream().map(SweepResults::poolLabel).toList(), grid.rates(), grid.repeats(), load,
					grid.arrivals().label(), Durations.human(grid.duration()), Durations.human(grid.warmup()),
					grid.limits(RequestThreads.TOMCAT_DEFAULT).describe(), store.directory());
		}
		if (grid.hold() != null) {
			out.printf(Locale.ROOT,
					"Connection hold: every request holds its connection %s, from %s; each instance times every hold (checkout to return).%n",
					grid.hold().describe(), grid.hold().source());
		}
	}

	/** The report's files, and its tables, time account and ending on the console. */
	private List<Recommendation> report(SweepResults done, ResultsStore store) throws IOException {
		PrintStream out = this.setup.out();
		List<Recommendation> recommendations = Report.write(done, store.directory());
		if (done.slo() != null) {
			Report.printSlo(done, out);
		}
		else {
			out.print(ConsoleTables.render(done));
		}
		TimeAccount.print(Objects.requireNonNull(done.timing(), "the sweep was not timed"), out);
		out.println();
		ReportMain.printEnding(recommendations, store.directory(), out);
		return recommendations;
	}

	private String threadsDimension() {
		Grid grid = this.setup.grid();
		List<RequestThreads> threads = grid.threads();
		String stacks = grid.stacks().equals(List.of(Stack.JDBC)) ? ""
				: "stacks " + grid.stacks().stream().map(Stack::value).toList() + " x ";
		String vendors = (grid.vendors().size() > 1)
				? "databases " + grid.vendors().stream().map(DatabaseVendor::propertyValue).toList() + " x " : "";
		return vendors + stacks + (threads.equals(List.of(RequestThreads.TOMCAT_DEFAULT)) ? ""
				: "threads " + threads.stream().map(RequestThreads::name).toList() + " x ");
	}

}

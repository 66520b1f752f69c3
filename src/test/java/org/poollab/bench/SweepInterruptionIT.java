package org.poollab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import org.poollab.bench.deploy.Database;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.lab.Programs;
import org.poollab.bench.report.Report;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.SweepResults;
import org.poollab.vendor.DatabaseVendor;
import org.poollab.vendor.EmbeddedMariaDbServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * Things break while the lab runs: an instance dies, the user presses Ctrl-C or sends
 * SIGTERM, JMeter crashes. The lab keeps what it finished, says what happened, and leaves
 * no process behind, checked by PID.
 */
@ExtendWith(OutputCaptureExtension.class)
class SweepInterruptionIT {

	/**
	 * A small sweep whose points are known in advance: adaptive effort is off, since it
	 * adds repeats wherever a decision happens to be unsettled.
	 */
	private static final String[] TINY = { SweepEndToEndIT.NO_HOLD, SweepEndToEndIT.EVEN_ARRIVALS, "--bench.rates=50",
			"--bench.duration=2s", "--bench.warmup=1s", "--bench.topologyWarmup=0s", "--bench.confirmation=0s",
			"--bench.adaptiveCap=0" };

	@TempDir
	Path output;

	/**
	 * Instances killed by hand (SIGKILL, nothing in their logs) say nothing about the
	 * pool size. One killed in the warm-up is no point's failure: fresh instances take
	 * its place, warmed again. One killed during a point: the point is measured again on
	 * fresh instances, and the sweep finishes the rest. A death the load caused
	 * (OutOfMemoryError) stays a result: see {@code RecommenderTests}. The same run goes
	 * to an external PostgreSQL with a password, which must appear nowhere in what the
	 * run printed or wrote (the died instances' logs included).
	 */
	@Test
	void instancesKilledFromOutsideAreReplacedAndNoPasswordLeaks(CapturedOutput console) throws Exception {
		int base = SweepEndToEndIT.freeBasePort(1);
		// One instance (single) is enough to show the replacement, and starts half the
		// JVMs of two; each kill takes the instance live at the time, on base + 1.
		String password = "pw-" + Long.toHexString(System.nanoTime());
		Sweep.Outcome outcome;
		try (EmbeddedPostgres external = EmbeddedPostgres.builder().start();
				LabProcesses processes = LabProcesses.watch(ProcessHandle.current(), this.output)) {
			Thread inWarmUp = killInstanceOnceSeen(processes, "single-warmup", base + 1);
			// The round's JMeter, on the instance started in place of the first one.
			Thread inPoint = killInstanceOnceSeen(processes, "single-run1", base + 1);
			outcome = BenchApplication.run(SweepEndToEndIT.NO_HOLD, SweepEndToEndIT.EVEN_ARRIVALS,
					"--bench.topologies=single", "--bench.poolSizes=2,3", "--bench.rates=50", "--bench.duration=2s",
					"--bench.warmup=1s", "--bench.topologyWarmup=6s", "--bench.confirmation=0s",
					"--bench.adaptiveCap=0", "--bench.database.url=" + external.getJdbcUrl("postgres", "postgres"),
					"--bench.database.username=postgres", "--bench.database.password=" + password,
					"--bench.outputDirectory=" + this.output, "--bench.basePort=" + base);
			inWarmUp.join();
			inPoint.join();
			assertNoneAlive(processes.seen());
		}
		assertThat(outcome.results().database().kind()).isEqualTo("external");
		List<Point> points = outcome.results().points();
		// A round runs the largest pool first: pool 3 was running when the instance died,
		// and was measured again before pool 2.
		assertThat(points).extracting(Point::poolSize).containsExactly(3, 2);
		assertThat(points)
			.allSatisfy((point) -> SweepEndToEndIT.assertMeasured(point.outcome(), "pool " + point.poolSize()));
		assertThat(points.get(0).pool().observedMax()).containsExactly(3);
		assertThat(console.getOut()).contains("died in the warm-up",
				"Starting single again: an instance was ended from outside during the warm-up.",
				"Pool 3 at 50 rps: the instance was ended from outside (a signal, no cause in its log), not by "
						+ "the load: measuring it again on fresh instances.");
		assertThat(outcome.results().timing().warmUps())
			.as("the killed instance's warm-up, its successor's, and the fresh instances' after the point")
			.hasSize(3);
		// The dead instances' logs survive the instances started in their place.
		try (Stream<Path> logs = Files.list(outcome.directory().resolve("deploy/single"))) {
			assertThat(logs.map((log) -> log.getFileName().toString())).contains(
					"instance-" + (base + 1) + "-died-single-warmup.log",
					"instance-" + (base + 1) + "-died-single-run1.log", "instance-" + (base + 1) + ".log");
		}
		assertThat(console.getAll()).doesNotContain(password);
		try (Stream<Path> files = Files.walk(this.output)) {
			List<Path> regular = files.filter(Files::isRegularFile).toList();
			assertThat(regular).as("run output to search").hasSizeGreaterThan(5);
			for (Path file : regular) {
				assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).as(file.toString())
					.doesNotContain(password);
			}
		}
	}

	/**
	 * SIGTERM during the multi topology (instances behind nginx when it is installed) on
	 * the embedded MariaDB, whose {@code mariadbd} is the lab JVM's own child and whose
	 * directory must go too. One lab start: Ctrl-C's SIGINT takes the same path through
	 * the JVM's shutdown (one hook stops every process the lab tracks, PostgreSQL's
	 * postmaster and {@code mariadbd} alike), and ExternalTargetSweepIT sends it to a
	 * lab. This is also the test of a sweep on the embedded MariaDB alone.
	 */
	@Test
	void sigtermStopsEverythingAndKeepsFinishedPoints() throws Exception {
		LabPaths paths = LabPaths.of(Path.of("target"));
		List<String> command = new ArrayList<>(List.of(paths.java(), "-cp", paths.serviceClasspath(),
				BenchApplication.class.getName(), "--bench.database.vendor=mariadb", "--bench.topologies=multi",
				"--bench.instances=2", "--bench.poolSizes=1,2,3", "--bench.repeats=2",
				"--bench.outputDirectory=" + this.output, "--bench.basePort=" + SweepEndToEndIT.freeBasePort(2)));
		command.addAll(List.of(TINY));
		Path console = Files.createTempFile(this.output, "lab", ".log");
		Process lab = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile()).start();
		Path run = this.output.resolve("latest");
		try (LabProcesses processes = LabProcesses.watch(lab.toHandle(), this.output)) {
			await().atMost(Duration.ofSeconds(120)).until(() -> pointsIn(run) >= 1);
			new ProcessBuilder("kill", "-TERM", String.valueOf(lab.pid())).start().waitFor();
			assertThat(lab.waitFor(60, TimeUnit.SECONDS)).as("lab stopped after SIGTERM").isTrue();
			Set<Long> seen = processes.seen();
			List<String> kinds = new ArrayList<>(List.of("-Dpoollab.instance=", "bin/mariadbd", "ApacheJMeter"));
			if (Programs.installed().find("nginx").isPresent()) {
				kinds.add("nginx");
			}
			for (String kind : kinds) {
				assertThat(processes.commandLines()).as("the lab started and tracked a " + kind + " process")
					.anyMatch((commandLine) -> commandLine.contains(kind));
			}
			assertThat(processes.commandLines()).as("instances started from the class-data archive")
				.anyMatch((commandLine) -> commandLine.contains("-Dpoollab.instance=")
						&& commandLine.contains("-XX:SharedArchiveFile="));
			for (long pid : seen) {
				assertThat(LabProcesses.alive(pid)).as("process %d still alive: %s", pid, processes.describe(pid))
					.isFalse();
			}
		}
		finally {
			lab.destroyForcibly();
		}
		// One round of three points finished; the signal came during the second.
		assertThat(pointsIn(run)).isEqualTo(3);
		assertThat(Report.regenerate(run)).hasSize(1);
		assertThat(run.resolve("report.html")).isNotEmptyFile();
		SweepResults results = ResultsStore.read(run.resolve(ResultsStore.RESULTS_JSON));
		// Each pool size proven by what the instances reported; on a busy machine a
		// resize can land late on one instance, and the point then says it is unverified.
		assertThat(results.points()).filteredOn(Point::verified)
			.isNotEmpty()
			.allSatisfy((point) -> assertThat(point.pool().observedMax()).as("observed maximum-pool-size per instance")
				.containsOnly(point.poolSize()));
		assertThat(MariaDbSweepIT.serverDirectory(run)).as("the server's binaries and data, removed").doesNotExist();
		// A MariaDB sweep is MariaDB's alone: no PostgreSQL started or named.
		assertThat(results.database().vendor()).isEqualTo("MariaDB");
		assertThat(results.database().kind()).isEqualTo("embedded");
		assertThat(results.database().url()).startsWith("jdbc:mariadb://127.0.0.1:");
		assertThat(results.database().maxConnections()).isEqualTo(EmbeddedMariaDbServer.MAX_CONNECTIONS);
		assertThat(run.resolve("pgdata")).as("no PostgreSQL started").doesNotExist();
		for (String file : List.of("report.md", "report.html")) {
			assertThat(run.resolve(file)).content().contains("embedded MariaDB").doesNotContain("PostgreSQL");
		}
		assertThat(run.resolve("recommended-application.yml")).content().doesNotContain("PostgreSQL");
		assertThat(console).content().doesNotContain("PostgreSQL");
	}

	@Test
	void jmeterCrashFailsTheSweepButKeepsFinishedPoints() throws Exception {
		try (LabProcesses processes = LabProcesses.watch(ProcessHandle.current(), this.output)) {
			Thread killer = new Thread(() -> {
				try {
					// The second round's JMeter: the first round's points are finished.
					processes.await("single-run2", Duration.ofSeconds(120)).orElseThrow().destroyForcibly();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			killer.start();
			assertThatException()
				.isThrownBy(() -> sweep(SweepEndToEndIT.freeBasePort(2), "--bench.topologies=single",
						"--bench.poolSizes=1,2", "--bench.repeats=2"))
				.isInstanceOf(LabFailureException.class)
				.withMessageContaining("JMeter exited with code");
			killer.join();
			assertNoneAlive(processes.seen());
		}
		assertThat(pointsIn(this.output.resolve("latest"))).isEqualTo(2);
	}

	/**
	 * The lab's own PostgreSQL killed by hand between two rounds: the sweep stops at
	 * once, says that the database exited and how, where the finished points are and how
	 * to rebuild the report from them, and leaves nothing running.
	 */
	@Test
	void labDatabaseKilledMidSweepEndsTheSweepWithWhatHappenedAndKeepsFinishedPoints() throws Exception {
		Path run = this.output.resolve("latest");
		List<Long> postgres = new ArrayList<>();
		// The second round's announcement: the first round's points are in results.json,
		// and the second round has not resized a pool or started its load yet.
		ConsoleCue kill = ConsoleCue.on("single-run2:", () -> postgres.addAll(killPostmaster(run)));
		try (LabProcesses processes = LabProcesses.watch(ProcessHandle.current(), this.output)) {
			assertThatException()
				.isThrownBy(() -> sweep(kill, SweepEndToEndIT.freeBasePort(1), "--bench.topologies=single",
						"--bench.poolSizes=1,2", "--bench.repeats=2"))
				.isInstanceOf(LabFailureException.class)
				.withMessageStartingWith("The lab's PostgreSQL (postmaster pid " + postgres.get(0) + ") exited")
				.withMessageContaining("exited without a word in its log, as a SIGKILL leaves it")
				.withMessageContaining("Its log: " + run.toRealPath().resolve(DatabaseVendor.POSTGRESQL.embeddedLog()))
				.withMessageContaining(
						"what failed then: Could not resize the pools to 2: the lab's PostgreSQL is gone")
				.withMessageContaining("2 finished point(s) are kept in " + run.toRealPath().resolve("results.json"))
				.withMessageContaining("-Dexec.args=" + run.toRealPath());
			assertThat(kill.ran()).isTrue();
			assertNoneAlive(processes.seen());
			assertNoneAlive(postgres);
		}
		assertThat(pointsIn(run)).isEqualTo(2);
		assertThat(Report.regenerate(run)).hasSize(1);
	}

	/**
	 * Kills the postmaster of the run's embedded PostgreSQL with SIGKILL and waits until
	 * it has exited.
	 * @return the postmaster's process id, then those of its child processes
	 */
	private static List<Long> killPostmaster(Path run) throws Exception {
		long pid = Long.parseLong(Files.readAllLines(run.resolve("pgdata/postmaster.pid")).get(0).trim());
		ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
		List<Long> pids = new ArrayList<>(List.of(pid));
		postmaster.children().forEach((child) -> pids.add(child.pid()));
		assertThat(new ProcessBuilder("kill", "-KILL", String.valueOf(pid)).start().waitFor()).isZero();
		await().atMost(Duration.ofSeconds(10)).until(() -> !LabProcesses.alive(pid));
		return pids;
	}

	/**
	 * SIGKILLs the instance on {@code port} once a process whose command line holds
	 * {@code cue} (e.g. a JMeter run's id) has started, in a thread of its own.
	 */
	private static Thread killInstanceOnceSeen(LabProcesses processes, String cue, int port) {
		Thread killer = new Thread(() -> {
			try {
				// Generous: a busy machine can take minutes to get there.
				processes.await(cue, Duration.ofMinutes(5)).orElseThrow();
				processes.await("-Dpoollab.instance=" + port, Duration.ofSeconds(5)).orElseThrow().destroyForcibly();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		killer.start();
		return killer;
	}

	private Sweep.Outcome sweep(int basePort, String... settings) throws Exception {
		return sweep(System.out, basePort, settings);
	}

	private Sweep.Outcome sweep(PrintStream console, int basePort, String... settings) throws Exception {
		List<String> args = new ArrayList<>(List.of(settings));
		args.addAll(List.of(TINY));
		args.add("--bench.outputDirectory=" + this.output);
		args.add("--bench.basePort=" + basePort);
		return BenchApplication.run(console, args.toArray(String[]::new));
	}

	private static int pointsIn(Path run) throws IOException {
		Path results = run.resolve(ResultsStore.RESULTS_JSON);
		return Files.isRegularFile(results) ? ResultsStore.read(results).points().size() : 0;
	}

	private static void assertNoneAlive(Collection<Long> pids) {
		assertThat(pids).as("processes the lab started").isNotEmpty();
		for (long pid : pids) {
			assertThat(LabProcesses.alive(pid))
				.as("process %d still alive: %s", pid,
						ProcessHandle.of(pid).flatMap((p) -> p.info().commandLine()).orElse("?"))
				.isFalse();
		}
	}

}

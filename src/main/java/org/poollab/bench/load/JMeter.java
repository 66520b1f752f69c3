package org.poollab.bench.load;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.grid.Workload;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabPaths;

/**
 * Runs the lab's JMeter plan headless, in its own JVM, on the JMeter installation the
 * jmeter-maven-plugin laid out. The JVM flags keep the generator lean on a box it shares
 * with the service and the database (measured here, see README "The load generator"): C1
 * only (the C2 compiler threads would burn ~0.4 core for the first 20 s), and a JVM-wide
 * keep-alive cache large enough for the open model's thread-per-arrival.
 */
public final class JMeter {

	private final LabPaths paths;

	private final List<String> remoteEngines;

	private final Workload workload;

	/**
	 * @param paths where JMeter is
	 * @param remoteEngines {@code host:port} of running JMeter servers
	 * ({@code jmeter -s}) to generate the load in JMeter's own distributed mode; empty to
	 * generate it here
	 * @param workload the request every arrival sends
	 */
	public JMeter(LabPaths paths, List<String> remoteEngines, Workload workload) {
		this.paths = paths;
		this.remoteEngines = List.copyOf(remoteEngines);
		this.workload = workload;
	}

	/** Whether the load comes from remote engines, whose schedule the lab cannot see. */
	public boolean distributed() {
		return !this.remoteEngines.isEmpty();
	}

	/** E.g. {@code JMeter 5.6.3 OpenModelThreadGroup, HTTP implementation Java}. */
	public String description() {
		String generator = "JMeter " + this.paths.jmeterVersion() + " OpenModelThreadGroup, HTTP implementation Java";
		return this.remoteEngines.isEmpty() ? generator
				: generator + ", distributed over remote engines " + this.remoteEngines;
	}

	/**
	 * Each remote engine runs the whole plan, so the target rate is split between them.
	 */
	public static void requireEvenSplit(List<Integer> ratesRps, List<String> remoteEngines) {
		for (int rate : ratesRps) {
			if (!remoteEngines.isEmpty() && rate % remoteEngines.size() != 0) {
				throw new BenchSettingException(
						"bench.rates=%d does not split evenly over %d remote engine(s) (bench.remoteEngines=%s): each engine runs the whole plan at rate / engines; use rates divisible by %d"
							.formatted(rate, remoteEngines.size(), String.join(",", remoteEngines),
									remoteEngines.size()));
			}
		}
	}

	/**
	 * The lab's deployments listen on 127.0.0.1 only, and the plan sends its load to the
	 * targets' 127.0.0.1: an engine on another machine would load whatever listens on its
	 * own loopback, not this lab.
	 */
	public static void requireLoopback(List<String> remoteEngines) {
		for (String engine : remoteEngines) {
			String host = engine.substring(0, engine.lastIndexOf(':'));
			boolean loopback;
			try {
				loopback = InetAddress.getByName(host).isLoopbackAddress();
			}
			catch (UnknownHostException ex) {
				loopback = false;
			}
			if (!loopback) {
				throw new BenchSettingException(
						"bench.remoteEngines=%s is not allowed: %s is not this machine's loopback, and the lab's deployment listens on 127.0.0.1 only (an engine elsewhere would send its load to its own 127.0.0.1). Use JMeter servers on this machine, e.g. 127.0.0.1:1099"
							.formatted(String.join(",", remoteEngines), host));
			}
		}
	}

	/** The sampler's response timeout; a request unanswered by then fails. */
	static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(10);

	/**
	 * One stretch of a schedule at a constant rate.
	 *
	 * @param rateRps arrivals per second, whole fleet
	 * @param length how long arrivals come at that rate
	 */
	public record Phase(int rateRps, Duration length) {
	}

	/**
	 * What JMeter is to send: one JMeter JVM runs a whole schedule, so its start-up, JIT
	 * and first late seconds are paid once per run instead of once per point, and the lab
	 * cuts its windows out of the results by timestamp.
	 *
	 * @param ramp a linear rise from no load to the first phase's rate before it (zero
	 * for none): lets a cold JVM compile its code without queueing
	 * @param phases constant-rate stretches, one after the other, each a step from the
	 * one before
	 * @param arrivals even or random (Poisson)
	 */
	public record Schedule(Duration ramp, List<Phase> phases, Arrivals arrivals) {

		public Schedule {
			phases = List.copyOf(phases);
			if (phases.isEmpty()) {
				throw new IllegalArgumentException("a schedule needs at least one phase");
			}
		}

		public Duration length() {
			long seconds = seconds(this.ramp);
			for (Phase phase : this.phases) {
				seconds += seconds(phase.length());
			}
			return Duration.ofSeconds(seconds);
		}

		/**
		 * When each phase starts, from the schedule's origin: phases last whole seconds
		 * (the Open Model Thread Group's unit), so these are exact.
		 */
		public List<Duration> phaseStarts() {
			List<Duration> starts = new ArrayList<>();
			long seconds = seconds(this.ramp);
			for (Phase phase : this.phases) {
				starts.add(Duration.ofSeconds(seconds));
				seconds += seconds(phase.length());
			}
			return starts;
		}

		/**
		 * The Open Model Thread Group's schedule for all but the last phase: two rates in
		 * a row make a step (a rate followed by arrivals and another rate would be a
		 * linear change between them); the plan appends the last phase from its
		 * {@code rate} and {@code durationSeconds} properties.
		 */
		public String before(int engines) {
			StringBuilder schedule = new StringBuilder();
			if (!this.ramp.isZero()) {
				schedule
					.append("rate(0/sec) %s_arrivals(%d sec) ".formatted(this.arrivals.label(), seconds(this.ramp)));
			}
			for (Phase phase : this.phases.subList(0, this.phases.size() - 1)) {
				int rate = phase.rateRps() / engines;
				schedule.append("rate(%d/sec) %s_arrivals(%d sec) rate(%d/sec) ".formatted(rate, this.arrivals.label(),
						seconds(phase.length()), rate));
			}
			return schedule.toString().trim();
		}

		public Phase last() {
			return this.phases.get(this.phases.size() - 1);
		}

		static long seconds(Duration duration) {
			return duration.isZero() ? 0 : Math.max(1, (duration.toMillis() + 999) / 1000);
		}

	}

	/**
	 * Starts the load: the schedule, then a pause as long as the response timeout, so
	 * that requests still in flight when the schedule ends are answered (or time out)
	 * instead of being cut off by JMeter as failures the server never caused. JMeter then
	 * exits by itself. Results are written in JMeter's buffered mode (no flush per
	 * sample: a write per request costs the generator CPU on the box under test).
	 * @param warmup whether this is load nobody measures (a warm-up), which needs no
	 * drain
	 */
	JMeterRun start(Path targets, Schedule schedule, boolean warmup, Path jtl, Path log, ChildProcesses processes)
			throws IOException {
		return start(targets, schedule, warmup, DEFAULT_PATH, jtl, log, processes);
	}

	/**
	 * {@link #start(Path, Schedule, boolean, Path, Path, ChildProcesses)} on another
	 * path.
	 */
	JMeterRun start(Path targets, Schedule schedule, boolean warmup, String path, Path jtl, Path log,
			ChildProcesses processes) throws IOException {
		Files.deleteIfExists(jtl); // JMeter appends to an existing results file
		int engines = Math.max(1, this.remoteEngines.size());
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("phases", schedule.before(engines));
		properties.put("rate", String.valueOf(schedule.last().rateRps() / engines));
		properties.put("durationSeconds", String.valueOf(Schedule.seconds(schedule.last().length())));
		Duration drain = warmup ? Duration.ofSeconds(1) : RESPONSE_TIMEOUT.plusSeconds(1);
		properties.put("drainSeconds", String.valueOf(drain.toSeconds()));
		properties.put("responseTimeoutMs", String.valueOf(RESPONSE_TIMEOUT.toMillis()));
		properties.put("arrivals", schedule.arrivals().label());
		properties.put("targets", targets.toAbsolutePath().toString());
		if (!path.equals(DEFAULT_PATH)) {
			properties.put("path", path);
		}
		Map<String, String> local = new LinkedHashMap<>();
		local.put("jmeterengine.force.system.exit", "true");
		local.put("summariser.interval", "300");
		local.putAll(minimalCsv());
		List<String> command = new ArrayList<>(
				List.of(this.paths.java(), "-XX:TieredStopAtLevel=1", "-Xms256m", "-Xmx1g", "-Dhttp.maxConnections=64",
						"-jar", this.paths.jmeterHome().resolve("bin").resolve(this.paths.jmeterJar()).toString(), "-n",
						"-t", this.paths.plan(this.workload.plan).toString(), "-l", jtl.toAbsolutePath().toString(),
						"-j", log.toAbsolutePath().toString(),
						// The open model starts a thread per request, and JMeterThread
						// logs three
						// lines for each: megabytes per run, written on the box under
						// test.
						"-Lorg.apache.jmeter.threads.JMeterThread=WARN"));
		// The plan's properties go where the plan runs: to the remote engines (-G) in
		// distributed mode. Results are written here either way.
		String planFlag = this.remoteEngines.isEmpty() ? "-J" : "-G";
		properties.forEach((name, value) -> command.add(planFlag + name + "=" + value));
		local.forEach((name, value) -> command.add("-J" + name + "=" + value));
		if (!this.remoteEngines.isEmpty()) {
			command.addAll(List.of("-R", String.join(",", this.remoteEngines), "-Jserver.rmi.ssl.disable=true",
					"-Gserver.rmi.ssl.disable=true", "-Jmode=StrippedAsynch"));
		}
		Path stdout = log.resolveSibling(log.getFileName() + ".out");
		ProcessBuilder builder = new ProcessBuilder(command).directory(this.paths.jmeterHome().resolve("bin").toFile())
			.redirectErrorStream(true)
			.redirectOutput(stdout.toFile());
		return new JMeterRun(processes.start("jmeter", builder), schedule.length(), drain, jtl, stdout,
				!this.remoteEngines.isEmpty(), processes);
	}

	/** The request path of the plans unless told otherwise. */
	static final String DEFAULT_PATH = "/roles";

	/**
	 * Only the fields the lab reads (start time, elapsed, status, success), buffered.
	 */
	private static Map<String, String> minimalCsv() {
		Map<String, String> save = new LinkedHashMap<>();
		save.put("jmeter.save.saveservice.output_format", "csv");
		save.put("jmeter.save.saveservice.print_field_names", "true");
		save.put("jmeter.save.saveservice.timestamp_format", "ms");
		save.put("jmeter.save.saveservice.autoflush", "false");
		save.put("sampleresult.timestamp.start", "true");
		for (String on : List.of("time", "timestamp", "code", "successful")) {
			save.put("jmeter.save.saveservice." + on, "true");
		}
		for (String off : List.of("label", "response_message", "thread_name", "data_type",
				"assertion_results_failure_message", "bytes", "sent_bytes", "url", "latency", "idle_time",
				"connect_time", "thread_counts", "subresults", "assertions", "encoding", "filename", "hostname",
				"sample_count")) {
			save.put("jmeter.save.saveservice." + off, "false");
		}
		return save;
	}

}

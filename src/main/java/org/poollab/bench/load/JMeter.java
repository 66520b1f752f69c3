package org.poollab.bench.load;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.grid.Requests;
import org.poollab.bench.grid.Workload;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabPaths;

/**
 * Runs the lab's JMeter plan headless, in its own JVM, on the JMeter installation the
 * jmeter-maven-plugin laid out. The JVM flags keep the generator lean on a box it shares
 * with the service and the database (measured here, see
 * src/site/markdown/design-decisions.md, "A lean load generator"): C1 only (the C2
 * compiler threads would burn ~0.4 core for the first 20 s), and a JVM-wide keep-alive
 * cache large enough for the open model's thread-per-arrival.
 */
public final class JMeter {

	private final LabPaths paths;

	private final RemoteEngines remoteEngines;

	private final Workload workload;

	/** A team's own requests instead of the workload's ({@code bench.requests}). */
	private Optional<Requests> requests = Optional.empty();

	/**
	 * @param paths where JMeter is
	 * @param remoteEngines running JMeter servers ({@code jmeter -s}) to generate the
	 * load in JMeter's own distributed mode, checked ({@link RemoteEngines#check}); none
	 * to generate it here
	 * @param workload the request every arrival sends
	 */
	public JMeter(LabPaths paths, RemoteEngines remoteEngines, Workload workload) {
		this.paths = paths;
		this.remoteEngines = remoteEngines;
		this.workload = workload;
	}

	/** This JMeter sending a team's own requests instead, each arrival one by weight. */
	public JMeter sending(Requests requests) {
		this.requests = Optional.of(requests);
		return this;
	}

	/** Whether the load comes from remote engines, each on a schedule of its own. */
	public boolean distributed() {
		return !this.remoteEngines.none();
	}

	/**
	 * The remote engines as JMeter names them: each one's threads' names begin with it
	 * and a hyphen.
	 */
	public List<String> engines() {
		return this.remoteEngines.addresses();
	}

	/** E.g. {@code JMeter 5.6.3 OpenModelThreadGroup, HTTP implementation Java}. */
	public String description() {
		String generator = "JMeter " + this.paths.jmeterVersion() + " OpenModelThreadGroup, HTTP implementation Java";
		return distributed() ? generator + ", distributed over remote engines " + engines() : generator;
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
	 * Refuses engines that could not load what the lab measures. The lab's own
	 * deployments listen on 127.0.0.1 only and the plan sends its load to the targets'
	 * 127.0.0.1, so while the lab deploys the service, an engine on another machine would
	 * load whatever listens on its own loopback: only this machine's loopback is allowed.
	 * A service the lab does not deploy is reached at its own address, so engines may be
	 * anywhere whose name resolves.
	 * @param remoteEngines {@code host:port} as in {@code bench.remoteEngines}
	 * @param labDeploys whether the lab deploys the service itself
	 * @throws BenchSettingException naming the engine that is refused and why
	 */
	public static void requireReachable(List<String> remoteEngines, boolean labDeploys) {
		for (String engine : remoteEngines) {
			String host = RemoteEngines.host(engine);
			InetAddress address;
			try {
				address = InetAddress.getByName(host);
			}
			catch (UnknownHostException ex) {
				address = null;
			}
			if (labDeploys && (address == null || !address.isLoopbackAddress())) {
				throw new BenchSettingException(
						"bench.remoteEngines=%s is not allowed: %s is not this machine's loopback, and the lab's deployment listens on 127.0.0.1 only (an engine elsewhere would send its load to its own 127.0.0.1). Use JMeter servers on this machine, e.g. 127.0.0.1:1099; engines on other hosts can load a service the lab does not deploy (bench.target=external). Nothing was started."
							.formatted(String.join(",", remoteEngines), host));
			}
			if (address == null) {
				throw new BenchSettingException(
						"bench.remoteEngines=%s is not allowed: the host %s of %s cannot be resolved. Use a host name or address this machine can reach. Nothing was started."
							.formatted(String.join(",", remoteEngines), host, engine));
			}
		}
	}

	/** The sampler's response timeout; a request unanswered by then fails. */
	static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(10);

	/**
	 * One stretch of a schedule at a constant rate.
	 *
	 * @param rateRps arrivals per second, whole fleet: the lab's rate, fractional in slow
	 * motion (e.g. 550 ÷ 8 = 68.75)
	 * @param length how long arrivals come at that rate
	 */
	public record Phase(double rateRps, Duration length) {

		/**
		 * Each engine's share of the rate as the Open Model Thread Group reads it, e.g.
		 * {@code 68.75}: JMeter 5.6.3's schedule parser takes a decimal rate
		 * ({@code rate(68.75/sec)} runs at 68.75 per second), so a lab rate that k
		 * divides unevenly stays exact.
		 */
		public String perEngine(int engines) {
			return new BigDecimal(this.rateRps / engines).round(MathContext.DECIMAL64)
				.stripTrailingZeros()
				.toPlainString();
		}

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
	public record Schedule(Duration ramp, List<Phase> phases, Arrivals arrivals, Duration responseTimeout) {

		public Schedule {
			phases = List.copyOf(phases);
			if (phases.isEmpty()) {
				throw new IllegalArgumentException("a schedule needs at least one phase");
			}
		}

		/**
		 * A schedule at the team's own speed: requests time out at
		 * {@link #RESPONSE_TIMEOUT}.
		 */
		public Schedule(Duration ramp, List<Phase> phases, Arrivals arrivals) {
			this(ramp, phases, arrivals, RESPONSE_TIMEOUT);
		}

		/**
		 * The same schedule for a deployment in slow motion: its instances wait k times
		 * longer for a connection before they answer 503, so JMeter waits k times longer
		 * for an answer, or it would cut off in the lab's time what the team's time lets
		 * finish.
		 */
		public Schedule slowed(int k) {
			return new Schedule(this.ramp, this.phases, this.arrivals, RESPONSE_TIMEOUT.multipliedBy(Math.max(1, k)));
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
				String rate = phase.perEngine(engines);
				schedule.append("rate(%s/sec) %s_arrivals(%d sec) rate(%s/sec) ".formatted(rate, this.arrivals.label(),
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
		int engines = Math.max(1, engines().size());
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("phases", schedule.before(engines));
		properties.put("rate", schedule.last().perEngine(engines));
		properties.put("durationSeconds", String.valueOf(Schedule.seconds(schedule.last().length())));
		Duration drain = warmup ? Duration.ofSeconds(1) : schedule.responseTimeout().plusSeconds(1);
		properties.put("drainSeconds", String.valueOf(drain.toSeconds()));
		properties.put("responseTimeoutMs", String.valueOf(schedule.responseTimeout().toMillis()));
		properties.put("arrivals", schedule.arrivals().label());
		properties.put("targets", targets(targets));
		if (!path.equals(DEFAULT_PATH)) {
			properties.put("path", path);
		}
		this.requests.ifPresent((team) -> properties.putAll(team.properties()));
		return launch(this.paths.plan(this.requests.isPresent() ? Requests.PLAN : this.workload.plan), properties,
				schedule.length(), drain, jtl, log, processes);
	}

	/**
	 * Runs the clock probe ({@code jmeter/clock-probe.jmx}) on every remote engine:
	 * {@link EngineCheck#PROBE_RATE_RPS} requests per second each, evenly spaced, for
	 * {@link EngineCheck#PROBE_LENGTH}, to {@code target}.
	 * @param target {@code host:port} of the lab's probe server
	 */
	JMeterRun startProbe(String target, Path jtl, Path log, ChildProcesses processes) throws IOException {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("rate", String.valueOf(EngineCheck.PROBE_RATE_RPS));
		properties.put("durationSeconds", String.valueOf(EngineCheck.PROBE_LENGTH.toSeconds()));
		properties.put("drainSeconds", "1");
		properties.put("arrivals", "even");
		properties.put("targets", target);
		properties.put("path", EngineCheck.PROBE_PATH);
		return launch(this.paths.plan(EngineCheck.PROBE_PLAN), properties, EngineCheck.PROBE_LENGTH,
				Duration.ofSeconds(1), jtl, log, processes);
	}

	/**
	 * Starts JMeter on a plan. The plan's properties go where the plan runs: to the
	 * remote engines ({@code -G}) in distributed mode, where the lab's JMeter is the
	 * client that collects their results ({@code StrippedAsynch}) and listens for them on
	 * this machine's address as the engines reach it ({@code java.rmi.server.hostname}).
	 * Over SSL, the client opens the keystore by its name from its directory, as each
	 * engine does from its own: JMeter hands the keystore's location from one side to the
	 * other with every RMI reference, so both must find it under the same name. Results
	 * are written here either way.
	 */
	private JMeterRun launch(Path plan, Map<String, String> properties, Duration length, Duration drain, Path jtl,
			Path log, ChildProcesses processes) throws IOException {
		Files.deleteIfExists(jtl); // JMeter appends to an existing results file
		Map<String, String> local = new LinkedHashMap<>();
		local.put("jmeterengine.force.system.exit", "true");
		local.put("summariser.interval", "300");
		local.putAll(minimalCsv(distributed()));
		List<String> command = new ArrayList<>(List.of(this.paths.java(), "-XX:TieredStopAtLevel=1", "-Xms256m",
				"-Xmx1g", "-Dhttp.maxConnections=64"));
		Path directory = this.paths.jmeterHome().resolve("bin");
		if (distributed()) {
			command.add("-Djava.rmi.server.hostname=" + this.remoteEngines.labAddressForEngines().getHostAddress());
			if (this.remoteEngines.ssl()) {
				directory = this.remoteEngines.keystoreDirectory();
			}
		}
		command.addAll(List.of("-jar",
				this.paths.jmeterHome().resolve("bin").resolve(this.paths.jmeterJar()).toString(), "-n", "-t",
				plan.toString(), "-l", jtl.toAbsolutePath().toString(), "-j", log.toAbsolutePath().toString(),
				// The open model starts a thread per request, and JMeterThread logs
				// three lines for each: megabytes per run, written on the box under
				// test.
				"-Lorg.apache.jmeter.threads.JMeterThread=WARN"));
		String planFlag = distributed() ? "-G" : "-J";
		properties.forEach((name, value) -> command.add(planFlag + name + "=" + value));
		local.forEach((name, value) -> command.add("-J" + name + "=" + value));
		if (distributed()) {
			command.addAll(List.of("-R", String.join(",", engines()), "-Jmode=StrippedAsynch"));
			command.add(this.remoteEngines.ssl() ? "-Jserver.rmi.ssl.keystore.file=" + this.remoteEngines.keystoreName()
					: "-Jserver.rmi.ssl.disable=true");
		}
		Path stdout = log.resolveSibling(log.getFileName() + ".out");
		ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(stdout.toFile());
		return new JMeterRun(processes.start("jmeter", builder), length, drain, jtl, stdout, distributed(), processes);
	}

	/**
	 * The plan's {@code targets} property from a targets file ({@code host,port} per
	 * line): {@code host:port}, comma-separated. The plan splits it itself, so an engine
	 * on another machine gets the targets, not the name of a file it cannot read.
	 */
	public static String targets(Path file) throws IOException {
		List<String> targets = new ArrayList<>();
		for (String line : Files.readAllLines(file)) {
			if (!line.isBlank()) {
				int comma = line.lastIndexOf(',');
				targets.add(
						authority(line.substring(0, comma).trim(), Integer.parseInt(line.substring(comma + 1).trim())));
			}
		}
		return String.join(",", targets);
	}

	/** {@code host:port}, an IPv6 address in brackets as in a URL. */
	static String authority(String host, int port) {
		return (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
	}

	/** The request path of the plans unless told otherwise. */
	static final String DEFAULT_PATH = "/roles";

	/**
	 * Only the fields the lab reads (start time, elapsed, status, success), buffered;
	 * from remote engines also the thread's name, which begins with the engine's.
	 */
	private static Map<String, String> minimalCsv(boolean distributed) {
		Map<String, String> save = new LinkedHashMap<>();
		save.put("jmeter.save.saveservice.output_format", "csv");
		save.put("jmeter.save.saveservice.print_field_names", "true");
		save.put("jmeter.save.saveservice.timestamp_format", "ms");
		save.put("jmeter.save.saveservice.autoflush", "false");
		save.put("sampleresult.timestamp.start", "true");
		for (String on : List.of("time", "timestamp", "code", "successful")) {
			save.put("jmeter.save.saveservice." + on, "true");
		}
		save.put("jmeter.save.saveservice.thread_name", String.valueOf(distributed));
		for (String off : List.of("label", "response_message", "data_type", "assertion_results_failure_message",
				"bytes", "sent_bytes", "url", "latency", "idle_time", "connect_time", "thread_counts", "subresults",
				"assertions", "encoding", "filename", "hostname", "sample_count")) {
			save.put("jmeter.save.saveservice." + off, "false");
		}
		return save;
	}

}

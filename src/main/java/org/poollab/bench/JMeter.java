package org.poollab.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the lab's JMeter plan headless, in its own JVM, on the JMeter installation the
 * jmeter-maven-plugin laid out. The JVM flags keep the generator lean on a box it shares
 * with the service and the database (../shared/FACTS.md): C1 only (the C2 compiler
 * threads would burn ~0.4 core for the first 20 s), and a JVM-wide keep-alive cache large
 * enough for the open model's thread-per-arrival.
 */
final class JMeter {

	static final String DESCRIPTION = "JMeter 5.6.3 OpenModelThreadGroup, HTTP implementation Java";

	private final LabPaths paths;

	private final List<String> remoteEngines;

	/**
	 * @param paths where JMeter is
	 * @param remoteEngines {@code host:port} of running JMeter servers
	 * ({@code jmeter -s}) to generate the load in JMeter's own distributed mode; empty to
	 * generate it here
	 */
	private final Workload workload;

	JMeter(LabPaths paths, List<String> remoteEngines, Workload workload) {
		this.paths = paths;
		this.remoteEngines = List.copyOf(remoteEngines);
		this.workload = workload;
	}

	String description() {
		return this.remoteEngines.isEmpty() ? DESCRIPTION
				: DESCRIPTION + ", distributed over remote engines " + this.remoteEngines;
	}

	/**
	 * Each remote engine runs the whole plan, so the target rate is split between them.
	 */
	static void requireEvenSplit(List<Integer> ratesRps, List<String> remoteEngines) {
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
	static void requireLoopback(List<String> remoteEngines) {
		for (String engine : remoteEngines) {
			String host = engine.substring(0, engine.lastIndexOf(':'));
			boolean loopback;
			try {
				loopback = java.net.InetAddress.getByName(host).isLoopbackAddress();
			}
			catch (java.net.UnknownHostException ex) {
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
	 * What JMeter is to send.
	 *
	 * @param rateRps arrivals per second, whole fleet
	 * @param ramp a linear rise from no load to {@code rateRps} before the steady part
	 * (zero for none): lets a cold JVM compile its code without queueing
	 * @param steady how long arrivals come at {@code rateRps}
	 * @param arrivals even or random (Poisson)
	 */
	record Schedule(int rateRps, Duration ramp, Duration steady, Arrivals arrivals) {

		/** A point's load: arrivals at the rate from the first second. */
		static Schedule constant(int rateRps, Duration length, Arrivals arrivals) {
			return new Schedule(rateRps, Duration.ZERO, length, arrivals);
		}

		Duration length() {
			return Duration.ofSeconds(seconds(this.ramp) + seconds(this.steady));
		}

		/**
		 * Even arrivals at a constant rate are exactly rate x seconds requests, so the
		 * lab can end JMeter as soon as the last one is recorded; otherwise only JMeter
		 * knows how many it sent (-1), and it runs until its drain pause is over.
		 */
		long expectedSamples(int engines) {
			boolean countable = this.arrivals == Arrivals.EVEN && this.ramp.isZero();
			return countable ? (this.rateRps / engines) * engines * seconds(this.steady) : -1;
		}

		private static long seconds(Duration duration) {
			return duration.isZero() ? 0 : Math.max(1, (duration.toMillis() + 999) / 1000);
		}

	}

	/**
	 * Starts the load: the schedule, then a pause for requests still in flight. JMeter
	 * kills requests in flight when its schedule ends (they would show as failures the
	 * server never caused), so the pause is as long as the response timeout; when the lab
	 * knows how many requests there are, {@link Run#await()} ends JMeter as soon as every
	 * one is recorded instead of waiting the pause out.
	 */
	Run start(Path targets, Schedule schedule, Path jtl, Path log, ChildProcesses processes) throws IOException {
		Files.deleteIfExists(jtl); // JMeter appends to an existing results file
		int engines = Math.max(1, this.remoteEngines.size());
		long expected = schedule.expectedSamples(engines);
		// Without a count (warm-ups, random arrivals) JMeter waits out its pause; a
		// warm-up
		// needs no straggler recorded, a measured point needs every one.
		boolean measured = expected > 0 || schedule.ramp().isZero();
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("rate", String.valueOf(schedule.rateRps() / engines));
		if (!schedule.ramp().isZero()) {
			properties.put("ramp", "rate(0/sec) %s_arrivals(%d sec)".formatted(schedule.arrivals().label(),
					Schedule.seconds(schedule.ramp())));
		}
		properties.put("durationSeconds", String.valueOf(Schedule.seconds(schedule.steady())));
		properties.put("drainSeconds", String.valueOf(measured ? RESPONSE_TIMEOUT.toSeconds() + 1 : 1));
		properties.put("responseTimeoutMs", String.valueOf(RESPONSE_TIMEOUT.toMillis()));
		properties.put("arrivals", schedule.arrivals().label());
		properties.put("targets", targets.toAbsolutePath().toString());
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
						// logs
						// three lines for each: megabytes per point, written on the box
						// under test.
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
		return new Run(processes.start("jmeter", builder), schedule.length(), expected, jtl, stdout,
				!this.remoteEngines.isEmpty(), processes);
	}

	/**
	 * Only the fields the lab reads (start time, elapsed, status, success), flushed per
	 * sample so the lab can count finished requests while JMeter runs.
	 */
	private static Map<String, String> minimalCsv() {
		Map<String, String> save = new LinkedHashMap<>();
		save.put("jmeter.save.saveservice.output_format", "csv");
		save.put("jmeter.save.saveservice.print_field_names", "true");
		save.put("jmeter.save.saveservice.timestamp_format", "ms");
		save.put("jmeter.save.saveservice.autoflush", "true");
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

	/**
	 * A running load.
	 */
	static final class Run {

		/** JMeter's own line at start; the schedule's time origin. */
		private static final Pattern STARTED = Pattern
			.compile("Starting (?:standalone|distributed) test.* @ .*\\((\\d+)\\)");

		/** JMeter listens for commands such as StopTestNow on this UDP port. */
		private static final Pattern COMMAND_PORT = Pattern.compile("StopTestNow/.* on port (\\d+)");

		private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

		private final Process process;

		private final Duration length;

		private final long expectedSamples;

		private final Path jtl;

		private final Path stdout;

		private final boolean distributed;

		private final ChildProcesses processes;

		Run(Process process, Duration length, long expectedSamples, Path jtl, Path stdout, boolean distributed,
				ChildProcesses processes) {
			this.process = process;
			this.length = length;
			this.expectedSamples = expectedSamples;
			this.jtl = jtl;
			this.stdout = stdout;
			this.distributed = distributed;
			this.processes = processes;
		}

		ProcessHandle handle() {
			return this.process.toHandle();
		}

		/**
		 * Waits until every request of the schedule is recorded, then ends JMeter.
		 * @return the schedule's origin, epoch milliseconds
		 */
		long await() throws IOException, InterruptedException {
			long originMs = awaitOrigin();
			long scheduleEndMs = originMs + this.length.toMillis();
			long deadlineMs = scheduleEndMs + RESPONSE_TIMEOUT.toMillis() + Duration.ofSeconds(30).toMillis();
			LineCounter samples = new LineCounter(this.jtl);
			while (this.process.isAlive()) {
				Thread.sleep(100);
				long now = System.currentTimeMillis();
				if (this.expectedSamples > 0 && now >= scheduleEndMs && samples.count() - 1 >= this.expectedSamples) { // -
																														// 1:
																														// the
																														// header
					end();
					return originMs;
				}
				if (now > deadlineMs) {
					this.processes.stop(handle());
					throw new LabFailureException(
							"JMeter did not finish %d s after its schedule ended; stopped it. See %s"
								.formatted((now - scheduleEndMs) / 1000, this.stdout));
				}
			}
			if (this.process.exitValue() != 0) {
				throw new LabFailureException(
						"JMeter exited with code %d; see %s".formatted(this.process.exitValue(), this.stdout));
			}
			return originMs;
		}

		/**
		 * Ends JMeter once every request is recorded. Remote engines would keep their
		 * test running (and refuse the next one) if only the client went away, so in
		 * distributed mode the client is told to stop the test everywhere: JMeter's own
		 * StopTestNow.
		 */
		private void end() throws IOException, InterruptedException {
			if (this.distributed) {
				Matcher port = COMMAND_PORT.matcher(Files.readString(this.stdout));
				if (port.find()) {
					byte[] command = "StopTestNow".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
					try (java.net.DatagramSocket socket = new java.net.DatagramSocket()) {
						socket.send(new java.net.DatagramPacket(command, command.length,
								java.net.InetAddress.getLoopbackAddress(), Integer.parseInt(port.group(1))));
					}
					this.process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS);
				}
			}
			this.processes.stop(handle());
		}

		private long awaitOrigin() throws IOException, InterruptedException {
			long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
			while (System.nanoTime() < deadline) {
				if (Files.exists(this.stdout)) {
					Matcher started = STARTED.matcher(Files.readString(this.stdout));
					if (started.find()) {
						return Long.parseLong(started.group(1));
					}
				}
				if (!this.process.isAlive()) {
					throw new LabFailureException("JMeter exited with code %d before its test started; see %s"
						.formatted(this.process.exitValue(), this.stdout));
				}
				Thread.sleep(50);
			}
			this.processes.stop(handle());
			throw new LabFailureException("JMeter did not start its test within %d s; see %s"
				.formatted(START_TIMEOUT.toSeconds(), this.stdout));
		}

	}

	/**
	 * Counts a growing file's lines, reading only what was appended since the last call.
	 */
	static final class LineCounter {

		private final Path file;

		private long position;

		private long lines;

		LineCounter(Path file) {
			this.file = file;
		}

		long count() throws IOException {
			if (!Files.exists(this.file)) {
				return 0;
			}
			try (SeekableByteChannel channel = Files.newByteChannel(this.file)) {
				channel.position(this.position);
				ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
				int read;
				while ((read = channel.read(buffer)) > 0) {
					for (int i = 0; i < read; i++) {
						if (buffer.get(i) == '\n') {
							this.lines++;
						}
					}
					this.position += read;
					buffer.clear();
				}
			}
			return this.lines;
		}

	}

}

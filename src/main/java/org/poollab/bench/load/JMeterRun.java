package org.poollab.bench.load;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;

/**
 * A running load: JMeter's process from its start line to its end, with the schedule's
 * time origin and the command port to stop it. Its own file because {@link JMeter} makes
 * the command line and this follows the process it starts.
 */
final class JMeterRun {

	/** JMeter's own line at start; the schedule's time origin. */
	private static final Pattern STARTED = Pattern
		.compile("Starting (?:standalone|distributed) test.* @ .*\\((\\d+)\\)");

	/** JMeter listens for commands such as StopTestNow on this UDP port. */
	private static final Pattern COMMAND_PORT = Pattern.compile("StopTestNow/.* on port (\\d+)");

	private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

	private final Process process;

	private final Duration length;

	private final Duration drain;

	private final Path jtl;

	private final Path stdout;

	private final boolean distributed;

	private final ChildProcesses processes;

	private long originMs = -1;

	/**
	 * @param length the schedule, up to its last arrival
	 * @param drain the plan's pause after the last arrival
	 */
	JMeterRun(Process process, Duration length, Duration drain, Path jtl, Path stdout, boolean distributed,
			ChildProcesses processes) {
		this.process = process;
		this.length = length;
		this.drain = drain;
		this.jtl = jtl;
		this.stdout = stdout;
		this.distributed = distributed;
		this.processes = processes;
	}

	ProcessHandle handle() {
		return this.process.toHandle();
	}

	Path jtl() {
		return this.jtl;
	}

	/**
	 * Waits for JMeter to start its test.
	 * @return the schedule's origin, epoch milliseconds
	 */
	long origin() throws IOException, InterruptedException {
		if (this.originMs < 0) {
			this.originMs = awaitOrigin();
		}
		return this.originMs;
	}

	/**
	 * Waits until JMeter has run its schedule and its pause for requests in flight, and
	 * has written its results and exited; a JMeter still sending {@link #LATE_STOP} after
	 * that is stopped (JMeter's StopTestNow, which writes its results).
	 * @return the schedule's origin, epoch milliseconds
	 */
	long await() throws IOException, InterruptedException {
		return await(() -> false);
	}

	/**
	 * {@link #await()}, ending the pause for requests in flight as soon as there are
	 * none: once the last arrival is {@link #IDLE_MARGIN} past, and {@code idle} has said
	 * twice in a row, {@link #IDLE_POLL} apart, that nothing is in flight at the service,
	 * JMeter is told to stop (StopTestNow), which writes its results. The plan's pause is
	 * as long as the response timeout, so that a slow request is answered or times out
	 * instead of being cut off; when the service has answered everything, JMeter would
	 * only sleep through it (its Open Model Thread Group ends with its schedule, not with
	 * its last request): 11 s per run, about two minutes of the default preset. A
	 * generator running so late that its last requests are not even sent
	 * {@link #IDLE_MARGIN} after their time has its windows judged generator-bound anyway
	 * ({@link GeneratorCheck}). Remote engines keep the whole pause.
	 * @param idle whether no request is in flight at the service now
	 * @return the schedule's origin, epoch milliseconds
	 */
	long await(BooleanSupplier idle) throws IOException, InterruptedException {
		long origin = origin();
		long lastArrivalMs = origin + this.length.toMillis();
		long scheduleEndMs = lastArrivalMs + this.drain.toMillis();
		int idleLooks = 0;
		long nextLookMs = lastArrivalMs + IDLE_MARGIN.toMillis();
		while (this.process.isAlive()) {
			Thread.sleep(100);
			long now = System.currentTimeMillis();
			if (!this.distributed && now >= nextLookMs && now < scheduleEndMs) {
				idleLooks = idle.getAsBoolean() ? idleLooks + 1 : 0;
				nextLookMs = System.currentTimeMillis() + IDLE_POLL.toMillis();
				if (idleLooks >= 2) {
					stop();
					return origin;
				}
			}
			if (now > scheduleEndMs + LATE_STOP.toMillis()) {
				// A generator far behind its schedule is still sending what was due
				// long ago; those windows are generator-bound whatever comes next.
				stop();
				return origin;
			}
		}
		if (this.process.exitValue() != 0) {
			throw new LabFailureException(
					"JMeter exited with code %d; see %s".formatted(this.process.exitValue(), this.stdout));
		}
		return origin;
	}

	/**
	 * How long JMeter may run past its schedule and drain before it is told to stop: only
	 * a generator far behind its schedule gets there.
	 */
	static final Duration LATE_STOP = Duration.ofSeconds(5);

	/** How long after the last arrival the lab first looks for requests in flight. */
	static final Duration IDLE_MARGIN = Duration.ofSeconds(1);

	/** Between two looks for requests in flight. */
	static final Duration IDLE_POLL = Duration.ofMillis(250);

	/**
	 * Ends the test now (an instance died): JMeter's own StopTestNow, so that it writes
	 * the results it has and remote engines stop too; the process is stopped if it does
	 * not exit.
	 */
	void stop() throws IOException, InterruptedException {
		Matcher port = COMMAND_PORT.matcher(Files.exists(this.stdout) ? Files.readString(this.stdout) : "");
		if (port.find()) {
			byte[] command = "StopTestNow".getBytes(StandardCharsets.US_ASCII);
			try (DatagramSocket socket = new DatagramSocket()) {
				socket.send(new DatagramPacket(command, command.length, InetAddress.getLoopbackAddress(),
						Integer.parseInt(port.group(1))));
			}
			this.process.waitFor(20, TimeUnit.SECONDS);
		}
		this.processes.stop(handle());
	}

	public boolean distributed() {
		return this.distributed;
	}

	/**
	 * What JMeter said about a run that went wrong, in a line: its lines about errors and
	 * engines that did not start, else its last line.
	 */
	String said() {
		List<String> lines;
		try {
			lines = Files.exists(this.stdout) ? Files.readAllLines(this.stdout) : List.of();
		}
		catch (IOException ex) {
			return "(its output " + this.stdout + " could not be read: " + ex.getMessage() + ")";
		}
		List<String> telling = lines.stream()
			.filter((line) -> line.contains("Error") || line.contains("rror ") || line.contains("not started")
					|| line.contains("could not be configured") || line.startsWith("Caused by"))
			.limit(3)
			.toList();
		if (telling.isEmpty()) {
			telling = lines.stream()
				.filter((line) -> !line.isBlank())
				.reduce((first, second) -> second)
				.stream()
				.toList();
		}
		return telling.isEmpty() ? "nothing" : String.join(" / ", telling).strip();
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
		throw new LabFailureException(
				"JMeter did not start its test within %d s; see %s".formatted(START_TIMEOUT.toSeconds(), this.stdout));
	}

}

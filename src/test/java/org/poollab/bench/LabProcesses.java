package org.poollab.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.poollab.bench.lab.ChildProcesses;

/**
 * Test-side view of the processes a sweep starts, by PID: what runs below this JVM (or
 * below a lab JVM started by the test), plus PostgreSQL's postmaster, which pg_ctl starts
 * outside the process tree and which is found through its pid file.
 */
final class LabProcesses implements AutoCloseable {

	private static final String NO_COMMAND_LINE = "(no command line)";

	private final Map<Long, String> seen = new ConcurrentHashMap<>();

	private final ProcessHandle root;

	private final Path output;

	private final Thread watcher;

	private volatile boolean watching = true;

	/**
	 * Processes below the root before the watch began, which the lab did not start: an
	 * embedded MariaDB of an earlier test's cached Spring context runs as a child of the
	 * test JVM until the JVM ends.
	 */
	private final Set<Long> before;

	private LabProcesses(ProcessHandle root, Path output) {
		this.root = root;
		this.output = output;
		this.before = root.descendants().map(ProcessHandle::pid).collect(Collectors.toUnmodifiableSet());
		this.watcher = new Thread(this::watch, "lab-process-watch");
		this.watcher.setDaemon(true);
		this.watcher.start();
	}

	/**
	 * Records every process below {@code root} and every postmaster under {@code output}.
	 */
	static LabProcesses watch(ProcessHandle root, Path output) {
		return new LabProcesses(root, output);
	}

	Set<Long> seen() {
		return Set.copyOf(this.seen.keySet());
	}

	/** The command lines of every process seen, in full. */
	List<String> commandLines() {
		return List.copyOf(this.seen.values());
	}

	/**
	 * What a seen process was: its command line when first seen, cut to 200 characters.
	 */
	String describe(long pid) {
		String command = this.seen.getOrDefault(pid, "?");
		return command.substring(0, Math.min(200, command.length()));
	}

	/** Waits for a process below the root whose command line contains {@code needle}. */
	Optional<ProcessHandle> await(String needle, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			Optional<ProcessHandle> found = this.root.descendants()
				.filter((p) -> p.info().commandLine().orElse("").contains(needle))
				.findFirst();
			if (found.isPresent()) {
				return found;
			}
			Thread.sleep(50);
		}
		return Optional.empty();
	}

	/** Running, that is: alive and not a zombie waiting to be reaped by init. */
	static boolean alive(long pid) {
		return ProcessHandle.of(pid).map(ChildProcesses::running).orElse(false);
	}

	@Override
	public void close() throws InterruptedException {
		this.watching = false;
		this.watcher.join();
	}

	private void watch() {
		while (this.watching) {
			this.root.descendants()
				.filter((p) -> !this.before.contains(p.pid()))
				.forEach((p) -> p.info()
					.commandLine()
					// A process caught between fork and exec has no command line yet: the
					// next look records it.
					.ifPresentOrElse(
							(line) -> this.seen.merge(p.pid(), line,
									(earlier, now) -> earlier.equals(NO_COMMAND_LINE) ? now : earlier),
							() -> this.seen.putIfAbsent(p.pid(), NO_COMMAND_LINE)));
			postmasters();
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	private void postmasters() {
		try (var files = Files.walk(this.output, 4)) {
			files.filter((file) -> file.getFileName().toString().equals("postmaster.pid")).forEach((file) -> {
				try {
					this.seen.putIfAbsent(Long.parseLong(Files.readAllLines(file).get(0).trim()), "postmaster " + file);
				}
				catch (IOException | RuntimeException ex) {
					// Being written or already removed: the next look catches it.
				}
			});
		}
		catch (IOException | UncheckedIOException ex) {
			// The directory changes while we walk it; the next look catches up.
		}
	}

}

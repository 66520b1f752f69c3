package org.poollab.vendor;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A vendor's embedded server, started from binaries on the classpath
 * ({@link DatabaseVendor#startEmbedded}), so that neither a service nor the sweep needs a
 * database installed.
 */
public interface EmbeddedDatabase extends AutoCloseable {

	String jdbcUrl();

	/** The user to connect as; the embedded servers trust local connections. */
	String user();

	/**
	 * Its server process, for whoever stops everything the lab started; empty when it
	 * cannot be found.
	 */
	Optional<ProcessHandle> process();

	/** What {@link #process()} is called where it is tracked, e.g. {@code postgres}. */
	String processName();

	/**
	 * {@link #process()} as a message about its end names it, e.g. {@code postmaster}.
	 */
	String serverName();

	/**
	 * The lines of its own log that tell how it ended: a shutdown someone asked for, a
	 * crash, a panic.
	 */
	Pattern lastWords();

	/**
	 * What is left to do once {@link #process()} has exited, however it was stopped
	 * (removing what it wrote): may run more than once.
	 */
	default void afterExit() {
	}

	/**
	 * Leaves the server's clean-up at the JVM's exit to the caller, which tracks
	 * {@link #process()} and runs {@link #afterExit()} from a shutdown path of its own
	 * (the lab's {@code ChildProcesses}).
	 */
	default void handOverShutdown() {
	}

	/** Stops the server. */
	@Override
	void close();

}

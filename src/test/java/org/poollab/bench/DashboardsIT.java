package org.poollab.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.deciding.Decisions;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.load.Dashboards;
import org.poollab.bench.telemetry.LoadWindow;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JMeter's own report generator turns a deciding point's window into its HTML dashboard,
 * and the slices of every window are gone afterwards.
 */
class DashboardsIT {

	@TempDir
	Path run;

	@Test
	void jmeterGeneratesTheDashboardOfADecidingPointFromItsWindowAndTheSlicesAreDeleted() throws Exception {
		long startMs = 1_764_000_000_000L;
		List<LoadWindow.Sample> samples = new ArrayList<>();
		for (int i = 0; i < 3000; i++) {
			// 1000 rps for 3 s, a failure now and then; one request before and one after.
			samples.add(new LoadWindow.Sample(startMs + i, 1 + i % 7, (i % 500 == 0) ? "503" : "200", i % 500 != 0));
		}
		samples.add(0, new LoadWindow.Sample(startMs - 5, 1, "200", true));
		samples.add(new LoadWindow.Sample(startMs + 3000, 1, "200", true));
		Path windows = this.run.resolve("load").resolve(Dashboards.WINDOWS);
		Path slice = windows.resolve("single-run1").resolve(Dashboards.sliceName("single", "5", 1000, 1));
		Dashboards.writeSlice(samples, startMs, startMs + 3000, "read (GET /roles)", slice);
		assertThat(Files.readAllLines(slice)).as("the header and the window's 3000 requests only").hasSize(3001);
		// A confirmation run's window of the same name is not a grid point.
		Dashboards.writeSlice(samples, startMs, startMs + 10, "read (GET /roles)",
				windows.resolve("confirm-single").resolve(Dashboards.sliceName("single", "5", 1000, 1)));

		try (ChildProcesses processes = new ChildProcesses()) {
			List<Path> written = Dashboards.generate(LabPaths.of(Path.of("target")), this.run, List
				.of(new Decisions.Deciding("single", "5", 1000, 1), new Decisions.Deciding("single", "2", 1000, 1)),
					processes, System.out);

			Path index = this.run.resolve("dashboards/single-pool5-rate1000-rep1/index.html");
			assertThat(written).as("no slice of pool 2 was written: no dashboard for it").containsExactly(index);
			assertThat(index).isRegularFile();
			String statistics = Files.readString(index.resolveSibling("statistics.json"));
			assertThat(statistics).containsPattern("\"sampleCount\"\\s*:\\s*3000")
				.containsPattern("\"errorCount\"\\s*:\\s*6\\b");
		}
		assertThat(windows).doesNotExist();
	}

}

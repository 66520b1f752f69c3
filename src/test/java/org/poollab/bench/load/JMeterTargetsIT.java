package org.poollab.bench.load;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.grid.Workload;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.telemetry.LoadWindow;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plan gets its targets themselves in its {@code targets} property, not a file, and
 * sends its requests round robin over them: here as on a remote engine
 * ({@code RemoteEngineIT}).
 */
class JMeterTargetsIT {

	@TempDir
	Path directory;

	@Test
	void requestsGoRoundRobinOverTheTargetsOfTheTargetsFile() throws Exception {
		LabPaths paths = LabPaths.of(Path.of("target"));
		List<AtomicInteger> served = new ArrayList<>();
		List<HttpServer> services = new ArrayList<>();
		try (ChildProcesses processes = new ChildProcesses()) {
			for (String address : List.of("127.0.0.1", "127.0.0.2", "127.0.0.3")) {
				AtomicInteger count = new AtomicInteger();
				services.add(StandInService.start(address, count));
				served.add(count);
			}
			Path targets = this.directory.resolve("targets.csv");
			StringBuilder lines = new StringBuilder();
			services.forEach((service) -> lines.append(service.getAddress().getHostString())
				.append(',')
				.append(service.getAddress().getPort())
				.append('\n'));
			Files.writeString(targets, lines);
			assertThat(JMeter.targets(targets))
				.matches("127\\.0\\.0\\.1:\\d+,127\\.0\\.0\\.2:\\d+,127\\.0\\.0\\.3:\\d+");
			Path jtl = this.directory.resolve("run.jtl");

			new JMeter(paths, RemoteEngines.NONE, Workload.READ)
				.start(targets,
						new JMeter.Schedule(Duration.ZERO, List.of(new JMeter.Phase(30, Duration.ofSeconds(2))),
								Arrivals.EVEN),
						true, jtl, this.directory.resolve("run.log"), processes)
				.await();

			assertThat(LoadWindow.readSamples(jtl)).hasSize(60)
				.allSatisfy((sample) -> assertThat(sample.thread()).as("not recorded for JMeter here").isEmpty());
			assertThat(served).extracting(AtomicInteger::get).containsExactly(20, 20, 20);
		}
		finally {
			services.forEach((service) -> service.stop(0));
		}
	}

}

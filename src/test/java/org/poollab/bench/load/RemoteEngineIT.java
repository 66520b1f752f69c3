package org.poollab.bench.load;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
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
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.results.EngineLoad;
import org.poollab.bench.telemetry.LoadWindow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A remote engine on another address than the lab's: a JMeter server bound to 127.0.0.4,
 * started here (not by the lab) with the keystore the lab makes, from the command the lab
 * prints. The lab's pre-flight finds it answering over RMI with SSL and its clock within
 * the limit; a schedule runs on it against two tiny HTTP servers on 127.0.0.5 and
 * 127.0.0.6, round robin over targets it gets as a property; its requests are told apart
 * and its send lag read; and it is left running, free for the next run.
 */
class RemoteEngineIT {

	private static final String ENGINE_HOST = "127.0.0.4";

	@TempDir
	Path directory;

	@Test
	void anEngineElsewhereIsCheckedRunsTheLoadOverSslAndIsLeftRunningAndFree() throws Exception {
		LabPaths paths = LabPaths.of(Path.of("target"));
		Path keystore = this.directory.resolve("lab").resolve(RemoteEngines.DEFAULT_KEYSTORE);
		ByteArrayOutputStream console = new ByteArrayOutputStream();
		PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
		// The lab makes its keystore on first use; the engine gets a copy, as a user
		// would give it.
		JMeterServer server = JMeterServer.start(paths, ENGINE_HOST, keystore, this.directory);
		RemoteEngines engines = RemoteEngines.of(List.of(server.address()), null, keystore, null,
				paths.buildDirectory());
		String engine = engines.addresses().get(0);
		List<AtomicInteger> served = new ArrayList<>();
		List<HttpServer> services = new ArrayList<>();
		try (server; ChildProcesses processes = new ChildProcesses()) {
			for (String address : List.of("127.0.0.5", "127.0.0.6")) {
				AtomicInteger count = new AtomicInteger();
				services.add(StandInService.start(address, count));
				served.add(count);
			}
			JMeter.requireReachable(engines.addresses(), true);

			assertThatException()
				.isThrownBy(() -> RemoteEngines.of(engines.addresses(), false, null, null, paths.buildDirectory())
					.check(paths, out))
				.isInstanceOf(BenchSettingException.class)
				.withMessageStartingWith(("bench.remoteEngines=%s is not allowed: the engine %s accepts connections "
						+ "but did not answer as a JMeter server over RMI without SSL")
					.formatted(engine, engine));

			long checkStartNanos = System.nanoTime();
			RemoteEngines checked = engines.check(paths, out);
			Duration check = Duration.ofNanos(System.nanoTime() - checkStartNanos);

			assertThat(console.toString(StandardCharsets.UTF_8)).contains(
					"Remote engine %s answers as a JMeter server (RMI over SSL); its clock is ".formatted(engine));
			assertThat(checked.labAddress()).isNotNull()
				.satisfies((lab) -> assertThat(lab.isLoopbackAddress()).isTrue());
			assertThat(checked.clocks()).singleElement().satisfies((skew) -> {
				assertThat(skew.engine()).isEqualTo(engine);
				assertThat(skew.requests()).as("5 per second for 2 s").isEqualTo(10);
				assertThat(skew.beyond(checked.maxClockSkew())).as(skew.describe()).isFalse();
			});

			Path targets = this.directory.resolve("targets.csv");
			Files.writeString(targets, "127.0.0.5,%d%n127.0.0.6,%d%n".formatted(services.get(0).getAddress().getPort(),
					services.get(1).getAddress().getPort()));
			Path jtl = this.directory.resolve("run.jtl");
			JMeterRun run = new JMeter(paths, checked, Workload.READ).start(targets, new JMeter.Schedule(Duration.ZERO,
					List.of(new JMeter.Phase(20, Duration.ofSeconds(3))), Arrivals.EVEN), true, jtl,
					this.directory.resolve("run.log"), processes);
			run.await();

			List<LoadWindow.Sample> samples = LoadWindow.readSamples(jtl);
			assertThat(samples).as("20 per second for 3 s, all from the engine").hasSize(60).allSatisfy((sample) -> {
				assertThat(sample.success()).isTrue();
				assertThat(sample.thread()).startsWith(engine + "-");
			});
			assertThat(served).as("round robin over the two targets")
				.extracting(AtomicInteger::get)
				.containsExactly(30, 30);
			long firstMs = samples.get(0).startMs();
			long endMs = samples.get(samples.size() - 1).startMs() + 1;
			LoadWindow.Engines loads = LoadWindow.engines(samples, checked.addresses(), firstMs, endMs, 20, firstMs);
			assertThat(loads.loads()).singleElement().satisfies((load) -> {
				assertThat(load.engine()).isEqualTo(engine);
				assertThat(load.achievedRps()).isPositive();
				assertThat(load.startLagP99Ms()).as("known for even arrivals").isNotNegative();
				assertThat(load.describe()).startsWith(engine + " sent ").contains(", late p99 ");
			});
			assertThat(EngineLoad.describe(loads.loads())).contains(engine);

			assertThat(server.isAlive()).as("the lab never stops an engine").isTrue();
			// Free for the next run: the check runs a plan on it again.
			assertThat(engines.check(paths, out).clocks()).singleElement()
				.satisfies((skew) -> assertThat(skew.requests()).isEqualTo(10));
			assertThat(server.isAlive()).isTrue();
			System.out.print(console.toString(StandardCharsets.UTF_8));
			System.out.println("The check took " + check.toMillis() + " ms. Engine "
					+ EngineLoad.describe(loads.loads()) + "; its first request came " + (firstMs - run.origin())
					+ " ms after the lab's JMeter started the test");
		}
		finally {
			services.forEach((service) -> service.stop(0));
		}
	}

	@Test
	void anEngineThatDoesNotAnswerIsRefusedBeforeAnythingStarts() throws Exception {
		LabPaths paths = LabPaths.of(Path.of("target"));
		int closed;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(ENGINE_HOST))) {
			closed = socket.getLocalPort();
		}
		String engine = ENGINE_HOST + ":" + closed;
		Path keystore = this.directory.resolve(RemoteEngines.DEFAULT_KEYSTORE);
		RemoteEngines engines = RemoteEngines.of(List.of(engine), null, keystore, null, paths.buildDirectory());
		ByteArrayOutputStream console = new ByteArrayOutputStream();
		long childrenBefore = ProcessHandle.current().children().count();

		assertThatException()
			.isThrownBy(() -> engines.check(paths, new PrintStream(console, true, StandardCharsets.UTF_8)))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith(
					"bench.remoteEngines=%s is not allowed: the engine %s does not answer: a TCP connection to %s was not accepted within 2000 ms"
						.formatted(engine, engine, engine))
			.withMessageContaining("-Djava.rmi.server.hostname=127.0.0.4")
			.withMessageContaining("-Jserver_port=%d -Jserver.rmi.localport=%d".formatted(closed, closed + 1))
			.withMessageContaining("-Jserver.rmi.ssl.keystore.file=rmi_keystore.jks")
			.withMessageEndingWith("Nothing was started.");
		assertThat(ProcessHandle.current().children().count()).as("no JMeter started").isEqualTo(childrenBefore);
		// The keystore the user needs to start the engine is made all the same, and said.
		assertThat(keystore).isRegularFile();
		assertThat(console.toString(StandardCharsets.UTF_8)).contains("Made the RMI keystore " + keystore)
			.contains("-Jserver_port=" + closed);
	}

}

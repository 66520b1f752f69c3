package org.poollab.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.results.Point;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sweep drives its load through JMeter's own distributed mode: one JMeter server
 * ({@code jmeter -s}) started here, reached over RMI on 127.0.0.1 only, without SSL (the
 * opt-out, {@code bench.remoteEnginesSsl=false}; {@code RemoteEngineIT} runs an engine
 * over SSL).
 */
class DistributedLoadIT {

	@TempDir
	Path output;

	@Test
	void sweepGeneratesItsLoadOnARemoteEngine() throws Exception {
		LabPaths paths = LabPaths.of(Path.of("target"));
		int[] ports = { SweepEndToEndIT.freeBasePort(1), 0 };
		ports[1] = ports[0] + 1;
		Process server = new ProcessBuilder(paths.java(), "-XX:TieredStopAtLevel=1",
				"-Djava.rmi.server.hostname=127.0.0.1", "-Dhttp.maxConnections=64", "-jar",
				paths.jmeterHome().resolve("bin").resolve(paths.jmeterJar()).toString(), "-s",
				"-Jserver.rmi.ssl.disable=true", "-Jserver_port=" + ports[0], "-Jserver.rmi.localport=" + ports[1],
				"-j", this.output.resolve("jmeter-server.log").toString())
			.directory(paths.jmeterHome().resolve("bin").toFile())
			.redirectErrorStream(true)
			.redirectOutput(this.output.resolve("jmeter-server.out").toFile())
			.start();
		try {
			await().atMost(Duration.ofSeconds(60)).until(() -> listening(ports[0]));
			Sweep.Outcome outcome = BenchApplication.run(SweepEndToEndIT.NO_HOLD, SweepEndToEndIT.EVEN_ARRIVALS,
					"--bench.topologies=single", "--bench.poolSizes=2", "--bench.rates=60", "--bench.duration=3s",
					"--bench.warmup=1s", "--bench.topologyWarmup=0s", "--bench.confirmation=0s",
					"--bench.remoteEngines=127.0.0.1:" + ports[0], "--bench.remoteEnginesSsl=false",
					"--bench.outputDirectory=" + this.output, "--bench.basePort=" + SweepEndToEndIT.freeBasePort(2));
			assertThat(outcome.results().host().loadGenerator())
				.endsWith("distributed over remote engines [127.0.0.1:" + ports[0] + "]");
			List<Point> points = outcome.results().points();
			assertThat(points).singleElement().satisfies((point) -> {
				// A busy machine may make the engine start its requests late; the lab
				// then
				// says so, naming the engine, which is behaviour too.
				assertThat(point.outcome()).satisfiesAnyOf((verdict) -> assertThat(verdict).isEqualTo("ok"),
						(verdict) -> assertThat(verdict).startsWith("generator-bound: JMeter sent late")
							.contains("remote engines: 127.0.0.1:" + ports[0]));
				// 60 rps x 3 s = 180 in the window, which follows the client's start: the
				// engine starts a few tens of ms later, and on a busy machine a stalled
				// engine sends late requests in a burst, so a few more or less land in
				// it. A generator-bound point sent what the engine could (106, at 35 rps,
				// in a fresh-clone run of b97af8f).
				assertThat(point.samples()).isPositive();
				if (point.ok()) {
					assertThat(point.samples()).isBetween(160L, 195L);
				}
				SweepEndToEndIT.assertServed(point, "200");
				assertThat(point.pool().observedMax()).containsExactly(2);
				// The engine's requests are told apart and judged against its own even
				// schedule.
				assertThat(point.engines()).singleElement().satisfies((engine) -> {
					assertThat(engine.engine()).isEqualTo("127.0.0.1:" + ports[0]);
					assertThat(engine.achievedRps()).isPositive();
					assertThat(engine.startLagP99Ms()).isNotNegative();
				});
				assertThat(point.startLagP99Ms()).isNotNegative();
			});
			assertThat(server.isAlive()).as("the remote engine is not the lab's to stop").isTrue();
			// The engine, not a local JMeter, ran the plan: once per point (warm-up and
			// window).
			assertThat(this.output.resolve("jmeter-server.out")).content()
				.contains("Starting the test on host 127.0.0.1:" + ports[0])
				.contains("Finished the test on host 127.0.0.1:" + ports[0]);
		}
		finally {
			server.destroy();
			server.waitFor();
		}
	}

	private static boolean listening(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}

package org.poollab.bench.deploy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.RequestThreads;
import org.poollab.vendor.DatabaseVendor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code bench.resizeCommand}: the user's command runs once per pool size with the size
 * in it, its output kept, and the lab waits until every instance's actuator reports the
 * new size; a failing command, one that never ends and a fleet that never reports the
 * size stop the sweep saying which. The fleet here is two stand-in actuators serving
 * {@code hikaricp_connections_max} from a file the command writes, as a redeploy would
 * change it (the real resize endpoint is ExternalTargetSweepIT's).
 */
class ResizeCommandTests {

	@TempDir
	Path directory;

	private final ChildProcesses processes = new ChildProcesses();

	private final ByteArrayOutputStream console = new ByteArrayOutputStream();

	private HttpServer actuators;

	private Path size;

	@BeforeEach
	void startTheStandInActuators() throws IOException {
		this.size = this.directory.resolve("size");
		Files.writeString(this.size, "7\n");
		this.actuators = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		for (String instance : List.of("a", "b")) {
			this.actuators.createContext("/" + instance + "/actuator/prometheus", (exchange) -> {
				byte[] body = ("# TYPE hikaricp_connections_max gauge\nhikaricp_connections_max{pool=\"roles-8080\"} "
						+ Files.readString(this.size).strip() + ".0\n")
					.getBytes(StandardCharsets.UTF_8);
				exchange.sendResponseHeaders(200, body.length);
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(body);
				}
			});
		}
		this.actuators.start();
	}

	@AfterEach
	void stop() {
		this.actuators.stop(0);
		this.processes.close();
	}

	@Test
	void runsTheCommandPerSizeWaitsForEveryInstanceAndRestoresTheSizeFound() throws Exception {
		// The "redeploy" takes a moment to show: the lab must wait for it.
		Deployment deployment = deploy("sleep 1; echo resizing to {poolSize}; echo {poolSize} > " + this.size,
				Duration.ofSeconds(30));

		assertThat(deployment.poolSize()).isEqualTo(4);
		assertThat(Files.readString(this.size).strip()).isEqualTo("4");
		deployment.resize(2);
		assertThat(Files.readString(this.size).strip()).isEqualTo("2");
		Path logs = this.directory.resolve("run/deploy/external");
		assertThat(logs.resolve("resize-4.log")).content().isEqualTo("resizing to 4\n");
		assertThat(logs.resolve("resize-2.log")).content().isEqualTo("resizing to 2\n");

		deployment.close();
		assertThat(Files.readString(this.size).strip()).isEqualTo("7");
		assertThat(this.console.toString(StandardCharsets.UTF_8)).contains("pools are back at [7, 7], as found");
		// Three commands: to 4, to 2, back to 7; none left running.
		assertThat(this.processes.everStarted()).hasSize(3).noneMatch(ResizeCommandTests::running);
	}

	@Test
	void aFailingCommandStopsTheSweepNamingItsOutput() {
		assertThatExceptionOfType(LabFailureException.class)
			.isThrownBy(() -> deploy("echo no cluster here; exit 3 # {poolSize}", Duration.ofSeconds(30)))
			.withMessageContaining("bench.resizeCommand for pool size 4 failed (exit code 3)")
			.withMessageContaining("resize-4.log");
	}

	@Test
	void aCommandThatNeverEndsIsStoppedAtTheTimeout() {
		assertThatExceptionOfType(LabFailureException.class)
			.isThrownBy(() -> deploy("sleep 600 # {poolSize}", Duration.ofSeconds(1)))
			.withMessageContaining("did not end within PT1S (bench.resizeTimeout); it was stopped");
		assertThat(this.processes.everStarted()).hasSizeGreaterThanOrEqualTo(2).noneMatch(ResizeCommandTests::running);
	}

	@Test
	void aFleetThatNeverReportsTheSizeStopsTheSweepSayingWhatItReports() {
		assertThatExceptionOfType(LabFailureException.class)
			.isThrownBy(() -> deploy("true {poolSize}", Duration.ofSeconds(2)))
			.withMessageContaining("the instances report hikaricp_connections_max [7, 7]")
			.withMessageContaining("not 4, within PT2S (bench.resizeTimeout)");
	}

	private static boolean running(long pid) {
		return ProcessHandle.of(pid).map(ChildProcesses::running).orElse(false);
	}

	private Deployment deploy(String command, Duration timeout) throws IOException, InterruptedException {
		String base = "http://127.0.0.1:" + this.actuators.getAddress().getPort();
		ExternalTarget target = ExternalTarget.of(List.of(base), List.of(base + "/a/actuator", base + "/b/actuator"),
				command, timeout, false, Optional.empty());
		return Deployment.external(target, List.of(7, 7), 4,
				new Limits(0, Limits.AS_DEPLOYED, RequestThreads.TOMCAT_DEFAULT),
				new Deployment.Context(Database.unchecked(DatabaseVendor.POSTGRESQL), this.directory.resolve("run"),
						this.processes, new PrintStream(this.console, true, StandardCharsets.UTF_8)));
	}

}

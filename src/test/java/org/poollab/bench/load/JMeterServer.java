package org.poollab.bench.load;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.poollab.bench.lab.LabPaths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A JMeter server a test starts as a user would (never the lab): from the command the lab
 * prints ({@link RemoteEngines#startCommand}), with this machine's JDK and JMeter, in a
 * directory of its own holding its copy of the lab's RMI keystore, bound to a loopback
 * address that stands in for another host. Stopped by {@link #close()}.
 */
public final class JMeterServer implements AutoCloseable {

	private final Process process;

	private final String address;

	private JMeterServer(Process process, String address) {
		this.process = process;
		this.address = address;
	}

	/**
	 * Starts a server on {@code host} (two free ports in a row: its registry and its
	 * object) and waits until it is bound to its registry.
	 * @param keystore the lab's keystore, copied to the server's directory (null: RMI
	 * without SSL)
	 * @param directory where its directory, log and output go
	 */
	public static JMeterServer start(LabPaths paths, String host, Path keystore, Path directory)
			throws IOException, InterruptedException {
		String engine = host + ":" + freePortPair(host);
		RemoteEngines engines = RemoteEngines.of(List.of(engine), keystore != null, keystore, null,
				paths.buildDirectory());
		Path home = Files.createDirectories(directory.resolve("engine-" + host));
		if (keystore != null) {
			RmiKeystore.ensure(keystore);
			Files.copy(keystore, home.resolve(keystore.getFileName()));
		}
		List<String> command = new ArrayList<>();
		for (String word : engines.startCommand(engine, paths.jmeterJar()).split(" ")) {
			command
				.add(word.equals("java") ? paths.java() : word.replace("JMETER_HOME", paths.jmeterHome().toString()));
		}
		Path log = home.resolve("engine.log");
		command.addAll(List.of("-j", log.toString()));
		Process process = new ProcessBuilder(command).directory(home.toFile())
			.redirectErrorStream(true)
			.redirectOutput(home.resolve("engine.out").toFile())
			.start();
		JMeterServer server = new JMeterServer(process, engine);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> !process.isAlive()
					|| Files.exists(log) && Files.readString(log).contains("Bound to RMI registry"));
		assertThat(process.isAlive()).as("the engine started: %s", home.resolve("engine.out")).isTrue();
		return server;
	}

	/** {@code host:port}, as {@code bench.remoteEngines} names it. */
	public String address() {
		return this.address;
	}

	public boolean isAlive() {
		return this.process.isAlive();
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		this.process.waitFor();
	}

	/** A port on {@code host} whose next port is free too. */
	private static int freePortPair(String host) throws IOException {
		InetAddress address = InetAddress.getByName(host);
		for (int attempt = 0; attempt < 50; attempt++) {
			try (ServerSocket first = new ServerSocket(0, 1, address)) {
				int port = first.getLocalPort();
				if (port < 65_535) {
					try (ServerSocket second = new ServerSocket(port + 1, 1, address)) {
						return port;
					}
					catch (IOException taken) {
						// try another
					}
				}
			}
		}
		throw new IllegalStateException("no two free ports in a row on " + host);
	}

}

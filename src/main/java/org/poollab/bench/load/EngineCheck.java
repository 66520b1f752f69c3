package org.poollab.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.server.RMIClientSocketFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;

import org.poollab.bench.grid.Workload;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.telemetry.LoadWindow;

import org.springframework.util.FileSystemUtils;

/**
 * What the lab checks of its remote engines before anything starts, cheapest first: with
 * SSL, that the keystore is there (made when it is not); that each engine accepts a TCP
 * connection; that it answers as a JMeter server over RMI (its registry, reached the way
 * the lab's JMeter will, lists {@code JMeterEngine}); and that its clock is within
 * {@code bench.maxClockSkew} of the lab's ({@link ClockProbe}): the lab's JMeter runs
 * {@code jmeter/clock-probe.jmx} on every engine, whose requests go to a probe server the
 * lab runs for the moment on its address as the engines reach it. The probe also proves
 * that the engines run a plan, reach this machine and send their results back.
 */
final class EngineCheck {

	/** What JMeter's server binds in its RMI registry. */
	static final String ENGINE_NAME = "JMeterEngine";

	/** The probe plan. */
	static final String PROBE_PLAN = "clock-probe.jmx";

	/** Probe requests per second from each engine, evenly spaced. */
	static final int PROBE_RATE_RPS = 5;

	/** How long each engine sends them. */
	static final Duration PROBE_LENGTH = Duration.ofSeconds(2);

	/** The probe's request path. */
	static final String PROBE_PATH = "/clock-probe";

	/** How often, {@link #BIND_WAIT} apart, a registry is asked for the engine. */
	private static final int BIND_LOOKS = 5;

	private static final Duration BIND_WAIT = Duration.ofMillis(200);

	/** How long an RMI call to an engine may wait for an answer. */
	private static final Duration RMI_READ_TIMEOUT = Duration.ofSeconds(5);

	private final RemoteEngines engines;

	private final LabPaths paths;

	private final PrintStream out;

	EngineCheck(RemoteEngines engines, LabPaths paths, PrintStream out) {
		this.engines = engines;
		this.paths = paths;
		this.out = out;
	}

	RemoteEngines run() throws IOException, InterruptedException {
		SSLContext tls = null;
		if (this.engines.ssl()) {
			Path file = Objects.requireNonNull(this.engines.keystore(), "no keystore without SSL");
			RmiKeystore keystore = RmiKeystore.ensure(file, () -> {
				this.out.printf(Locale.ROOT,
						"Made the RMI keystore %s (RSA 2048, alias %s, password %s as JMeter's create-rmi-keystore.sh makes it, valid %d days); the lab keeps it. Copy it to every engine and start each there from the directory that holds the copy:%n",
						file, RmiKeystore.ALIAS, RmiKeystore.PASSWORD, RmiKeystore.VALIDITY.toDays());
				this.engines.addresses()
					.forEach((engine) -> this.out
						.println("  " + this.engines.startCommand(engine, this.paths.jmeterJar())));
			});
			tls = keystore.sslContext();
		}
		Map<String, InetAddress> labAddresses = new LinkedHashMap<>();
		for (String engine : this.engines.addresses()) {
			labAddresses.put(engine, requireAnswer(engine));
		}
		for (String engine : this.engines.addresses()) {
			requireJMeterServer(engine, tls);
		}
		InetAddress labAddress = labAddresses.values().iterator().next();
		List<ClockProbe.Skew> skews = probeClocks(labAddress);
		for (ClockProbe.Skew skew : skews) {
			this.out.printf(Locale.ROOT,
					"Remote engine %s answers as a JMeter server (%s); its clock is %s, within bench.maxClockSkew=%dms.%n",
					skew.engine(), this.engines.ssl() ? "RMI over SSL" : "RMI without SSL", skew.describe(),
					this.engines.maxClockSkew().toMillis());
		}
		return this.engines.checked(labAddress, skews);
	}

	/**
	 * @return the local address of the connection: this machine's address as the engine
	 * reaches it
	 */
	private InetAddress requireAnswer(String engine) {
		String host = RemoteEngines.host(engine);
		int port = RemoteEngines.port(engine);
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), (int) RemoteEngines.CONNECT_TIMEOUT.toMillis());
			return socket.getLocalAddress();
		}
		catch (IOException ex) {
			throw refused(engine, "does not answer: a TCP connection to %s:%d was not accepted within %d ms (%s)"
				.formatted(host, port, RemoteEngines.CONNECT_TIMEOUT.toMillis(), ex.getMessage()));
		}
	}

	/**
	 * Asks the engine's RMI registry what it holds, over the transport the lab's JMeter
	 * will use: a registry that does not list {@code JMeterEngine}, or an SSL handshake
	 * that fails (another keystore, or an engine without SSL), is refused here rather
	 * than when the first point's load does not start.
	 */
	private void requireJMeterServer(String engine, @Nullable SSLContext tls) throws InterruptedException {
		String[] bound = {};
		// A server binds its engine moments after its registry listens.
		for (int look = 0; look < BIND_LOOKS && !Arrays.asList(bound).contains(ENGINE_NAME); look++) {
			if (look > 0) {
				Thread.sleep(BIND_WAIT.toMillis());
			}
			try {
				bound = LocateRegistry
					.getRegistry(RemoteEngines.host(engine), RemoteEngines.port(engine), new Sockets(tls))
					.list();
			}
			catch (RemoteException ex) {
				throw refused(engine, "accepts connections but did not answer as a JMeter server over %s (%s)"
					.formatted(this.engines.ssl() ? "RMI with SSL" : "RMI without SSL", rootCause(ex)));
			}
		}
		if (!Arrays.asList(bound).contains(ENGINE_NAME)) {
			throw refused(engine, "answers over RMI but holds no %s (its registry holds %s): it is not a JMeter server"
				.formatted(ENGINE_NAME, Arrays.toString(bound)));
		}
	}

	/**
	 * Runs the probe plan on every engine against a probe server here, and reads each
	 * engine's skew from its requests.
	 */
	private List<ClockProbe.Skew> probeClocks(InetAddress labAddress) throws IOException, InterruptedException {
		Probed probed = runProbe(labAddress);
		List<ClockProbe.Skew> skews = new ArrayList<>();
		for (String engine : this.engines.addresses()) {
			skews.add(skew(engine, probed, labAddress));
		}
		return skews;
	}

	/**
	 * What the probe plan sent and the probe server saw.
	 *
	 * @param samples the probe's requests as JMeter recorded them
	 * @param said what the lab's JMeter said
	 * @param arrivals when each request arrived at the probe server, epoch milliseconds
	 * by {@code engine#n}
	 * @param probe the probe server's address as the engines reach it
	 */
	private record Probed(List<LoadWindow.Sample> samples, String said, Map<String, Double> arrivals, String probe) {
	}

	/** Runs the probe plan on every engine, against a probe server that lives for it. */
	private Probed runProbe(InetAddress labAddress) throws IOException, InterruptedException {
		Map<String, Double> arrivals = new ConcurrentHashMap<>();
		HttpServer probe = HttpServer.create(new InetSocketAddress(labAddress, 0), 0);
		probe.createContext(PROBE_PATH, (exchange) -> {
			double arrivedMs = epochMs(Instant.now());
			Map<String, String> query = query(exchange);
			arrivals.put(query.getOrDefault("engine", "") + "#" + query.getOrDefault("n", ""), arrivedMs);
			answer(exchange);
		});
		Path directory = Files.createTempDirectory("poollab-clock-probe");
		probe.start();
		try (ChildProcesses processes = new ChildProcesses()) {
			String target = JMeter.authority(labAddress.getHostAddress(), probe.getAddress().getPort());
			// The workload is the clock probe's own.
			JMeterRun run = new JMeter(this.paths, this.engines.checked(labAddress, List.of()), Workload.READ)
				.startProbe(target, directory.resolve("probe.jtl"), directory.resolve("probe.log"), processes);
			try {
				run.await();
			}
			catch (LabFailureException ex) {
				throw new BenchSettingException(
						"%s is not allowed: the lab's JMeter could not run the clock probe on the engines (%s; it said: %s). Nothing was started."
							.formatted(this.engines.setting(), ex.getMessage(), run.said()),
						ex);
			}
			String said = run.said();
			List<LoadWindow.Sample> samples = Files.exists(directory.resolve("probe.jtl"))
					? LoadWindow.readSamples(directory.resolve("probe.jtl")) : List.of();
			return new Probed(samples, said, arrivals, target);
		}
		finally {
			probe.stop(0);
			FileSystemUtils.deleteRecursively(directory);
		}
	}

	/**
	 * One engine's skew from its probe requests.
	 * @throws BenchSettingException when it sent none, none arrived, or its clock is
	 * beyond {@code bench.maxClockSkew}
	 */
	private ClockProbe.Skew skew(String engine, Probed probed, InetAddress labAddress) {
		List<LoadWindow.Sample> sent = probed.samples()
			.stream()
			.filter((sample) -> sample.thread().startsWith(engine + "-"))
			.toList();
		if (sent.isEmpty()) {
			throw refused(engine,
					"answers over RMI but ran none of the clock probe's requests (the lab's JMeter said: %s)"
						.formatted(probed.said()));
		}
		List<ClockProbe.Reading> readings = new ArrayList<>();
		for (LoadWindow.Sample sample : sent) {
			Double arrivedMs = probed.arrivals().get(engine + "#" + threadNumber(sample.thread()));
			if (sample.success() && arrivedMs != null) {
				readings.add(new ClockProbe.Reading(sample.startMs(), sample.elapsedMs(), arrivedMs));
			}
		}
		Optional<ClockProbe.Skew> skew = ClockProbe.skew(engine, readings);
		if (skew.isEmpty()) {
			throw refused(engine,
					"ran the clock probe but none of its %d requests reached the lab's probe at http://%s%s (JMeter's response code: %s): the engines must reach this machine at %s on any port"
						.formatted(sent.size(), probed.probe(), PROBE_PATH, sent.get(0).code(),
								labAddress.getHostAddress()));
		}
		if (skew.get().beyond(this.engines.maxClockSkew())) {
			throw new BenchSettingException(
					"%s is not allowed: the clock of %s is %s, beyond bench.maxClockSkew=%dms. The lab cuts every window out of the engines' timestamps by its own clock: synchronize the clocks (NTP), or raise bench.maxClockSkew (at most %d ms). Nothing was started."
						.formatted(this.engines.setting(), engine, skew.get().describe(),
								this.engines.maxClockSkew().toMillis(), RemoteEngines.MOST_CLOCK_SKEW.toMillis()));
		}
		return skew.get();
	}

	/**
	 * A refusal naming the engine, what was tried, and how to start an engine the lab can
	 * use.
	 */
	private BenchSettingException refused(String engine, String what) {
		String keystore = this.engines.ssl() ? " with a copy of the lab's keystore %s, from the directory that holds it"
			.formatted(this.engines.keystore()) : "";
		return new BenchSettingException(
				"%s is not allowed: the engine %s %s. The lab never starts engines: start JMeter %s's server there%s, e.g. %s; or leave it out. Nothing was started."
					.formatted(this.engines.setting(), engine, what, this.paths.jmeterVersion(), keystore,
							this.engines.startCommand(engine, this.paths.jmeterJar())));
	}

	/** The arrival number JMeter ends a thread's name with ({@code ... 1-<n>}). */
	static String threadNumber(String thread) {
		return thread.substring(thread.lastIndexOf('-') + 1);
	}

	private static double epochMs(Instant instant) {
		return instant.getEpochSecond() * 1000.0 + instant.getNano() / 1e6;
	}

	private static Map<String, String> query(HttpExchange exchange) {
		Map<String, String> query = new HashMap<>();
		String raw = exchange.getRequestURI().getRawQuery();
		if (raw == null) {
			return query;
		}
		for (String pair : raw.split("&")) {
			int equals = pair.indexOf('=');
			if (equals > 0) {
				query.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
						URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
			}
		}
		return query;
	}

	private static void answer(HttpExchange exchange) throws IOException {
		byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
		exchange.sendResponseHeaders(200, body.length);
		try (var response = exchange.getResponseBody()) {
			response.write(body);
		}
	}

	private static String rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return cause.getClass().getSimpleName() + ": " + cause.getMessage();
	}

	/**
	 * Connections to an engine's registry: with a timeout, and over TLS with the lab's
	 * keystore when SSL is on, as JMeter's own SSL socket factory makes them.
	 */
	private record Sockets(@Nullable SSLContext tls) implements RMIClientSocketFactory {

		@Override
		public Socket createSocket(String host, int port) throws IOException {
			Socket socket = new Socket();
			try {
				socket.connect(new InetSocketAddress(host, port), (int) RemoteEngines.CONNECT_TIMEOUT.toMillis());
				socket.setSoTimeout((int) RMI_READ_TIMEOUT.toMillis());
				return (this.tls != null) ? this.tls.getSocketFactory().createSocket(socket, host, port, true) : socket;
			}
			catch (IOException ex) {
				socket.close();
				throw ex;
			}
		}

	}

}

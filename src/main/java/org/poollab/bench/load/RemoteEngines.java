package org.poollab.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.lab.LabPaths;

/**
 * The JMeter servers ({@code jmeter -s}) the load comes from in JMeter's distributed
 * mode, and how the lab talks to them. They are not the lab's: it never starts or stops
 * them, it checks before anything starts that each answers and that its clock agrees with
 * the lab's ({@link EngineCheck}), and it frees them at the end of every run.
 *
 * @param addresses {@code host:port} of each engine's RMI registry, as written in
 * {@code bench.remoteEngines}; JMeter names each engine's threads after it
 * ({@code host:port-<thread group> 1-<n>}), which is how the lab tells their samples
 * apart
 * @param ssl RMI over SSL ({@code bench.remoteEnginesSsl}, on unless set to false)
 * @param keystore the keystore that authenticates the lab and the engines to each other
 * (when {@code ssl})
 * @param maxClockSkew the most an engine's clock may be off the lab's
 * ({@code bench.maxClockSkew})
 * @param labAddress this machine's address as the engines reach it, once checked; the
 * lab's JMeter listens there for the engines' results
 * @param clocks what the clock probe measured, once checked, one per engine
 */
public record RemoteEngines(List<String> addresses, boolean ssl, @Nullable Path keystore, Duration maxClockSkew,
		@Nullable InetAddress labAddress, List<ClockProbe.Skew> clocks) {

	/**
	 * The default {@code bench.maxClockSkew}. The lab cuts every window out of the
	 * engines' timestamps by its own clock, so a skew moves each window by as much: 50 ms
	 * is under 2 % of the shortest preset window (3 s, {@code quick}), inside the 3 % by
	 * which the rate sent may miss before a point counts as generator-bound.
	 */
	public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofMillis(50);

	/**
	 * The most {@code bench.maxClockSkew} may be: points in one run are at least 1 s of
	 * settling apart, and a larger skew would cut a window's requests out of the
	 * neighbouring point's phase.
	 */
	public static final Duration MOST_CLOCK_SKEW = Duration.ofSeconds(1);

	/**
	 * The keystore's name when {@code bench.rmiKeystore} is not set, in the build
	 * directory.
	 */
	public static final String DEFAULT_KEYSTORE = "rmi_keystore.jks";

	/** What {@code bench.remoteEngines} accepts, for messages and the options page. */
	public static final String ALLOWED = "comma-separated host:port of running JMeter servers, a port from 1 to 65535, e.g. 127.0.0.1:1099";

	/**
	 * How long an engine has to accept a TCP connection before it counts as not
	 * answering.
	 */
	static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

	/** No remote engines: JMeter runs here. */
	public static final RemoteEngines NONE = new RemoteEngines(List.of(), false, null, DEFAULT_MAX_CLOCK_SKEW, null,
			List.of());

	public RemoteEngines {
		addresses = List.copyOf(addresses);
		clocks = List.copyOf(clocks);
	}

	/**
	 * The remote-engine settings, checked as a whole; nothing is asked of any engine yet.
	 * @param engines {@code bench.remoteEngines}, {@code null} or empty for none
	 * @param ssl {@code bench.remoteEnginesSsl}, {@code null} when not set (on)
	 * @param keystore {@code bench.rmiKeystore}, {@code null} when not set
	 * ({@link #DEFAULT_KEYSTORE} in {@code buildDirectory})
	 * @param maxClockSkew {@code bench.maxClockSkew}, {@code null} when not set
	 * @param buildDirectory Maven's target directory
	 * @throws BenchSettingException when a setting about remote engines is set without
	 * any, a keystore is named with SSL off, or an engine's port is out of range
	 */
	public static RemoteEngines of(@Nullable List<String> engines, @Nullable Boolean ssl, @Nullable Path keystore,
			@Nullable Duration maxClockSkew, Path buildDirectory) {
		List<String> addresses = (engines != null) ? engines.stream().map(String::trim).toList() : List.of();
		if (addresses.isEmpty()) {
			refuseWithoutEngines("remoteEnginesSsl", ssl, "says whether the lab talks to remote JMeter engines");
			refuseWithoutEngines("rmiKeystore", keystore, "is the keystore the lab shares with remote JMeter engines");
			refuseWithoutEngines("maxClockSkew", (maxClockSkew != null) ? ms(maxClockSkew) : null,
					"bounds the clock skew of remote JMeter engines");
			return NONE;
		}
		for (int i = 0; i < addresses.size(); i++) {
			int port = port(addresses.get(i));
			if (port < 1 || port > 65_535 || addresses.get(i).lastIndexOf(':') < 1) {
				throw new BenchSettingException(
						"bench.remoteEngines=%s is not allowed (element %d is %s): use %s. Nothing was started."
							.formatted(String.join(",", addresses), i + 1, addresses.get(i), ALLOWED));
			}
		}
		boolean overSsl = !Boolean.FALSE.equals(ssl);
		if (!overSsl && keystore != null) {
			throw new BenchSettingException(
					"bench.rmiKeystore=%s is not allowed with bench.remoteEnginesSsl=false: without SSL no keystore is used. Leave one of them unset. Nothing was started."
						.formatted(keystore));
		}
		Path store = overSsl ? Objects.requireNonNullElse(keystore, buildDirectory.resolve(DEFAULT_KEYSTORE))
			.toAbsolutePath()
			.normalize() : null;
		return new RemoteEngines(addresses, overSsl, store,
				Objects.requireNonNullElse(maxClockSkew, DEFAULT_MAX_CLOCK_SKEW), null, List.of());
	}

	private static void refuseWithoutEngines(String setting, @Nullable Object value, String what) {
		if (value != null) {
			throw new BenchSettingException(
					"bench.%s=%s is not allowed without bench.remoteEngines: it %s, and none are set. Set bench.remoteEngines or leave bench.%s unset. Nothing was started."
						.formatted(setting, value, what, setting));
		}
	}

	public boolean none() {
		return this.addresses.isEmpty();
	}

	/**
	 * Checks, before anything starts, that every engine answers as a JMeter server and
	 * that its clock is within {@link #maxClockSkew()} of the lab's, and says so on the
	 * console ({@link EngineCheck}); with SSL, makes the keystore first when there is
	 * none.
	 * @param paths where JMeter is (the clock probe runs the lab's JMeter against the
	 * engines)
	 * @param out the console
	 * @return these engines with this machine's address as they reach it and their clock
	 * readings
	 * @throws BenchSettingException naming {@code bench.remoteEngines}, the engine and
	 * what was tried, when one does not answer or its clock is off
	 */
	public RemoteEngines check(LabPaths paths, PrintStream out) throws IOException, InterruptedException {
		if (none()) {
			return this;
		}
		return new EngineCheck(this, paths, out).run();
	}

	RemoteEngines checked(InetAddress address, List<ClockProbe.Skew> readings) {
		return new RemoteEngines(this.addresses, this.ssl, this.keystore, this.maxClockSkew, address, readings);
	}

	/**
	 * This machine's address as the engines reach it: where the lab's JMeter listens for
	 * their results (its {@code java.rmi.server.hostname}). From the check, or found now
	 * the same way: the local end of a connection to the first engine.
	 */
	InetAddress labAddressForEngines() {
		if (this.labAddress != null) {
			return this.labAddress;
		}
		String engine = this.addresses.get(0);
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host(engine), port(engine)), (int) CONNECT_TIMEOUT.toMillis());
			return socket.getLocalAddress();
		}
		catch (IOException ex) {
			throw new LabFailureException("Remote engine %s does not answer (%s)".formatted(engine, ex.getMessage()),
					ex);
		}
	}

	/** {@code bench.remoteEngines} as written, for messages. */
	String setting() {
		return "bench.remoteEngines=" + String.join(",", this.addresses);
	}

	/**
	 * E.g. {@code RMI over SSL (keystore /…/rmi_keystore.jks)} or
	 * {@code RMI without SSL}.
	 */
	String transport() {
		return this.ssl ? "RMI over SSL (keystore %s)".formatted(this.keystore) : "RMI without SSL";
	}

	/**
	 * The command that starts a JMeter server for this lab on the engine's host, from the
	 * directory that holds the copy of the keystore: JMeter hands the keystore's location
	 * from client to server and back with every RMI reference, so both open it by the
	 * same relative name. {@code JMETER_HOME} stands for the engine's JMeter
	 * installation.
	 * @param jmeterJar the lab's JMeter's jar, e.g. {@code ApacheJMeter-5.6.3.jar}: the
	 * engines run the same version
	 */
	public String startCommand(String engine, String jmeterJar) {
		int port = port(engine);
		List<String> command = new ArrayList<>(List.of("java", "-XX:TieredStopAtLevel=1", "-Dhttp.maxConnections=64",
				"-Djava.rmi.server.hostname=" + host(engine), "-jar", "JMETER_HOME/bin/" + jmeterJar, "-s",
				"-Jserver_port=" + port, "-Jserver.rmi.localport=" + ((port < 65_535) ? port + 1 : port - 1)));
		command.add(this.ssl ? "-Jserver.rmi.ssl.keystore.file=" + keystoreName() : "-Jserver.rmi.ssl.disable=true");
		return String.join(" ", command);
	}

	/**
	 * The directory that holds the keystore, the lab's JMeter's working directory over
	 * SSL.
	 */
	Path keystoreDirectory() {
		Path parent = Objects.requireNonNull(this.keystore, "no keystore without SSL").getParent();
		return Objects.requireNonNull(parent, "the keystore's path is absolute");
	}

	/** The keystore's file name, by which the lab and every engine open it. */
	String keystoreName() {
		return Objects.requireNonNull(this.keystore, "no keystore without SSL").getFileName().toString();
	}

	public static String host(String engine) {
		return engine.substring(0, engine.lastIndexOf(':'));
	}

	/** The engine's port; -1 when it has none. */
	static int port(String engine) {
		try {
			return Integer.parseInt(engine.substring(engine.lastIndexOf(':') + 1));
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	private static String ms(Duration duration) {
		return duration.toMillis() + "ms";
	}

}

package org.poollab.bench.deciding;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.poollab.bench.results.DatabaseFacts;

/**
 * Where the sweep's database ran, seen from the lab's host: the same machine (embedded,
 * or an external one on loopback) or another one, whose cores the lab cannot see.
 *
 * @param hosts the JDBC URL's host(s) without ports, e.g. {@code db.example}; for the
 * embedded database {@code localhost}
 * @param sameHost whether the database shared the lab's host
 */
public record DatabaseHost(String hosts, boolean sameHost) {

	private static final String JDBC = "jdbc:";

	public static DatabaseHost of(DatabaseFacts database) {
		if (DatabaseFacts.UNCHECKED.equals(database.kind())) {
			return new DatabaseHost("an unknown host", false);
		}
		if (!"external".equals(database.kind())) {
			return new DatabaseHost("localhost", true); // started by the lab, on its host
		}
		List<String> hosts = hosts(database.url());
		boolean loopback = !hosts.isEmpty() && hosts.stream().allMatch(DatabaseHost::loopback);
		return new DatabaseHost(hosts.isEmpty() ? "an unknown host" : String.join(",", hosts), loopback);
	}

	/**
	 * The hosts of a {@code jdbc:postgresql://host[:port][,host[:port]]/db} URL; pgjdbc
	 * reads {@code jdbc:postgresql:db} (no authority) as localhost.
	 */
	public static List<String> hosts(String url) {
		if (url == null || !url.startsWith(JDBC)) {
			return List.of();
		}
		try {
			URI uri = new URI(url.substring(JDBC.length()));
			if (uri.getHost() != null) {
				return List.of(uri.getHost());
			}
			if (uri.getRawAuthority() == null) {
				return uri.isOpaque() ? List.of("localhost") : List.of();
			}
			// Several hosts: an authority java.net.URI does not split; drop the ports.
			return Stream.of(uri.getRawAuthority().split(","))
				.map((host) -> host.replaceFirst(":\\d+$", ""))
				.filter((host) -> !host.isEmpty())
				.toList();
		}
		catch (URISyntaxException ex) {
			return List.of();
		}
	}

	/**
	 * A loopback name or literal. Names other than {@code localhost} are not resolved: a
	 * report must not depend on the DNS of the machine that renders it.
	 */
	private static boolean loopback(String host) {
		String name = host.toLowerCase(Locale.ROOT).replace("[", "").replace("]", "");
		return name.equals("localhost") || name.startsWith("127.") || name.equals("::1");
	}

	/** For the report's header, e.g. {@code on the same host}. */
	public String describe() {
		return this.sameHost ? "on the same host" : "on " + this.hosts + ", not the lab's host";
	}

}

package org.poollab.crosscheck;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * One URL the check sends to, with its idle keep-alive connections. Only loopback
 * addresses are accepted: this tool must never put load on another machine.
 */
final class Target {

	final String url;

	final InetSocketAddress address;

	/**
	 * The whole request, encoded once: every request to this target is the same bytes.
	 */
	final byte[] request;

	/**
	 * Idle connections, most recently used first: reusing the warmest keeps the number of
	 * open connections near what the load needs.
	 */
	final ArrayDeque<Connection> idle = new ArrayDeque<>();

	private Target(String url, InetSocketAddress address, byte[] request) {
		this.url = url;
		this.address = address;
		this.request = request;
	}

	/**
	 * Parses an {@code http://} URL whose host is a loopback address.
	 * @throws IllegalArgumentException naming the URL and the reason
	 */
	static Target of(String url) {
		URI uri;
		try {
			uri = new URI(url);
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("--url=%s is not a URL: %s".formatted(url, ex.getMessage()));
		}
		if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
			throw new IllegalArgumentException(
					"--url=%s: only http://host[:port]/path URLs are supported".formatted(url));
		}
		String host = uri.getHost();
		InetAddress address = loopback(url, host);
		int port = (uri.getPort() != -1) ? uri.getPort() : 80;
		String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty()) ? "/" : uri.getRawPath();
		if (uri.getRawQuery() != null) {
			path = path + "?" + uri.getRawQuery();
		}
		String hostHeader = (host.indexOf(':') >= 0 && !host.startsWith("[")) ? "[" + host + "]" : host;
		String request = "GET " + path + " HTTP/1.1\r\nHost: " + hostHeader + ":" + port
				+ "\r\nUser-Agent: poollab-open-loop-check\r\nAccept: */*\r\n\r\n";
		return new Target(url, new InetSocketAddress(address, port), request.getBytes(StandardCharsets.US_ASCII));
	}

	private static InetAddress loopback(String url, String host) {
		String refusal = "Refusing --url=%s: host %s is not a loopback address (127.0.0.0/8 or ::1); this check sends load only to this machine's loopback";
		InetAddress[] addresses;
		try {
			addresses = InetAddress.getAllByName(host);
		}
		catch (UnknownHostException ex) {
			throw new IllegalArgumentException(refusal.formatted(url, host) + " (" + host + " does not resolve)");
		}
		for (InetAddress address : addresses) {
			if (!address.isLoopbackAddress()) {
				throw new IllegalArgumentException(refusal.formatted(url, host));
			}
		}
		return addresses[0];
	}

}

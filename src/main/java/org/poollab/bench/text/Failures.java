package org.poollab.bench.text;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Failed requests by cause, in one line for a table cell or the console: the 503s by the
 * reason the instances counted (pool timeout, too many clients, database unavailable),
 * then every other cause, an HTTP status or, for a request that got no HTTP response, the
 * exception JMeter reports (e.g. {@code java.net.SocketTimeoutException}).
 */
public final class Failures {

	private Failures() {
	}

	/**
	 * E.g.
	 * {@code 503: 4 pool-timeout, 120 too-many-clients; java.net.SocketTimeoutException: 3}.
	 * @param causes failed requests by cause, as JMeter saw them
	 * ({@link org.poollab.bench.results.Point#failureCauses()})
	 * @param refusals the instances' 503s by reason; empty when not recorded
	 * @return the line, empty when nothing failed and nothing was refused
	 */
	public static String describe(Map<String, Long> causes, Map<String, Long> refusals) {
		List<String> parts = new ArrayList<>();
		Map<String, Long> refused = new TreeMap<>(refusals);
		refused.values().removeIf((count) -> count == 0);
		long status503 = causes.getOrDefault("503", 0L);
		if (!refused.isEmpty()) {
			parts.add("503: " + refused.entrySet()
				.stream()
				.map((reason) -> reason.getValue() + " " + reason.getKey())
				.collect(Collectors.joining(", ")));
		}
		else if (status503 > 0) {
			// Older results, or 503s no instance counted (e.g. from a load balancer).
			parts.add("503: " + status503 + " (reason not recorded)");
		}
		causes.entrySet()
			.stream()
			.filter((cause) -> !cause.getKey().equals("503") && cause.getValue() > 0)
			.sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
				.thenComparing(Map.Entry.comparingByKey()))
			.forEach((cause) -> parts.add(cause.getKey() + ": " + cause.getValue()));
		return String.join("; ", parts);
	}

}

package org.poollab.bench.telemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

import org.poollab.bench.results.ServerLatency;
import org.poollab.bench.telemetry.Telemetry.Scrape;

/**
 * Each instance's own request latency over a measured window, from the
 * {@code http.server.requests} histogram in the scrapes around it (see
 * {@link ServerLatency} for what it covers and how fine it is).
 */
public final class ServerLatencyWindow {

	private ServerLatencyWindow() {
	}

	/**
	 * @param scrapes every instance's scrapes of the point
	 * @param ports the instances' HTTP ports, in the order their scrapes are numbered
	 * @param startMs the window's start
	 * @param endMs the window's end
	 * @return one entry per instance, in the same order
	 */
	public static List<ServerLatency> summarize(List<Scrape> scrapes, List<Integer> ports, long startMs, long endMs) {
		List<ServerLatency> latencies = new ArrayList<>();
		for (int i = 0; i < ports.size(); i++) {
			List<Scrape> mine = Telemetry.of(scrapes, i);
			Optional<Scrape> before = Telemetry.lastAtOrBefore(mine, startMs);
			Optional<Scrape> after = Telemetry.firstAtOrAfter(mine, endMs);
			if (before.isEmpty() || after.isEmpty()) {
				latencies.add(ServerLatency.absent(ports.get(i)));
				continue;
			}
			TreeMap<Double, Double> window = Histogram.difference(after.get().pool().requestBuckets(),
					before.get().pool().requestBuckets());
			double requests = Histogram.count(window);
			long spanMs = after.get().atMs() - before.get().atMs();
			if (requests <= 0) {
				latencies.add(new ServerLatency(ports.get(i), 0, -1, -1, -1, spanMs));
				continue;
			}
			latencies.add(new ServerLatency(ports.get(i), Math.round(requests),
					Histogram.percentileMs(window, requests, 0.50), Histogram.percentileMs(window, requests, 0.99),
					Histogram.percentileMs(window, requests, 1.0), spanMs));
		}
		return latencies;
	}

}

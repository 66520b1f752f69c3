package org.poollab.bench.telemetry;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import org.poollab.bench.results.ServerLatency;
import org.poollab.bench.telemetry.Telemetry.Scrape;

import static org.assertj.core.api.Assertions.assertThat;

/** Each instance's own latency, from synthetic scrapes with a known answer. */
class ServerLatencyWindowTests {

	private static final double INF = Double.POSITIVE_INFINITY;

	/** Before the window: 30 requests since the instance started. */
	private static final TreeMap<Double, Double> BEFORE = buckets(10, 20, 30, 30, 30, 30);

	/**
	 * 1000 requests in the window: 100 up to 0.5 ms, 400 more up to 1 ms, 480 up to 2 ms,
	 * 15 up to 5 ms, 5 up to 10 ms.
	 */
	private static final TreeMap<Double, Double> AFTER = buckets(10 + 100, 20 + 500, 30 + 980, 30 + 995, 30 + 1000,
			30 + 1000);

	@Test
	void percentilesAreTheUpperBoundsOfTheBucketsTheyFallInOverTheWindow() {
		List<Scrape> scrapes = List.of(scrape(400, 0, buckets(1, 2, 3, 3, 3, 3)), scrape(900, 0, BEFORE),
				scrape(1500, 0, buckets(50, 200, 300, 300, 300, 300)), scrape(3100, 0, AFTER),
				scrape(3600, 0, buckets(9000, 9000, 9000, 9000, 9000, 9000)));

		List<ServerLatency> latency = ServerLatencyWindow.summarize(scrapes, List.of(8081), 1000, 3000);

		assertThat(latency).containsExactly(new ServerLatency(8081, 1000, 1.0, 5.0, 10.0, 2200));
	}

	@Test
	void anInstanceWithoutAScrapeOnOneSideOfTheWindowHasNoFigures() {
		List<Scrape> scrapes = List.of(scrape(900, 0, BEFORE), scrape(3100, 0, AFTER), scrape(900, 1, BEFORE),
				scrape(2500, 1, AFTER), scrape(1200, 2, BEFORE), scrape(3100, 2, AFTER));

		List<ServerLatency> latency = ServerLatencyWindow.summarize(scrapes, List.of(8081, 8082, 8083, 8084), 1000,
				3000);

		assertThat(latency).containsExactly(new ServerLatency(8081, 1000, 1.0, 5.0, 10.0, 2200),
				ServerLatency.absent(8082), ServerLatency.absent(8083), ServerLatency.absent(8084));
		assertThat(ServerLatency.absent(8082)).isEqualTo(new ServerLatency(8082, -1, -1, -1, -1, -1));
	}

	@Test
	void aLateScrapeWidensTheSpanTheFiguresCoverAndSaysSo() {
		// The scrape due at 3100 came 900 ms late, as on a busy machine: the requests of
		// those 900 ms are in the figures, and the span says they may be.
		List<Scrape> scrapes = List.of(scrape(900, 0, BEFORE), scrape(4000, 0, AFTER));

		assertThat(ServerLatencyWindow.summarize(scrapes, List.of(8081), 1000, 3000))
			.containsExactly(new ServerLatency(8081, 1000, 1.0, 5.0, 10.0, 3100));
	}

	@Test
	void anInstanceThatServedNothingInTheWindowHasNoPercentiles() {
		List<Scrape> scrapes = List.of(scrape(900, 0, BEFORE), scrape(3100, 0, BEFORE));

		assertThat(ServerLatencyWindow.summarize(scrapes, List.of(8081), 1000, 3000))
			.containsExactly(new ServerLatency(8081, 0, -1, -1, -1, 2200));
	}

	@Test
	void bucketsThatAppearDuringTheWindowCountFromZero() {
		// Micrometer creates a status's or URI's timer at its first request.
		List<Scrape> scrapes = List.of(scrape(900, 0, new TreeMap<>()), scrape(3100, 0, AFTER));

		assertThat(ServerLatencyWindow.summarize(scrapes, List.of(8081), 1000, 3000))
			.containsExactly(new ServerLatency(8081, 1030, 1.0, 5.0, 10.0, 2200));
	}

	@Test
	void scrapesReadOnlySuccessfulRequestsToTheLoadsUrisSummedOverTheirOtherLabels() {
		String text = """
				# HELP http_server_requests_seconds
				# TYPE http_server_requests_seconds histogram
				http_server_requests_seconds_bucket{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/roles",le="0.001048576"} 7
				http_server_requests_seconds_bucket{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/roles",le="+Inf"} 9
				http_server_requests_seconds_bucket{error="none",exception="none",method="POST",outcome="SUCCESS",status="201",uri="/roles/{id}/audit",le="0.001048576"} 1
				http_server_requests_seconds_bucket{error="none",exception="none",method="POST",outcome="SUCCESS",status="201",uri="/roles/{id}/audit",le="+Inf"} 2
				http_server_requests_seconds_bucket{error="none",exception="none",method="GET",outcome="SERVER_ERROR",status="503",uri="/roles",le="0.001048576"} 100
				http_server_requests_seconds_bucket{error="none",exception="none",method="GET",outcome="SERVER_ERROR",status="503",uri="/roles",le="+Inf"} 100
				http_server_requests_seconds_bucket{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/actuator/prometheus",le="+Inf"} 50
				http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/roles"} 9
				hikaricp_connections_max{pool="roles-8081"} 5.0
				""";

		PoolSnapshot snapshot = PoolSnapshot.parse(text);

		assertThat(snapshot.requestBuckets()).isEqualTo(new TreeMap<>(Map.of(0.001048576, 8.0, INF, 11.0)));
		assertThat(snapshot.max()).isEqualTo(5.0);
	}

	private static Scrape scrape(long atMs, int instance, TreeMap<Double, Double> requestBuckets) {
		return new Scrape(atMs, instance, new PoolSnapshot(5, 0, 0, 0, 0, new TreeMap<>(), 0, 0, Map.of(),
				requestBuckets, null, PoolSnapshot.Hold.NONE, new TreeMap<>()));
	}

	/** Cumulative counts at 0.5, 1, 2, 5 and 10 ms and +Inf. */
	private static TreeMap<Double, Double> buckets(double... cumulative) {
		double[] boundsSeconds = { 0.0005, 0.001, 0.002, 0.005, 0.01, INF };
		TreeMap<Double, Double> buckets = new TreeMap<>();
		for (int i = 0; i < boundsSeconds.length; i++) {
			buckets.put(boundsSeconds[i], cumulative[i]);
		}
		return buckets;
	}

}

package org.poollab.bench.telemetry;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import org.poollab.bench.results.Pool;
import org.poollab.bench.telemetry.Telemetry.Scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The pools' figures over a window, from synthetic scrapes with a known answer. */
class PoolWindowTests {

	@Test
	void meanActiveIsTheAverageOfTheScrapesInsideTheWindowSummedOverInstances() {
		// Instance 0 inside the window: 0, 1, 0, 1 active (mean 0.5); instance 1: 2, 2
		// (mean 2). Scrapes outside the window (3 and 9 active) do not count.
		List<Scrape> scrapes = List.of(scrape(900, 0, 3), scrape(1000, 0, 0), scrape(1500, 0, 1), scrape(2000, 0, 0),
				scrape(2500, 0, 1), scrape(3100, 0, 9), scrape(1200, 1, 2), scrape(2200, 1, 2));

		Pool pool = PoolWindow.summarize(scrapes, 2, 1000, 3000);

		assertThat(pool.meanActive()).isCloseTo(2.5, within(1e-12));
		assertThat(pool.peakActive()).isEqualTo(2);
		assertThat(pool.observedMax()).containsExactly(5, 5);
	}

	private static Scrape scrape(long atMs, int instance, double active) {
		return new Scrape(atMs, instance, new PoolSnapshot(5, active, 0, 0, 0, new TreeMap<>(), 0, 0, Map.of(),
				new TreeMap<>(), null, PoolSnapshot.Hold.NONE));
	}

}

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

		Pool pool = PoolWindow.summarize(scrapes, 2, 1000, 3000, List.of());

		assertThat(pool.meanActive()).isCloseTo(2.5, within(1e-12));
		assertThat(pool.peakActive()).isEqualTo(2);
		assertThat(pool.observedMax()).containsExactly(5, 5);
	}

	/**
	 * A slow machine, as measured beside a CPU hog: the resize from 4 to 2 confirmed 0.9
	 * s into a 2 s settle, and a scrape asked for 0.38 s after that still read 4 from
	 * HikariCP's statistics, refreshed at most once a second. Had the resize come a
	 * little later, such a scrape fell inside the window, and both instances read
	 * "changed": [-1, -1]. A scrape asked for within the gauge's lag of the resize proves
	 * nothing either way.
	 */
	@Test
	void aScrapeThatMayReadThePoolFromBeforeItsResizeDoesNotCountAgainstTheWindow() {
		List<Long> resizedAtMs = List.of(1_100L, 1_100L);
		// The window is 2000-4000; the scrapes asked for at 2050 read HikariCP's
		// statistics of before the resize.
		List<Scrape> scrapes = List.of(sized(2050, 2060, 0, 4), sized(2050, 2070, 1, 4), sized(2500, 2510, 0, 2),
				sized(2500, 2520, 1, 2), sized(3000, 3010, 0, 2), sized(3000, 3010, 1, 2));

		assertThat(PoolWindow.summarize(scrapes, 2, 2000, 4000, resizedAtMs).observedMax()).containsExactly(2, 2);
		// Without the resize's time the same readings are a change in the window.
		assertThat(PoolWindow.summarize(scrapes, 2, 2000, 4000, List.of(Long.MIN_VALUE, Long.MIN_VALUE)).observedMax())
			.containsExactly(-1, -1);
	}

	@Test
	void aPoolThatChangesInTheWindowLongAfterItsResizeIsStillAChange() {
		List<Scrape> scrapes = List.of(sized(2500, 2510, 0, 2), sized(3500, 3510, 0, 3));

		assertThat(PoolWindow.summarize(scrapes, 1, 2000, 4000, List.of(500L)).observedMax()).containsExactly(-1);
	}

	@Test
	void aResizeConfirmedAfterTheWindowBeganIsAChangeWhateverTheGaugesRead() {
		// Instance 0's resize answered before the window, instance 1's 0.1 s into it.
		List<Scrape> scrapes = List.of(sized(3500, 3510, 0, 2), sized(3600, 3610, 1, 2));

		assertThat(PoolWindow.summarize(scrapes, 2, 2000, 4000, List.of(1900L, 2100L)).observedMax()).containsExactly(2,
				-1);
	}

	@Test
	void anInstanceWithNoReadingAfterItsResizeHasNoObservedSize() {
		// Instance 1's only scrape was asked for 0.5 s after the resize.
		List<Scrape> scrapes = List.of(sized(2500, 2510, 0, 2), sized(1500, 2100, 1, 4));

		assertThat(PoolWindow.summarize(scrapes, 2, 2000, 4000, List.of(1000L, 1000L)).observedMax())
			.containsExactly(2);
	}

	@Test
	void theHoldsDrawnAreReadBesideTheHoldsHeldOverTheWindowOfEveryInstance() {
		// Instance 0 drew 200 holds of 1.5 ms in the window, instance 1 100 of 3 ms: 2 ms
		// drawn on average; both held a little longer (the round trip).
		List<Scrape> scrapes = List.of(exposed(1000, 0, 0.1, 100, 0.105, 100), exposed(3000, 0, 0.4, 300, 0.42, 300),
				exposed(1000, 1, 0, 0, 0, 0), exposed(3000, 1, 0.3, 100, 0.31, 100));

		Pool pool = PoolWindow.summarize(scrapes, 2, 1000, 3000, List.of());

		assertThat(pool.holdDrawnMeanMs()).isCloseTo(2.0, within(1e-9));
		assertThat(pool.holdMeanMs()).isCloseTo(1000 * (0.315 + 0.31) / 300, within(1e-9));
		assertThat(PoolWindow.summarize(List.of(scrape(1000, 0, 0), scrape(3000, 0, 0)), 1, 1000, 3000, List.of())
			.holdDrawnMeanMs()).as("nothing drawn: a team's app, or no emulated hold").isNull();
	}

	/** A scrape as the service exposes its hold timers (only those series). */
	private static Scrape exposed(long atMs, int instance, double drawnSeconds, long drawn, double heldSeconds,
			long held) {
		String text = String.join("\n", "hikaricp_connections_max{pool=\"HikariPool-1\"} 5.0",
				"lab_connection_hold_seconds_bucket{le=\"+Inf\"} " + held, "lab_connection_hold_seconds_count " + held,
				"lab_connection_hold_seconds_sum " + heldSeconds, "lab_hold_drawn_seconds_count " + drawn,
				"lab_hold_drawn_seconds_sum " + drawnSeconds, "lab_hold_drawn_seconds_max 0.0") + "\n";
		return new Scrape(atMs, instance, PoolSnapshot.parse(text));
	}

	private static Scrape scrape(long atMs, int instance, double active) {
		return new Scrape(atMs, instance, new PoolSnapshot(5, active, 0, 0, 0, new TreeMap<>(), 0, 0, Map.of(),
				new TreeMap<>(), null, PoolSnapshot.Hold.NONE, new TreeMap<>()));
	}

	private static Scrape sized(long sentMs, long atMs, int instance, int max) {
		return new Scrape(sentMs, atMs, instance, new PoolSnapshot(max, 0, 0, 0, 0, new TreeMap<>(), 0, 0, Map.of(),
				new TreeMap<>(), null, PoolSnapshot.Hold.NONE, new TreeMap<>()));
	}

}

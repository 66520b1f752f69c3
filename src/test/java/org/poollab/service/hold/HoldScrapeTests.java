package org.poollab.service.hold;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The services' hold assertion, on scrapes with a known answer. */
class HoldScrapeTests {

	private static final double HOLD_MS = 20;

	@Test
	void holdsWokenLateOnABusyMachinePass() {
		// The histogram of a fresh-clone run beside two other test JVMs, 2026-11-28.
		HoldScrape busy = scrape(20, 0.5144, 0, 10, 17, 19, 20);

		busy.assertHolds("busy", 20, HOLD_MS);
		assertThat(busy.medianBucketMs()).isEqualTo(22.369621);
	}

	/**
	 * Most holds woken late enough to land in the 33.6 ms bucket, as the reactive twin's
	 * did beside two builds (2026-11-28; the counts here are an example, the bucket was
	 * measured).
	 */
	@Test
	void holdsWokenLaterStillPass() {
		HoldScrape busier = scrape(20, 0.62, 0, 2, 8, 17, 20);

		busier.assertHolds("busier", 20, HOLD_MS);
		assertThat(busier.medianBucketMs()).isEqualTo(33.554431);
	}

	@Test
	void doubledHoldsFail() {
		HoldScrape doubled = scrape(20, 0.8, 0, 0, 0, 0, 20);

		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> doubled.assertHolds("doubled", 20, HOLD_MS))
			.withMessageContaining("median hold's bucket");
	}

	@Test
	void missingHoldsFail() {
		HoldScrape none = scrape(20, 0.004, 20, 20, 20, 20, 20);

		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> none.assertHolds("none", 20, HOLD_MS))
			.withMessageContaining("mean hold");
	}

	/**
	 * A scrape of the hold timer with cumulative counts at 1 ms, 22.4 ms, 28 ms, 33.6 ms
	 * and 89.5 ms.
	 */
	private static HoldScrape scrape(int count, double sumSeconds, int... cumulative) {
		String[] bounds = { "0.001", "0.022369621", "0.027962026", "0.033554431", "0.089478485" };
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < bounds.length; i++) {
			text.append(ConnectionHold.PROMETHEUS_NAME + "_bucket{le=\"" + bounds[i] + "\"} " + cumulative[i] + "\n");
		}
		text.append(ConnectionHold.PROMETHEUS_NAME + "_bucket{le=\"+Inf\"} " + count + "\n");
		text.append(ConnectionHold.PROMETHEUS_NAME + "_count " + count + "\n");
		text.append(ConnectionHold.PROMETHEUS_NAME + "_sum " + sumSeconds + "\n");
		return HoldScrape.of(text.toString());
	}

}

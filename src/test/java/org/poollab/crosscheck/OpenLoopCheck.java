package org.poollab.crosscheck;

import java.math.BigDecimal;

/**
 * An open-loop, constant-rate load generator to cross-check the lab's JMeter figures:
 * request k goes out at start + k / rate (or on a seeded Poisson schedule) whatever the
 * earlier requests are doing, on an idle keep-alive connection or a new one, and latency
 * is measured from the intended send time (free of coordinated omission, like wrk2) as
 * well as from the actual one, with the send lag between them.
 * <p>
 * Written in Java because Vegeta cannot be built here (no Go module proxy), and kept lean
 * because it shares two cores with the service and PostgreSQL: one thread, non-blocking
 * sockets and a selector, a minimal HTTP/1.1 client, no allocation per request beyond a
 * few header strings. Measured against the lab's warm {@code /roles} (6.8 KB responses),
 * with {@code -XX:TieredStopAtLevel=1}: see the README for the figures.
 * <p>
 * Load goes only to loopback addresses; the run stops by itself after warm-up + duration
 * + timeout. Usage: {@value Settings#USAGE}
 */
public final class OpenLoopCheck {

	private OpenLoopCheck() {
	}

	public static void main(String[] args) throws Exception {
		Settings settings;
		try {
			settings = Settings.parse(args);
			settings.targets();
		}
		catch (IllegalArgumentException ex) {
			System.err.println("open-loop check: " + ex.getMessage());
			System.exit(2);
			return;
		}
		new LoadLoop(settings).run().print(System.out);
	}

	/** A number without needless decimals: 2000, 0.5. */
	static String decimal(double value) {
		return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
	}

}

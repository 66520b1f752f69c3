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
 * because it shares two cores with the service and PostgreSQL: one sending thread with
 * non-blocking sockets and a selector (a second thread only wakes it at each due time), a
 * minimal HTTP/1.1 client, no allocation per request beyond a few header strings. The
 * JDK's HttpClient was not tried: its per-request futures and executor hand-offs are what
 * this avoids. It costs about 150 µs of CPU per request on a 2-core VM, like Vegeta's
 * 0.31 cores at 2000 rps there (its own CPU at each rate:
 * src/site/markdown/measurements.md, cross-checking).
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

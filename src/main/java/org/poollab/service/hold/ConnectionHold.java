package org.poollab.service.hold;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The names of the measured hold, one home for the service that records it and the lab
 * that reads it.
 */
public final class ConnectionHold {

	/**
	 * Every request's connection hold, checkout to return, on a nanosecond clock: a
	 * Micrometer timer with a percentile histogram. HikariCP's own
	 * {@code hikaricp.connections.usage} counts whole milliseconds, and r2dbc-pool has
	 * none.
	 */
	public static final String METRIC = "lab.connection.hold";

	/** {@link #METRIC} as {@code /actuator/prometheus} names its series' stem. */
	public static final String PROMETHEUS_NAME = "lab_connection_hold_seconds";

	/**
	 * Every hold drawn for a request to emulate, as drawn (before it is held): a
	 * Micrometer timer without a histogram, so that a window's drawn mean is read beside
	 * the held one and the emulation is judged against its own draws.
	 */
	public static final String DRAWN_METRIC = "lab.hold.drawn";

	/** {@link #DRAWN_METRIC} as {@code /actuator/prometheus} names its series' stem. */
	public static final String DRAWN_PROMETHEUS_NAME = "lab_hold_drawn_seconds";

	/** The service's settings of the emulated hold. */
	public static final String PROPERTIES_PREFIX = "lab.hold";

	private ConnectionHold() {
	}

	/**
	 * The timer, registered with its description: each service registers it at start, so
	 * that it is scraped (count 0) before the first request. Its histogram is
	 * configuration ({@code management.metrics.distribution.*}).
	 */
	public static Timer register(MeterRegistry registry) {
		return Timer.builder(METRIC)
			.description("Each request's connection hold, from checkout to return, emulated hold included")
			.register(registry);
	}

	/** The timer of the holds drawn ({@link #DRAWN_METRIC}), registered. */
	static Timer registerDrawn(MeterRegistry registry) {
		return Timer.builder(DRAWN_METRIC)
			.description("Each emulated hold as drawn from lab.hold.*, before it is held")
			.register(registry);
	}

}

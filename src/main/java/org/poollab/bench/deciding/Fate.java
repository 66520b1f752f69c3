package org.poollab.bench.deciding;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.poollab.bench.results.Point;

/**
 * What a point's outcome means for the report. A dead instance is something the load did
 * to the service, so it is a result; a pool that could not prove its size is a
 * measurement of an unknown pool, kept in view but out of the decision; anything else
 * that is not ok is the lab failing to measure, which says nothing about the service.
 */
public enum Fate {

	/** Outcome {@code ok}. */
	MEASURED,

	/**
	 * An instance died during the point (the sweep's outcome names its port and cause).
	 */
	DIED,

	/**
	 * The instances' pool size did not match the point's (outcome "pool not verified").
	 */
	UNVERIFIED,

	/**
	 * The load generator fell behind its schedule in the window (outcome
	 * "generator-bound"): the window measured JMeter, not the service. Left out of every
	 * verdict like a point not measured, and shown as such.
	 */
	GENERATOR_BOUND,

	/**
	 * The lab did not get a measurement (JMeter crashed, an instance did not start, ...).
	 */
	NOT_MEASURED;

	/** Outcome prefix of a generator-bound point (the sweep's GeneratorCheck). */
	public static final String GENERATOR_BOUND_PREFIX = "generator-bound";

	/** Whether the point stays out of the cells and every verdict. */
	public boolean excluded() {
		return this == NOT_MEASURED || this == GENERATOR_BOUND;
	}

	/** The sweep's outcome for a dead instance (Sweep.outcome). */
	private static final String DIED_PREFIX = "instance(s) on port(s)";

	private static final String UNVERIFIED_PREFIX = "pool not verified";

	private static final Pattern JVM_ERROR = Pattern.compile("java\\.lang\\.(\\w+(?:Error|Exception))(: [^;)]+)?");

	private static final Pattern EXIT_CODE = Pattern.compile("exit code -?\\d+");

	public static Fate of(Point point) {
		if (point.ok()) {
			return MEASURED;
		}
		String outcome = point.outcome();
		if (outcome.startsWith(DIED_PREFIX) && outcome.contains(" died")) {
			return DIED;
		}
		if (outcome.startsWith(UNVERIFIED_PREFIX)) {
			return UNVERIFIED;
		}
		if (outcome.startsWith(GENERATOR_BOUND_PREFIX)) {
			return GENERATOR_BOUND;
		}
		return NOT_MEASURED;
	}

	/**
	 * Why an instance died, in a few words: the JVM's error when its log named one (e.g.
	 * {@code OutOfMemoryError: Java heap space}), else the exit code.
	 * @param outcome a {@link #DIED} point's outcome
	 * @return the cause
	 */
	public static String causeOfDeath(String outcome) {
		Matcher error = JVM_ERROR.matcher(outcome);
		if (error.find()) {
			return error.group(1) + ((error.group(2) != null) ? error.group(2) : "");
		}
		Matcher exit = EXIT_CODE.matcher(outcome);
		return exit.find() ? exit.group() + ", no cause in its log" : "cause not recorded";
	}

}

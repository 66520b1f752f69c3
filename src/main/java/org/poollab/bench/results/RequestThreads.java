package org.poollab.bench.results;

import java.util.OptionalInt;

import org.poollab.bench.model.Fleet;

/**
 * What runs each instance's requests: Tomcat's platform threads (at most
 * {@code server.tomcat.threads.max} at once, the rest wait in Tomcat's accept queue) or
 * virtual threads ({@code spring.threads.virtual.enabled}: no cap, so every request waits
 * inside HikariCP and {@code connection-timeout} alone decides who gets a 503).
 *
 * @param virtual requests run on virtual threads
 * @param tomcatMax {@code server.tomcat.threads.max}; 0: not set (Tomcat's default, 200),
 * always 0 with virtual threads
 */
public record RequestThreads(boolean virtual, int tomcatMax) {

	/** Tomcat's platform threads, as many as Tomcat's default. */
	public static final RequestThreads TOMCAT_DEFAULT = new RequestThreads(false, 0);

	/** A virtual thread per request. */
	public static final RequestThreads VIRTUAL = new RequestThreads(true, 0);

	public RequestThreads {
		if (virtual && tomcatMax != 0) {
			throw new IllegalArgumentException("Virtual threads have no Tomcat thread maximum: " + tomcatMax);
		}
	}

	/** Tomcat's platform threads, at most {@code tomcatMax} (0: Tomcat's default). */
	public static RequestThreads platform(int tomcatMax) {
		return new RequestThreads(false, tomcatMax);
	}

	/**
	 * Requests one instance serves at once (Tn), empty when nothing but the pool caps
	 * them (virtual threads).
	 */
	public OptionalInt cap() {
		if (this.virtual) {
			return OptionalInt.empty();
		}
		return OptionalInt.of((this.tomcatMax > 0) ? this.tomcatMax : Fleet.TOMCAT_DEFAULT_THREADS);
	}

	/** How deployment labels end: empty, {@code -tomcat50} or {@code -virtual}. */
	public String labelSuffix() {
		return this.virtual ? "-virtual" : (this.tomcatMax > 0) ? "-tomcat" + this.tomcatMax : "";
	}

	/**
	 * For the console and the report: {@code virtual threads}, {@code 50 Tomcat threads},
	 * or empty for Tomcat's default.
	 */
	public String describe() {
		return (this.virtual || this.tomcatMax > 0) ? name() : "";
	}

	/**
	 * Named always, Tomcat's default too: {@code virtual threads}, {@code 50 Tomcat
	 * threads}, {@code 200 Tomcat threads}.
	 */
	public String name() {
		return this.virtual ? "virtual threads" : cap().getAsInt() + " Tomcat threads";
	}

	/** {@code virtual} or {@code platform}, as the results' CSV writes it. */
	public String model() {
		return this.virtual ? "virtual" : "platform";
	}

}

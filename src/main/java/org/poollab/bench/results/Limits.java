package org.poollab.bench.results;

/**
 * What each instance JVM of a point was limited to: the paper ran every instance with 1
 * CPU and 128 MB.
 *
 * @param cpus CPUs each instance was pinned to ({@code taskset} and
 * {@code -XX:ActiveProcessorCount}); 0: not pinned, all of the host's
 * @param heap the instance's {@code -Xmx}, e.g. {@code 512m}
 * @param tomcatThreads {@code server.tomcat.threads.max}; 0: not set, Tomcat's default
 * (200)
 */
public record Limits(int cpus, String heap, int tomcatThreads) {

	/** Without {@code bench.instance*} and {@code bench.tomcatThreads}. */
	public static final Limits DEFAULTS = new Limits(0, "512m", 0);

	/** Short form for the console and the report, e.g. {@code 1 CPU, heap 128m}. */
	public String describe() {
		String cpus = switch (this.cpus) {
			case 0 -> "all CPUs";
			case 1 -> "1 CPU";
			default -> this.cpus + " CPUs";
		};
		return cpus + ", heap " + this.heap
				+ ((this.tomcatThreads > 0) ? ", " + this.tomcatThreads + " Tomcat threads" : "");
	}

}

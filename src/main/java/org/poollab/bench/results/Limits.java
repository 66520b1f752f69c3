package org.poollab.bench.results;

import java.util.OptionalInt;

import org.jspecify.annotations.Nullable;

import org.poollab.vendor.DatabaseVendor;

/**
 * What each instance JVM of a point was limited to: the paper ran every instance with 1
 * CPU and 128 MB.
 *
 * @param cpus CPUs each instance was pinned to ({@code taskset} and
 * {@code -XX:ActiveProcessorCount}); 0: not pinned, all of the host's
 * @param heap the instance's {@code -Xmx}, e.g. {@code 512m}
 * @param tomcatThreads {@code server.tomcat.threads.max}; 0: not set, Tomcat's default
 * (200), and with virtual threads
 * @param virtualThreads requests ran on virtual threads
 * ({@code spring.threads.virtual.enabled}); false in results written before the lab
 * measured them (a {@code Boolean} only so that those read: JSON without it gives null,
 * which becomes false here)
 * @param stack which service ran: {@link Stack#JDBC} in results written before the lab
 * swept stacks (null there)
 * @param vendor the database the instances ran on ({@code bench.database.vendor}, a
 * dimension of the grid): {@link DatabaseVendor#DEFAULT} (PostgreSQL) in results written
 * before the lab swept vendors (null there), which also name it in
 * {@link SweepResults#database()}
 * @param hold the connection hold each instance emulated on every request; {@code null}:
 * none, each request held its connection as long as its own statements took
 */
public record Limits(int cpus, String heap, int tomcatThreads, Boolean virtualThreads, Stack stack,
		DatabaseVendor vendor, @Nullable EmulatedHold hold) {

	public Limits {
		virtualThreads = Boolean.TRUE.equals(virtualThreads);
		stack = (stack != null) ? stack : Stack.JDBC;
		vendor = (vendor != null) ? vendor : DatabaseVendor.DEFAULT;
	}

	public Limits(int cpus, String heap, int tomcatThreads, Boolean virtualThreads, Stack stack,
			DatabaseVendor vendor) {
		this(cpus, heap, tomcatThreads, virtualThreads, stack, vendor, null);
	}

	/** The same limits with an emulated hold (or none). */
	public Limits withHold(@Nullable EmulatedHold emulated) {
		return new Limits(this.cpus, this.heap, this.tomcatThreads, this.virtualThreads, this.stack, this.vendor,
				emulated);
	}

	public Limits(int cpus, String heap, int tomcatThreads, Boolean virtualThreads, Stack stack) {
		this(cpus, heap, tomcatThreads, virtualThreads, stack, DatabaseVendor.DEFAULT);
	}

	public Limits(int cpus, String heap, int tomcatThreads, Boolean virtualThreads) {
		this(cpus, heap, tomcatThreads, virtualThreads, Stack.JDBC);
	}

	/**
	 * {@link #heap()} of an external deployment's instances
	 * ({@code bench.target=external}): the lab set none of their limits, so it records
	 * none.
	 */
	public static final String AS_DEPLOYED = "as deployed";

	/**
	 * Without {@code bench.instance*}, {@code bench.tomcatThreads} and
	 * {@code bench.threads}.
	 */
	public static final Limits DEFAULTS = new Limits(0, "512m", RequestThreads.TOMCAT_DEFAULT);

	public Limits(int cpus, String heap, RequestThreads threads) {
		this(cpus, heap, Stack.JDBC, threads);
	}

	public Limits(int cpus, String heap, Stack stack, RequestThreads threads) {
		this(cpus, heap, DatabaseVendor.DEFAULT, stack, threads);
	}

	public Limits(int cpus, String heap, DatabaseVendor vendor, Stack stack, RequestThreads threads) {
		this(cpus, heap, threads.tomcatMax(), threads.virtual(), stack, vendor);
	}

	/**
	 * How the label of a deployment goes on after its topology: {@code multi},
	 * {@code multi-r2dbc}, {@code single-virtual}, {@code single-tomcat50}.
	 */
	public static String labelSuffix(Stack stack, RequestThreads threads) {
		return labelSuffix(DatabaseVendor.DEFAULT, stack, threads);
	}

	/**
	 * The same with the database: the default vendor (PostgreSQL, the lab's first) adds
	 * nothing; another vendor adds its name first, e.g. {@code single-mariadb},
	 * {@code single-mariadb-virtual}.
	 */
	public static String labelSuffix(DatabaseVendor vendor, Stack stack, RequestThreads threads) {
		return vendorSuffix(vendor) + stack.labelSuffix() + threads.labelSuffix();
	}

	private static String vendorSuffix(DatabaseVendor vendor) {
		return vendor.isDefault() ? "" : "-" + vendor.propertyValue();
	}

	/** {@link #labelSuffix(DatabaseVendor, Stack, RequestThreads)} of these limits. */
	public String labelSuffix() {
		return labelSuffix(this.vendor, this.stack, threads());
	}

	/**
	 * Requests one instance serves at once (Tn), empty when nothing but the pool caps
	 * them: virtual threads, or the reactive twin's event loop.
	 */
	public OptionalInt requestCap() {
		return (this.stack == Stack.R2DBC) ? OptionalInt.empty() : threads().cap();
	}

	/** What ran the requests. */
	public RequestThreads threads() {
		return new RequestThreads(this.virtualThreads, this.tomcatThreads);
	}

	/** Short form for the console and the report, e.g. {@code 1 CPU, heap 128m}. */
	public String describe() {
		if (AS_DEPLOYED.equals(this.heap)) {
			return "limits as deployed, not set by the lab";
		}
		String cpus = switch (this.cpus) {
			case 0 -> "all CPUs";
			case 1 -> "1 CPU";
			default -> this.cpus + " CPUs";
		};
		String threads = threads().describe();
		return ((this.stack != Stack.JDBC) ? this.stack.title() + ", " : "") + cpus + ", heap " + this.heap
				+ (threads.isEmpty() ? "" : ", " + threads)
				+ ((this.hold != null) ? ", hold " + this.hold.describe() : "");
	}

}

package org.poollab.vendor;

import java.time.Duration;

/**
 * The CPU time a database server spends serving one connection, read where the server
 * runs on this machine ({@link DatabaseVendor#connectionCpu}).
 */
public interface ConnectionCpu {

	/** The CPU time so far, nanoseconds. */
	long nanos();

	/** What it reads, e.g. {@code backend}. */
	String name();

	/**
	 * The CPU to measure over for one reading: the clock's granularity is a small part of
	 * it.
	 */
	Duration perCount();

}

package org.poollab.service.hold;

import java.util.Locale;

/**
 * Where an emulated hold spends its time while the request keeps its connection
 * ({@code lab.hold.place}, the lab's {@code bench.holdPlace}).
 */
public enum HoldPlace {

	/**
	 * The database waits: {@code SELECT pg_sleep(s)} on PostgreSQL,
	 * {@code SELECT SLEEP(s)} on MariaDB, in the request's transaction. A backend busy
	 * without CPU: a slow statement or a round trip to a database in another zone. Its
	 * sleep wakes on whole milliseconds, so it is given the whole ones it cannot overrun
	 * and the thread waits out the last one or two
	 * ({@link HoldPadding#databaseSleepNanos(long)}): a hold of a few milliseconds or
	 * less is waited on the thread, its connection held all the same.
	 */
	DATABASE,

	/**
	 * The application works: the request's thread sleeps (the reactive twin delays) while
	 * it holds the connection, e.g. a remote call inside {@code @Transactional}.
	 */
	APPLICATION;

	/** As settings write it: {@code database}, {@code application}. */
	public String value() {
		return name().toLowerCase(Locale.ROOT);
	}

}
